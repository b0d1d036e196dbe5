/**
 * Grammar-constrained decoding (text/instructionConstraint.ts):
 * - 10,000 random walks over what the constraint allows, on states of
 *   every split (training and held out), always end in an instruction that
 *   parses within the completion length, every quoted span in it is a
 *   text of the screen or a span of the goal, and a reference with a role
 *   and a text (or icon) names an element of the screen that can take the
 *   action (a value is typed only into a field, chosen only from a dropdown,
 *   slider or option; a click lands only on an interactive element that is
 *   not a field, dropdown or slider, which take TYPE and SELECT instead);
 *   a typed value is a span of the goal; a click by a text and role that
 *   an earlier step clicked by is not written again;
 * - the oracle's own canonical instructions are allowed token by token
 *   wherever their quoted texts are on the screen or in the goal;
 * - a random planner decoding under the constraint at T = 0.9 only writes
 *   instructions that parse, and the log-probs GRPO's training pass
 *   recomputes (renormalised with allowedMask, per row and per group) equal
 *   the sampled ones.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { parseInstruction } from '../../src/text/grammar';
import { SPECIAL } from '../../src/text/tokenizer';
import { defaultTokenizer } from '../../src/text/vocab';
import { goalSpans, rowConstraint } from '../../src/text/instructionConstraint';
import { constraintSource, quotedSpans, quotesOnlyScreenOrGoal } from '../../src/learn/plannerConstraint';
import { plannerStatesOf, trainingPlannerStates, type PlannerState } from '../../src/learn/plannerStates';
import { decodeStates } from '../../src/learn/evalPlanner';
import { completionMask, initPlanner, plannerLogProbs, type PlannerConfig } from '../../src/models/planner';
import { allowedMask } from '../../src/models/plannerDecode';
import { plannerPrompts } from '../../src/learn/plannerStates';
import { plannerGroupLogProbs } from '../../src/models/plannerGroups';
import { disposeParams } from '../../src/models/params';
import { buildSuites } from '../../src/world/suites';
import { resolveRef, rolesNaming, visibleElements } from '../../src/world/verifier';
import { ROLE_WORDS } from '../../src/text/phrasings';
import { actionsOn } from '../../src/world/actionRoles';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const C = 48;

/** Whether the constraint allows `text`, then eos, token by token within C tokens. */
const allows = (rc: ReturnType<typeof rowConstraint>, text: string) => {
  const ids = [...tok.encode(text), SPECIAL.eos];
  return ids.length <= C && ids.every((id, t) => rc.allowed(ids.slice(0, t), C)[id] === 1);
};
/** Texts the tokenizer spells: the constraint never allows the others ("› Final"). */
const spelled = (text: string) => !text.includes('"') && tok.decode(tok.encode(text)) === text;

function statesOfEverySplit(): PlannerState[] {
  const suites = buildSuites(4242, { webPerSplit: 40, mobile: 40, groundingPerSplit: 0 });
  return [
    ...trainingPlannerStates(new Random(3), 150),
    ...plannerStatesOf(suites.web['cross-task'], 120),
    ...plannerStatesOf(suites.web['cross-site'], 120),
    ...plannerStatesOf(suites.web['cross-domain'], 120),
    ...plannerStatesOf(suites.mobile, 120),
  ];
}

