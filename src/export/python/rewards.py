"""Coevo's rewards for existing GRPO trainers: TRL and ms-swift.

Exported by `npm run export` (src/export in the Coevo repository) next to the
datasets; this file is copied from src/export/python/rewards.py. The same
numbers as the TypeScript code of src/learn/rewards.ts (METHOD.md §2 and §3);
`python3 rewards.py --check reward_checks.jsonl` proves it on the exported rows.

Rewards:
- grounding (SE-GUI): the answer is a point "(x, y)" in screenshot pixels.
  R_format = 1 for a well-formed point; R_point = base + decay, base = 1 inside
  the true box (edges included), decay = 1 - (d / d_max)^2 in coordinates
  normalised by the screen size; R = 1 * R_format + 2 * R_point.
- plan (Co-EPG's C-DREM): the answer is one instruction. 0 if it does not
  parse (grammar.json holds the grammar), 0 if its action type or value
  (token F1 > 0.5) is wrong; else, for a step with a target, the weighted
  share of a grounder pool whose points land in the true box, weights
  softmax(prior * confidence); for a step without a target, 1.

Trainers:
- TRL GRPOTrainer: reward functions take the completions and every other
  dataset column as keywords and return a list of floats
  (https://huggingface.co/docs/trl/grpo_trainer#using-a-custom-reward-function).
  Use `reward_funcs=[grounding_format_reward, grounding_point_reward]` with
  `reward_weights=[1.0, 2.0]` (or `grounding_reward`, the same sum), and
  `plan_reward` for the planner.
- ms-swift GRPO: ORM plugin classes registered in `orms`, loaded with
  `--external_plugins rewards.py --reward_funcs coevo_format coevo_point`
  (https://swift.readthedocs.io/en/latest/Instruction/GRPO/DeveloperGuide/reward_function.html).

The plan reward needs grounders: call `set_grounder_pool([...])` with
`PoolGrounder`s, or set COEVO_GROUNDER_POOL=module:function to a function that
returns that list (the ms-swift plugin is loaded by the trainer, so the
environment variable is its way in).

Nothing here needs TRL, ms-swift or any package outside the standard library.
"""

import importlib
import json
import math
import os
import re
import sys

try:  # ms-swift's plugin base class and registry, when ms-swift is installed.
    from swift.plugin import ORM, orms
except Exception:  # noqa: BLE001 - any failure means "no ms-swift here"; the TRL functions still work.

    class ORM:  # type: ignore[no-redef]
        """Stand-in for swift.plugin.ORM so that this file imports without ms-swift."""

    orms = {}

FORMAT_WEIGHT = 1.0
POINT_WEIGHT = 2.0
VALUE_F1 = 0.5
VALUE_ACTIONS = ("TYPE", "SELECT", "SCROLL", "OPEN_APP")

# ---------------------------------------------------------------------------
# Text of a completion

