"""The bench's PyTorch anchor (`npm run bench -- --anchor`): times the
project's three training steps mirrored in PyTorch on CPU and prints one
JSON object on stdout.

usage: python3 bench/anchor/anchor.py --spec FILE|- [--threads T] [--steps N] [--seed S]

The spec (JSON; scripts/lib/bench-anchor.ts writes it) holds the grounder
and planner configs of a preset, the project's constants (canvas, classes,
special tokens, GRPO settings) and, per step, the work items the project's
steps ran: the first is the profiled warm-up (its FLOPs are counted), the
rest are the timed steps, one for one (without them, --steps repeats of the
first)."""
import argparse
import json
import statistics
import sys
import time

import torch

from flops import FlopCounter
from steps import make_grounder_sft, make_planner_grpo, make_planner_sft

DEFAULT_WORK = {
    "grounderSft": [{"batch": 8}],
    "plannerSft": [{"batch": 8, "promptLength": 192}],
    "plannerGrpo": [{"rows": 8, "groupSize": 4, "promptLength": 192, "decodeSteps": 48, "groundedQueries": 0}],
}


def params_of(model: torch.nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def measure(step, work: list[dict], steps: int) -> dict:
    t0 = time.perf_counter()
    with FlopCounter() as counter:
        step(work[0])
    warmup_ms = (time.perf_counter() - t0) * 1000
    # The project's timed steps one for one when the spec lists them, else `steps` repeats of the warm-up's work.
    timed = work[1:] or work * steps
    ms = []
    for w in timed:
        t = time.perf_counter()
        step(w)
        ms.append((time.perf_counter() - t) * 1000)
    return {
        "medianMs": statistics.median(ms),
        "stepMs": ms,
        "warmupMs": warmup_ms,
        "flops": counter.flops,
        "matmuls": counter.products,
        "work": work,
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spec", required=True, help="spec JSON file, or - for stdin")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    spec = json.load(sys.stdin if a.spec == "-" else open(a.spec))
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    g = torch.Generator().manual_seed(a.seed)
    k, gcfg, pcfg = spec["constants"], spec["grounder"], spec["planner"]
    work = {**DEFAULT_WORK, **spec.get("work", {})}
    out_steps = {}
    grounder, step = make_grounder_sft(gcfg, k, g, spec.get("grounderLr", 3e-3), work["grounderSft"])
    out_steps["grounderSft"] = measure(step, work["grounderSft"], a.steps)
    planner, step = make_planner_sft(pcfg, k, g, spec.get("plannerSftLr", 3e-3), spec.get("plannerClip", 1.0), work["plannerSft"])
    out_steps["plannerSft"] = measure(step, work["plannerSft"], a.steps)
    _, step = make_planner_grpo(pcfg, gcfg, k, g, spec.get("plannerGrpoLr", 1e-3), work["plannerGrpo"])
    out_steps["plannerGrpo"] = measure(step, work["plannerGrpo"], a.steps)
    print(json.dumps({
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "params": {"grounder": params_of(grounder), "planner": params_of(planner)},
        "steps": out_steps,
        "notMirrored": [
            "planner GRPO: painting the screens for the reward pool's grounder, the verifier grounder and the reward "
            "rules (random rewards stand in); the neural grounder's forward on the grounded instructions is mirrored, "
            "but for every row of a chunk, where the project encodes each distinct screen of the chunk once",
        ],
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