describe('grammar-constrained planner decoding', () => {
  const states = statesOfEverySplit();

  it('10,000 random walks over the allowed tokens all parse and quote only the screen or the goal', () => {
    const rng = new Random(7);
    let walks = 0;
    let quoted = 0;
    let paired = 0;
    const styles = new Set<string>();
    const constraints = states.map((s) => rowConstraint(tok, constraintSource(s.screen, s.parts.goal, s.parts.history)));
    for (; walks < 10_000; walks++) {
      const s = states[walks % states.length];
      const rc = constraints[walks % states.length];
      const ids: number[] = [];
      for (let t = 0; t < C; t++) {
        const ok = rc.allowed(ids, C);
        const choices: number[] = [];
        ok.forEach((v, i) => v && choices.push(i));
        expect(choices.length, `no token allowed after ${JSON.stringify(tok.decode(ids))}`).toBeGreaterThan(0);
        // Half the walks favour eos when it is allowed, half never pick it early: both ends of the length range.
        const id = ok[SPECIAL.eos] && (walks % 2 === 0 ? rng.chance(0.3) : t === C - 1) ? SPECIAL.eos : rng.pick(choices.filter((i) => i !== SPECIAL.eos).length > 0 ? choices.filter((i) => i !== SPECIAL.eos) : choices);
        ids.push(id);
        if (id === SPECIAL.eos) break;
      }
      expect(ids[ids.length - 1]).toBe(SPECIAL.eos);
      expect(ids.length).toBeLessThanOrEqual(C);
      const text = tok.decode(ids);
      const parsed = parseInstruction(text);
      expect(parsed, text).not.toBeNull();
      if (parsed?.ref) styles.add(parsed.ref.style);
      // A role with a text or an icon names one of the screen's elements, not one's text and another's role.
      if (parsed?.ref && (parsed.ref.style === 'text' || parsed.ref.style === 'icon') && parsed.ref.role) {
        paired++;
        const hit = resolveRef(s.screen, parsed.ref);
        expect(hit.kind, `${text} names no element`).not.toBe('none');
        // …and one that can take the action: no typing into a button, no choosing from a checkbox.
        const ids = hit.kind === 'element' ? [hit.id] : hit.kind === 'ambiguous' ? hit.ids : [];
        expect(ids.some((id) => actionsOn(s.screen.elements.find((e) => e.id === id)!.role).includes(parsed.action)), `${text}: no element it names takes ${parsed.action}`).toBe(true);
      }
      quoted += quotedSpans(text).length;
      expect(quotesOnlyScreenOrGoal(text, s.screen, s.parts.goal), `${text} | ${s.parts.goal}`).toBe(true);
    }
    expect(walks).toBe(10_000);
    // The check itself can fail: a text neither on the screen nor in the goal.
    expect(quotesOnlyScreenOrGoal('click on "Zqxwv Plorb"', states[0].screen, states[0].parts.goal)).toBe(false);
    expect(quoted).toBeGreaterThan(1000);
    expect(paired).toBeGreaterThan(10);
    expect([...styles].sort()).toEqual(['color', 'function', 'icon', 'position', 'relation', 'text']);
  }, 300_000);

  it('walks that open with a role-and-text reference always name an element of the screen', () => {
    const rng = new Random(9);
    let named = 0;
    for (const [i, s] of states.entries()) {
      const rc = rowConstraint(tok, constraintSource(s.screen, s.parts.goal));
      for (const opening of ['click the "', 'click the button labelled "', 'click the link that says "']) {
        const ids = tok.encode(opening);
        if (ids.some((id, t) => rc.allowed(ids.slice(0, t), C)[id] !== 1)) continue; // no such element on this screen
        while (ids[ids.length - 1] !== SPECIAL.eos && ids.length < C) {
          const ok = rc.allowed(ids, C);
          const choices: number[] = [];
          ok.forEach((v, id) => v && choices.push(id));
          ids.push(ok[SPECIAL.eos] && rng.chance(0.5) ? SPECIAL.eos : rng.pick(choices));
        }
        const text = tok.decode(ids);
        const ref = parseInstruction(text)?.ref;
        expect(ref?.style === 'text' && ref.role !== undefined, text).toBe(true);
        if (ref) expect(resolveRef(s.screen, ref).kind, `${text} on state ${i}`).not.toBe('none');
        named++;
      }
    }
    expect(named).toBeGreaterThan(states.length);
  }, 120_000);

  it('a typed or chosen value goes only into an element that can take it, when the reference pairs a role with a text', () => {
    const seen = { allowed: 0, refused: 0 };
    for (const [i, s] of states.entries()) {
      const value = goalSpans(s.parts.goal)[0];
      if (value === undefined) continue;
      const rc = rowConstraint(tok, constraintSource(s.screen, s.parts.goal));
      const shown = visibleElements(s.screen).filter((e) => e.text && !e.text.includes('"') && e.text.length <= 16);
      for (const e of shown) {
        for (const word of rolesNaming(e.role).map((r) => ROLE_WORDS[r])) {
          for (const [action, text] of [['TYPE', `type "${value}" into the "${e.text}" ${word}`], ['SELECT', `select "${value}" in the "${e.text}" ${word}`]] as const) {
            // Another element with the same text and role word may take the action even where this one cannot.
            const can = shown.some((o) => o.interactive && o.text === e.text && rolesNaming(o.role).some((r) => ROLE_WORDS[r] === word) && actionsOn(o.role).includes(action));
            expect(allows(rc, text), `${text} on state ${i} (${e.role})`).toBe(can);
            seen[can ? 'allowed' : 'refused']++;
          }
        }
      }
    }
    console.log(`typed or chosen values into paired references: ${JSON.stringify(seen)}`);
    expect(seen.allowed).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(1000);
  }, 120_000);

  it('a click names only an element a click acts on, when the reference pairs a role with a text; a typed value is a span of the goal', () => {
    // A field takes its text by TYPE and a dropdown or slider its choice by SELECT; a heading or plain text takes nothing.
    const clickable = (o: { interactive: boolean; role: string }) => o.interactive && !['text-field', 'search-box', 'dropdown', 'slider'].includes(o.role);
    const seen = { clicks: 0, refusedClicks: 0, refusedTyping: 0, allowedTyping: 0 };
    for (const [i, s] of states.entries()) {
      const rc = rowConstraint(tok, constraintSource(s.screen, s.parts.goal));
      const shown = visibleElements(s.screen).filter((e) => e.text && e.text.length <= 16 && spelled(e.text));
      for (const e of shown) {
        for (const word of rolesNaming(e.role).map((r) => ROLE_WORDS[r])) {
          const text = `click the "${e.text}" ${word}`;
          const can = shown.some((o) => clickable(o) && o.text === e.text && rolesNaming(o.role).some((r) => ROLE_WORDS[r] === word));
          expect(allows(rc, text), `${text} on state ${i} (${e.role})`).toBe(can);
          seen[can ? 'clicks' : 'refusedClicks']++;
        }
      }
      const spans = new Set(goalSpans(s.parts.goal));
      const field = shown.find((e) => e.interactive && e.role === 'text-field');
      const said = shown.find((e) => !spans.has(e.text as string));
      if (field && said) {
        expect(allows(rc, `type "${said.text}" into the "${field.text}" text field`), `typing "${said.text}" on state ${i}`).toBe(false);
        seen.refusedTyping++;
        // The same field takes a span of the goal: the refusal is the value's.
        const span = [...spans].filter(spelled).sort((a, b) => a.length - b.length)[0];
        if (span !== undefined) {
          expect(allows(rc, `type "${span}" into the "${field.text}" text field`), `typing "${span}" on state ${i}`).toBe(true);
          seen.allowedTyping++;
        }
      }
    }
    console.log(`clicks on paired references: ${JSON.stringify(seen)}`);
    expect(seen.clicks).toBeGreaterThan(500);
    expect(seen.refusedClicks).toBeGreaterThan(100);
    expect(seen.refusedTyping).toBeGreaterThan(20);
    expect(seen.allowedTyping).toBeGreaterThan(20);
  }, 120_000);

  it('a click an earlier step made by a text and role is refused, and allowed without that history', () => {
    const seen = { refused: 0, others: 0 };
    for (const [i, s] of states.entries()) {
      const fresh = rowConstraint(tok, constraintSource(s.screen, s.parts.goal));
      const after = rowConstraint(tok, constraintSource(s.screen, s.parts.goal, s.parts.history));
      const clickedTexts = s.parts.history.map((line) => parseInstruction(line)?.ref).flatMap((r) => (r?.style === 'text' ? [r.text] : []));
      for (const line of s.parts.history) {
        const step = parseInstruction(line);
        const ref = step?.ref;
        if (step?.action !== 'CLICK' || ref?.style !== 'text' || !ref.role || !spelled(ref.text) || !allows(fresh, line)) continue;
        expect(allows(after, line), `${line} again on state ${i}`).toBe(false);
        seen.refused++;
        // Only the pairs clicked are refused: a clickable element no step named is still allowed.
        const other = visibleElements(s.screen).find((e) => e.interactive && e.text && !clickedTexts.includes(e.text) && spelled(e.text) && e.text.length <= 16 && allows(fresh, `click the "${e.text}" ${ROLE_WORDS[e.role]}`));
        if (other) {
          expect(allows(after, `click the "${other.text}" ${ROLE_WORDS[other.role]}`), `${other.text} after ${line}`).toBe(true);
          seen.others++;
        }
      }
    }
    console.log(`history clicks refused again: ${JSON.stringify(seen)}`);
    expect(seen.refused).toBeGreaterThan(20);
    expect(seen.others).toBeGreaterThan(20);
  }, 120_000);

  it("allows the oracle's canonical instruction wherever its quoted texts are on the screen or in the goal", () => {
    let checked = 0;
    let skipped = 0;
    let selects = 0;
    for (const s of states) {
      if (!quotesOnlyScreenOrGoal(s.instruction, s.screen, s.parts.goal)) {
        // A SELECT's option is always allowed: the dropdown lists its options, a slider takes any percentage.
        expect(s.step.type, s.instruction).not.toBe('SELECT');
        skipped++;
        continue;
      }
      if (s.step.type === 'SELECT') selects++;
      const rc = rowConstraint(tok, constraintSource(s.screen, s.parts.goal, s.parts.history));
      const ids = [...tok.encode(s.instruction), SPECIAL.eos];
      ids.forEach((id, t) => expect(rc.allowed(ids.slice(0, t), C)[id], `${s.instruction} at ${t}`).toBe(1));
      checked++;
    }
    console.log(`oracle instructions allowed: ${checked} (${selects} SELECT); quoting a text neither on the screen nor in the goal: ${skipped}`);
    expect(selects).toBeGreaterThan(10);
    expect(skipped).toBeLessThanOrEqual(Math.ceil(states.length * 0.01));
  }, 120_000);

  it('a random planner samples only parsing instructions, and training recomputes the sampled log-probs', async () => {
    const cfg: PlannerConfig = { model: 'planner', vocabSize: tok.size, promptLength: 512, completionLength: C, dim: 16, heads: 2, layers: 1 };
    const params = initPlanner(new Random(5), cfg);
    const batch = states.filter((_, i) => i % 25 === 0).slice(0, 12);
    try {
      const decoded = await decodeStates(params, cfg, tok, batch, { temperature: 0.9, rng: new Random(11), repeat: 2, batchSize: 24, constrained: true });
      for (const d of decoded) expect(parseInstruction(d.instruction), d.instruction).not.toBeNull();
      const n = decoded.length;
      const { ids, length: pl } = plannerPrompts(tok, cfg, batch);
      const prompt = new Int32Array(n * pl);
      const completion = new Int32Array(n * C);
      decoded.forEach((d, i) => {
        const s = Math.floor(i / 2);
        prompt.set(ids.subarray(s * pl, (s + 1) * pl), i * pl);
        completion.set(d.tokens, i * C);
      });
      // Both training passes: every row with its own prompt, and GRPO's, each prompt once for its group of 2.
      const [lp, grouped, mask] = tf.tidy(() => {
        const comp = tf.tensor2d(completion, [n, C], 'int32');
        const allowed = allowedMask(decoded.map((d) => d.allowed ?? null), cfg);
        return [
          plannerLogProbs(params, cfg, tf.tensor2d(prompt, [n, pl], 'int32'), comp, allowed),
          plannerGroupLogProbs(params, cfg, tf.tensor2d(ids, [batch.length, pl], 'int32'), comp, 2, allowed),
          completionMask(comp),
        ];
      });
      const [lpv, gv, mv] = [await lp.data(), await grouped.data(), await mask.data()];
      tf.dispose([lp, grouped, mask]);
      let worst = 0;
      let compared = 0;
      decoded.forEach((d, i) =>
        d.logProbs.forEach((v, t) => {
          expect(mv[i * C + t]).toBe(1);
          worst = Math.max(worst, Math.abs(v - lpv[i * C + t]), Math.abs(v - gv[i * C + t]));
          compared++;
        }),
      );
      console.log(`log-probs compared: ${compared}, largest difference ${worst.toExponential(2)}`);
      expect(compared).toBeGreaterThan(n * 3);
      expect(worst).toBeLessThan(1e-5);
    } finally {
      disposeParams(params);
    }
  }, 120_000);
});
