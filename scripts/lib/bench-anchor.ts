/**
 * The PyTorch anchor's figures (`npm run bench -- --anchor`): what
 * bench/anchor/anchor.py prints, read and checked; the environment it runs
 * in; rounds of both sides combined into the report's `anchor` field, the
 * FLOP and parameter checks, and the table the command prints. Pure, so
 * tests need neither python nor a browser.
 */
import type { AnchorReport, AnchorStepName, AnchorStepReport, WorkerBench } from '../../src/bench/types';

/** How far the anchor's matmul FLOPs may stray from the project's count for the same step. */
export const ANCHOR_FLOP_TOLERANCE = 0.1;

export const ANCHOR_STEPS: readonly AnchorStepName[] = ['grounderSft', 'plannerSft', 'plannerGrpo'];

const STEP_LABELS: Record<AnchorStepName, string> = { grounderSft: 'grounder SFT', plannerSft: 'planner SFT', plannerGrpo: 'planner GRPO' };

/** One step as anchor.py reports it. */
export interface AnchorRunStep {
  medianMs: number;
  stepMs: number[];
  warmupMs: number;
  flops: number;
  matmuls: number;
}

/** anchor.py's stdout. */
export interface AnchorRun {
  torch: string;
  threads: number;
  params: { grounder: number; planner: number };
  steps: Record<AnchorStepName, AnchorRunStep>;
  notMirrored: string[];
}

/**
 * OpenBLAS tuned for another core (OPENBLAS_CORETYPE) or cache size
 * (OPENBLAS_L2_SIZE) would handicap PyTorch's products, so the child runs
 * without them; its thread counts are pinned to the WASM run's.
 */
export function anchorEnv(env: Readonly<Record<string, string | undefined>>, threads: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== 'OPENBLAS_CORETYPE' && k !== 'OPENBLAS_L2_SIZE') out[k] = v;
  out.OMP_NUM_THREADS = String(threads);
  out.OPENBLAS_NUM_THREADS = String(threads);
  return out;
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** anchor.py's JSON, checked field by field (a wrong shape is a bug in one side, said plainly). */
export function parseAnchorRun(stdout: string): AnchorRun {
  let raw: unknown;
  try {
    raw = JSON.parse(stdout.trim().split('\n').pop() ?? '');
  } catch {
    throw new Error(`the PyTorch anchor printed no JSON; its output ended with: ${stdout.slice(-300)}`);
  }
  const r = raw as Partial<AnchorRun>;
  const bad = (what: string) => new Error(`the PyTorch anchor's JSON has no valid ${what}`);
  if (typeof r.torch !== 'string') throw bad('torch version');
  if (!isNumber(r.threads)) throw bad('thread count');
  if (!r.params || !isNumber(r.params.grounder) || !isNumber(r.params.planner)) throw bad('parameter counts');
  if (!Array.isArray(r.notMirrored) || !r.notMirrored.every((s) => typeof s === 'string')) throw bad('notMirrored list');
  for (const name of ANCHOR_STEPS) {
    const s = r.steps?.[name];
    if (!s || !isNumber(s.medianMs) || !isNumber(s.warmupMs) || !isNumber(s.flops) || !isNumber(s.matmuls) || !Array.isArray(s.stepMs) || !s.stepMs.every(isNumber)) {
      throw bad(`figures for ${name}`);
    }
  }
  return r as AnchorRun;
}