def completion_text(completion):
    """TRL's conversational completions are [{"role": "assistant", "content": ...}]; ms-swift's are strings."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion:
        content = completion[0].get("content", "") if isinstance(completion[0], dict) else completion[0]
        if isinstance(content, list):  # content parts: keep the text ones
            return "".join(p.get("text", "") for p in content if isinstance(p, dict))
        return content if isinstance(content, str) else ""
    return ""

# ---------------------------------------------------------------------------
# Grounding reward (SE-GUI)

# The same pattern as POINT_PATTERN in src/export/answers.ts.
_SPACE = "[ \\t\\n\\r]*"
_NUMBER = "(-?[0-9]+(?:\\.[0-9]+)?)"
_POINT_RE = re.compile(_SPACE + "\\(" + _SPACE + _NUMBER + _SPACE + "," + _SPACE + _NUMBER + _SPACE + "\\)" + _SPACE)


def parse_point(text):
    m = _POINT_RE.fullmatch(text)
    return (float(m.group(1)), float(m.group(2))) if m else None


def inside_box(x, y, box):
    bx, by, bw, bh = box
    return bx <= x <= bx + bw and by <= y <= by + bh


def dense_point_reward(point, box, width, height):
    """{"format", "base", "decay", "point", "total"} of one answer; point None means malformed."""
    if point is None:
        return {"format": 0.0, "base": 0.0, "decay": 0.0, "point": 0.0, "total": 0.0}
    x, y = point
    bx, by, bw, bh = box
    px, py = x / width, y / height
    cx, cy = (bx + bw / 2) / width, (by + bh / 2) / height
    d = math.hypot(px - cx, py - cy)
    d_max = max(math.hypot(cx, cy), math.hypot(1 - cx, cy), math.hypot(cx, 1 - cy), math.hypot(1 - cx, 1 - cy))
    base = 1.0 if inside_box(x, y, box) else 0.0
    decay = max(0.0, 1 - (d / d_max) ** 2)  # off-screen points would push it below 0
    r = base + decay
    return {"format": 1.0, "base": base, "decay": decay, "point": r, "total": FORMAT_WEIGHT * 1 + POINT_WEIGHT * r}


def grade_grounding(text, target_box, screen_width, screen_height):
    return dense_point_reward(parse_point(text), target_box, screen_width, screen_height)


def _per_row(completions, kwargs, score):
    """Applies score(text, row) to each completion; rows without a target box get None ("not applicable" in TRL)."""
    n = len(completions)
    boxes = kwargs.get("target_box") or [None] * n
    widths = kwargs.get("screen_width") or [None] * n
    heights = kwargs.get("screen_height") or [None] * n
    out = []
    for i, c in enumerate(completions):
        if boxes[i] is None or widths[i] is None:
            out.append(None)
            continue
        out.append(score(grade_grounding(completion_text(c), boxes[i], widths[i], heights[i])))
    return out


def grounding_format_reward(completions, **kwargs):
    """TRL reward: R_format (weight 1)."""
    return _per_row(completions, kwargs, lambda r: r["format"])


def grounding_point_reward(completions, **kwargs):
    """TRL reward: R_point (weight 2)."""
    return _per_row(completions, kwargs, lambda r: r["point"])


def grounding_reward(completions, **kwargs):
    """TRL reward: 1 * R_format + 2 * R_point in one function."""
    return _per_row(completions, kwargs, lambda r: r["total"])

# ---------------------------------------------------------------------------
# The instruction grammar (a port of src/text/grammar.ts parseInstruction)

_HERE = os.path.dirname(os.path.abspath(__file__))
_GRAMMAR = None
# JavaScript's \s and String.prototype.trimEnd set: Python's str.isspace differs (it has \x1c-\x1f and \x85, lacks \ufeff).
_JS_SPACE = "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# JavaScript's "." matches anything but its line terminators (Python's only excludes \n).
_ANY = "[^\\n\\r\\u2028\\u2029]"
_QUOTED = '"((?:[^"\\\\]|\\\\' + _ANY + ')*)"'


def _grammar():
    global _GRAMMAR
    if _GRAMMAR is None:
        with open(os.path.join(_HERE, "grammar.json"), encoding="utf-8") as f:
            spec = json.load(f)
        _GRAMMAR = {
            "actions": [(a["action"], [_compile(f, spec) for f in a["forms"]]) for a in spec["actions"]],
            "refs": [(r["style"], [_compile(f, spec) for f in r["forms"]]) for r in spec["refs"]],
            "ref_actions": set(spec["refActions"]),
            "vocabs": spec["vocabs"],
            "ordinals": spec["ordinals"],
        }
    return _GRAMMAR


def _slot_pattern(kind, spec):
    if kind == "q":
        return _QUOTED
    if kind in ("free", "free3", "ref"):
        return "(" + _ANY + "+)"
    if kind == "ord":
        return "(" + "|".join(spec["ordinals"]) + "|[0-9]+(?:st|nd|rd|th))"
    words = sorted(spec["vocabs"][kind].keys(), key=len, reverse=True)
    return "(" + "|".join(re.escape(w) for w in words) + ")"


def _compile(form, spec):
    slots = [p for p in form["parts"] if not isinstance(p, str)]
    source = "".join(re.escape(p) if isinstance(p, str) else _slot_pattern(p["kind"], spec) for p in form["parts"])
    # JavaScript's /i without /u folds only where both sides are ASCII or both are not; the words here are ASCII.
    return re.compile(source, re.IGNORECASE | re.ASCII), slots


def _third_person(verb):
    if re.search("(s|sh|ch|x|z|o)\\Z", verb, re.IGNORECASE):
        return verb + "es"
    if re.search("[^aeiou]y\\Z", verb, re.IGNORECASE):
        return verb[:-1] + "ies"
    return verb + "s"


def _base_form(word):
    candidates = []
    if re.search("[^aeiou]ies\\Z", word, re.IGNORECASE):
        candidates.append(word[:-3] + "y")
    if re.search("(ss|sh|ch|x|zz|o)es\\Z", word, re.IGNORECASE):
        candidates.append(word[:-2])
    if re.search("s\\Z", word, re.IGNORECASE):
        candidates.append(word[:-1])
    for c in candidates:
        if len(c) > 0 and _third_person(c) == word:
            return c
    return None


def _decode(kind, text, g):
    if kind == "q":
        return re.sub("\\\\(" + _ANY + ")", lambda m: m.group(1), text)
    if kind in ("free", "ref"):
        return text
    if kind == "free3":
        first, _, rest = text.partition(" ")
        verb = _base_form(first)
        if verb is None:
            return None
        return verb + (" " + rest if _ else "")
    if kind == "ord":
        low = text.lower()
        if low in g["ordinals"]:
            return g["ordinals"].index(low) + 1
        m = re.match("[0-9]+", text)
        n = int(m.group(0)) if m else 0
        return n if n >= 1 else None
    return g["vocabs"][kind].get(text.lower())


def _match(form, text, g):
    regex, slots = form
    m = regex.fullmatch(text)
    if not m:
        return None
    out = {}
    for i, slot in enumerate(slots):
        v = _decode(slot["kind"], m.group(i + 1), g)
        if v is None:
            return None
        out[slot["field"]] = v
    return out


def _parse_ref(text, g):
    for style, forms in g["refs"]:
        for form in forms:
            fields = _match(form, text, g)
            if fields is not None:
                return dict(fields, style=style)
    return None


def _parse_exact(text):
    g = _grammar()
    for action, forms in g["actions"]:
        for form in forms:
            fields = _match(form, text, g)
            if fields is None:
                continue
            out = {"action": action}
            if action in g["ref_actions"]:
                ref = _parse_ref(str(fields["ref"]), g)
                if ref is None:
                    continue
                out["ref"] = ref
            for key in ("value", "direction", "app"):
                if key in fields:
                    out[key] = str(fields[key])
            return out
    return None


def _normalize_spaces(s):
    out = []
    in_quote = False
    i = 0
    while i < len(s):
        c = s[i]
        if in_quote:
            out.append(c)
            if c == "\\" and i + 1 < len(s):
                i += 1
                out.append(s[i])
            elif c == '"':
                in_quote = False
        elif c in _JS_SPACE:
            if out and out[-1] != " ":
                out.append(" ")
        else:
            out.append(c)
            if c == '"':
                in_quote = True
        i += 1
    return "".join(out).rstrip(_JS_SPACE)


def parse_instruction(s):
    """The instruction as {"action", "ref"?, "value"?, "direction"?, "app"?}, or None; as grammar.ts parseInstruction."""
    text = _normalize_spaces(s)
    exact = _parse_exact(text)
    if exact is not None or not text.endswith("."):
        return exact
    return _parse_exact(text[:-1].rstrip(_JS_SPACE))

# ---------------------------------------------------------------------------
# Plan reward (Co-EPG C-DREM)

# JavaScript's [\p{L}\p{N}]+ after toLowerCase(): letters and numbers, no underscore.
_WORD_RE = re.compile("[^\\W_]+")


def token_f1(a, b):
    ta = _WORD_RE.findall(a.lower())
    tb = _WORD_RE.findall(b.lower())
    if not ta or not tb:
        return 1.0 if len(ta) == len(tb) else 0.0
    counts = {}
    for w in tb:
        counts[w] = counts.get(w, 0) + 1
    common = 0
    for w in ta:
        if counts.get(w, 0) > 0:
            common += 1
            counts[w] -= 1
    if common == 0:
        return 0.0
    precision = common / len(ta)
    recall = common / len(tb)
    return 2 * precision * recall / (precision + recall)


def instruction_value(parsed):
    a = parsed["action"]
    if a in ("TYPE", "SELECT"):
        return parsed.get("value")
    if a == "SCROLL":
        return parsed.get("direction")
    if a == "OPEN_APP":
        return parsed.get("app")
    return None


def _softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    z = sum(e)
    return [x / z for x in e]


def plan_weights(groundings, weighting="prior-confidence", single=None):
    """w_j of the pool: groundings are dicts with "prior" and "confidence"."""
    n = len(groundings)
    if n == 0:
        return []
    if weighting == "prior-confidence":
        return _softmax([g["prior"] * min(1.0, max(0.0, g["confidence"])) for g in groundings])
    if weighting == "prior":
        return _softmax([g["prior"] for g in groundings])
    if weighting == "uniform":
        return [1.0 / n] * n
    if weighting == "single":
        j = n - 1 if single is None else single
        return [1.0 if i == j else 0.0 for i in range(n)]
    raise ValueError("unknown weighting " + repr(weighting))


def grade_plan(text, action_type, action_value, target_box, groundings, weighting="prior-confidence"):
    """{"type", "value", "plan", "total"} of one instruction; groundings: [{"point": (x, y) or None, "confidence", "prior"}]."""
    parsed = parse_instruction(text)
    if parsed is None:
        return {"type": 0.0, "value": 0.0, "plan": 0.0, "total": 0.0}
    r_type = 1.0 if parsed["action"] == action_type else 0.0
    r_value = 1.0
    if parsed["action"] in VALUE_ACTIONS:
        r_value = 1.0 if token_f1(instruction_value(parsed) or "", action_value or "") > VALUE_F1 else 0.0
    r_plan = 0.0
    if target_box is not None:
        weights = plan_weights(groundings, weighting)
        hits = [1.0 if g["point"] is not None and inside_box(g["point"][0], g["point"][1], target_box) else 0.0 for g in groundings]
        r_plan = sum(w * h for w, h in zip(weights, hits))
    if r_type == 0 or r_value == 0:
        total = 0.0
    elif target_box is not None:
        total = r_plan
    else:
        total = r_type * r_value
    return {"type": r_type, "value": r_value, "plan": r_plan, "total": total}

# ---------------------------------------------------------------------------
# The grounder pool of the plan reward


class PoolGrounder:
    """One grounder of the pool: ground(instruction, row) -> (x, y, confidence) or None.

    `row` holds the dataset columns of the prompt (its image path in "images",
    "screen_width", ...), so a grounder can open the screenshot itself. The
    prior is σ_j of METHOD.md §2 (Co-EPG used 1 : 1 : 2, the current grounder
    largest); confidence is in [0, 1].
    """

    def __init__(self, name, prior, ground):
        self.name = name
        self.prior = float(prior)
        self.ground = ground


_POOL = None
WEIGHTING = os.environ.get("COEVO_PLAN_WEIGHTING", "prior-confidence")


def set_grounder_pool(pool):
    global _POOL
    _POOL = list(pool)


def grounder_pool():
    global _POOL
    if _POOL is None:
        spec = os.environ.get("COEVO_GROUNDER_POOL")
        if not spec or ":" not in spec:
            raise RuntimeError(
                "The plan reward needs a grounder pool: call rewards.set_grounder_pool([PoolGrounder(...), ...]) "
                "or set COEVO_GROUNDER_POOL=module:function to a function that returns that list."
            )
        module, attr = spec.split(":", 1)
        _POOL = list(getattr(importlib.import_module(module), attr)())
    return _POOL


def _column(kwargs, name, i):
    values = kwargs.get(name)
    return values[i] if values is not None and i < len(values) else None


def plan_reward(completions, **kwargs):
    """TRL reward for the planner: the C-DREM reward of each sampled instruction, grounded by the pool."""
    pool = None
    out = []
    for i, c in enumerate(completions):
        action_type = _column(kwargs, "action_type", i)
        if action_type is None:
            out.append(None)
            continue
        text = completion_text(c)
        box = _column(kwargs, "target_box", i)
        groundings = []
        if box is not None and parse_instruction(text) is not None:
            pool = pool if pool is not None else grounder_pool()
            row = {k: v[i] for k, v in kwargs.items() if isinstance(v, list) and i < len(v)}
            for g in pool:
                answer = g.ground(text, row)
                point = None if answer is None else (float(answer[0]), float(answer[1]))
                confidence = 0.0 if answer is None else float(answer[2])
                groundings.append({"point": point, "confidence": confidence, "prior": g.prior})
        out.append(grade_plan(text, action_type, _column(kwargs, "action_value", i), box, groundings, WEIGHTING)["total"])
    return out

# ---------------------------------------------------------------------------
# ms-swift plugins: ORM classes, registered by name


class CoevoFormat(ORM):
    def __call__(self, completions, **kwargs):
        return grounding_format_reward(completions, **kwargs)


class CoevoPoint(ORM):
    def __call__(self, completions, **kwargs):
        return grounding_point_reward(completions, **kwargs)


class CoevoGrounding(ORM):
    def __call__(self, completions, **kwargs):
        return grounding_reward(completions, **kwargs)


class CoevoPlan(ORM):
    def __call__(self, completions, **kwargs):
        return plan_reward(completions, **kwargs)


orms["coevo_format"] = CoevoFormat
orms["coevo_point"] = CoevoPoint
orms["coevo_grounding"] = CoevoGrounding
orms["coevo_plan"] = CoevoPlan

# ---------------------------------------------------------------------------
# Parity check: python3 rewards.py --check reward_checks.jsonl


class _RecordedPool:
    """Replays the groundings a check recorded, as a pool of PoolGrounders."""

    def __init__(self, recorded):
        self.members = [PoolGrounder(g["name"], g["prior"], self._answer(g)) for g in recorded]

    @staticmethod
    def _answer(g):
        return lambda _text, _row: None if g["point"] is None else (g["point"][0], g["point"][1], g["confidence"])


def _rows_of(folder, path, cache):
    if path not in cache:
        with open(os.path.join(folder, path), encoding="utf-8") as f:
            cache[path] = [json.loads(line) for line in f if line.strip()]
    return cache[path]


def _call_both(fn_trl, orm, completion, row, trainer):
    """The reward of one completion through the TRL function and the ms-swift ORM, as each trainer calls them."""
    columns = {k: [v] for k, v in row.items() if k not in ("prompt", "messages")}
    trl_completion = [{"role": "assistant", "content": completion}]
    a = fn_trl([trl_completion], **columns)[0]
    b = orm()([completion], **columns)[0]
    return a, b


def check(path):
    """Recomputes every check of reward_checks.jsonl from its row's columns; returns (count, max_abs_difference, failures)."""
    global WEIGHTING, _POOL
    folder = os.path.dirname(os.path.abspath(path))
    cache = {}
    count = 0
    worst = 0.0
    failures = []
    saved = (_POOL, WEIGHTING)
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            if not line.strip():
                continue
            c = json.loads(line)
            row = c["columns"] if c.get("file") is None else _rows_of(folder, c["file"], cache)[c["row"]]
            exp = c["expected"]
            if c["reward"] == "grounding":
                parts = grade_grounding(c["completion"], row["target_box"], row["screen_width"], row["screen_height"])
                got = {k: parts[k] for k in ("format", "point", "total")}
                total_a, total_b = _call_both(grounding_reward, CoevoGrounding, c["completion"], row, None)
                fmt_a, _ = _call_both(grounding_format_reward, CoevoFormat, c["completion"], row, None)
                pt_a, _ = _call_both(grounding_point_reward, CoevoPoint, c["completion"], row, None)
                via = [total_a, total_b, FORMAT_WEIGHT * fmt_a + POINT_WEIGHT * pt_a]
            else:
                weighting = c.get("weighting", "prior-confidence")
                groundings = [{"point": g["point"], "confidence": g["confidence"], "prior": g["prior"]} for g in c["pool"]]
                got = grade_plan(c["completion"], row["action_type"], row["action_value"], row["target_box"], groundings, weighting)
                set_grounder_pool(_RecordedPool(c["pool"]).members)
                WEIGHTING = weighting
                via = list(_call_both(plan_reward, CoevoPlan, c["completion"], row, None))
            diffs = [abs(got[k] - exp[k]) for k in exp] + [abs(v - exp["total"]) for v in via]
            d = max(diffs)
            worst = max(worst, d)
            count += 1
            if d > 1e-6 and len(failures) < 10:
                failures.append({"line": n + 1, "completion": c["completion"], "expected": exp, "got": got, "via_trainers": via})
    _POOL, WEIGHTING = saved
    return count, worst, failures


def _main(argv):
    if len(argv) == 3 and argv[1] == "--check":
        count, worst, failures = check(argv[2])
        print(json.dumps({"checks": count, "max_abs_diff": worst, "failures": failures}))
        return 0 if count > 0 and worst <= 1e-6 else 1
    print("usage: python3 rewards.py --check reward_checks.jsonl", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