/** The project's figures for one step of one WASM round. */
function wasmStep(w: WorkerBench, name: AnchorStepName): { ms: number; flops: number } {
  const s = name === 'grounderSft' ? w.grounder.step : name === 'plannerSft' ? w.plannerSft.step : w.planner.step;
  return { ms: s.medianMs, flops: s.flops };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const round = (x: number, digits = 4): number => +x.toPrecision(digits);

export interface AnchorRound {
  wasm: WorkerBench;
  torch: AnchorRun;
}

/** Rounds of both sides → the report's anchor field (medians of per-round medians; the largest FLOP difference of any round). */
export function anchorReport(rounds: readonly AnchorRound[], python: string): AnchorReport {
  if (rounds.length === 0) throw new Error('anchorReport: no rounds');
  const first = rounds[0];
  const steps = {} as Record<AnchorStepName, AnchorStepReport>;
  let within = true;
  for (const name of ANCHOR_STEPS) {
    const wasmMs = rounds.map((r) => wasmStep(r.wasm, name).ms);
    const torchMs = rounds.map((r) => r.torch.steps[name].medianMs);
    const diffs = rounds.map((r) => r.torch.steps[name].flops / wasmStep(r.wasm, name).flops - 1);
    const worst = diffs.reduce((a, d) => (Math.abs(d) > Math.abs(a) ? d : a), 0);
    if (!(Math.abs(worst) <= ANCHOR_FLOP_TOLERANCE)) within = false;
    const w = median(wasmMs);
    const t = median(torchMs);
    steps[name] = {
      wasm_ms: round(w),
      torch_ms: round(t),
      ratio: round(w / t, 3),
      wasm_gflop: round(wasmStep(first.wasm, name).flops / 1e9),
      torch_gflop: round(first.torch.steps[name].flops / 1e9),
      flop_difference: round(worst, 3),
      wasm_round_ms: wasmMs.map((x) => round(x)),
      torch_round_ms: torchMs.map((x) => round(x)),
    };
  }
  return {
    torch: first.torch.torch,
    python,
    threads: first.torch.threads,
    rounds: rounds.length,
    params: {
      grounder: first.wasm.anchorSpec.params.grounder,
      planner: first.wasm.anchorSpec.params.planner,
      torch_grounder: first.torch.params.grounder,
      torch_planner: first.torch.params.planner,
    },
    steps,
    work: first.wasm.work,
    flops_within_tolerance: within,
    not_mirrored: first.torch.notMirrored,
  };
}

/** Why the anchor's comparison does not hold (parameters or FLOPs that differ), or null when it does. */
export function anchorProblems(a: AnchorReport): string | null {
  const problems: string[] = [];
  if (a.params.grounder !== a.params.torch_grounder) problems.push(`grounder parameters: project ${a.params.grounder}, PyTorch ${a.params.torch_grounder}`);
  if (a.params.planner !== a.params.torch_planner) problems.push(`planner parameters: project ${a.params.planner}, PyTorch ${a.params.torch_planner}`);
  for (const name of ANCHOR_STEPS) {
    const s = a.steps[name];
    if (!(Math.abs(s.flop_difference) <= ANCHOR_FLOP_TOLERANCE)) {
      problems.push(`${STEP_LABELS[name]} FLOPs: project ${s.wasm_gflop} GFLOP, PyTorch ${s.torch_gflop} GFLOP (${(s.flop_difference * 100).toFixed(1)}%, more than ${ANCHOR_FLOP_TOLERANCE * 100}%)`);
    }
  }
  return problems.length ? `the PyTorch anchor does not mirror the project's steps: ${problems.join('; ')}` : null;
}

/** The table the command prints: one row per step. */
export function anchorTable(a: AnchorReport): string {
  const header = ['step', 'WASM ms', 'PyTorch ms', 'ratio', 'WASM GFLOP', 'PyTorch GFLOP', 'FLOP diff'];
  const rows = ANCHOR_STEPS.map((name) => {
    const s = a.steps[name];
    const diff = `${s.flop_difference >= 0 ? '+' : ''}${(s.flop_difference * 100).toFixed(1)}%`;
    return [STEP_LABELS[name], String(s.wasm_ms), String(s.torch_ms), `${s.ratio}×`, String(s.wasm_gflop), String(s.torch_gflop), diff];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const title = `PyTorch anchor: torch ${a.torch} on CPU vs project WASM, ${a.threads} thread(s) each, ${a.rounds} interleaved rounds (medians of round medians)`;
  return [title, line(header), ...rows.map(line)].join('\n');
}
