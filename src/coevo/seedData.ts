/**
 * D0, the seed data (METHOD.md §2): every step of oracle trajectories of
 * training tasks, an instruction for it from each writer of the pool (some
 * deliberately wrong, at each writer's error rate), kept only where the
 * verifier pool agrees the instruction points at the true element
 * (pools.poolVerdict). Dropped samples are returned too, with kept = false
 * and the verifier's reason, so the data view can show why.
 *
 * Steps without a target element (DONE, BACK, SCROLL, OPEN_APP) give planner
 * samples with nothing to ground; they are kept when their action and value
 * match the step (a writer's flipped scroll direction is dropped).
 */
import { groundWithPool, type PoolGrounder } from '../learn/plannerGrounderPool';
import { plannerStatesOfTask } from '../learn/plannerStates';
import type { Random } from '../learn/random';
import { instructionValue, VALUE_ACTIONS } from '../learn/rewards';
import { printInstruction } from '../text/grammar';
import { trainingTasks } from '../world/suites';
import type { Instruction, OracleStep, Screen } from '../world/types';
import { normText } from '../world/verifier';
import { DEFAULT_WRITERS, makeWriter, type WriterSpec } from '../world/writers';
import { describeVerdict, poolVerdict } from './pools';
import type { CurationNote, StepSample } from './records';

/** Progress of a data phase: items judged so far of `total`, and how many were kept. */
export interface DataProgress {
  stage: string;
  done: number;
  total: number;
  kept: number;
}

/** Null when the instruction's action and value match the step; otherwise why not, in words. */
export function stepMismatch(i: Instruction, step: OracleStep): string | null {
  if (i.action !== step.type) return `action ${i.action}, but the step is ${step.type}`;
  if (!VALUE_ACTIONS.includes(i.action)) return null;
  const v = instructionValue(i) ?? '';
  const want = step.value ?? '';
  return normText(v) === normText(want) ? null : `value "${v}", but the step's is "${want}"`;
}

export interface SeedWriteOptions {
  runId: string;
  rng: Random;
  /** How many training tasks to walk (suites.trainingTasks: never a held-out one). */
  tasks: number;
  /** The rule-based writer pool (default DEFAULT_WRITERS). */
  writers?: readonly WriterSpec[];
  /** When given, every writer's error rate is replaced by this one (in [0, 1]). */
  errorRate?: number;
}

/** One written instruction before the verifier pool has judged it. */
export interface SeedCandidate {
  /** The sample as it will be stored; `kept` and `curation` are filled in by the verifier. */
  sample: StepSample;
  screen: Screen;
  step: OracleStep;
  instruction: Instruction;
  /** The writer meant it to be wrong (diagnostics only: the verifier does not see it). */
  corrupted: boolean;
}

function checkWriteOptions(o: SeedWriteOptions): void {
  if (!Number.isInteger(o.tasks) || o.tasks < 1) throw new Error(`seed data: tasks must be an integer ≥ 1; got ${o.tasks}`);
  if (o.errorRate !== undefined && !(o.errorRate >= 0 && o.errorRate <= 1)) {
    throw new Error(`seed data: errorRate must lie in [0, 1]; got ${o.errorRate}`);
  }
  if (o.writers !== undefined && o.writers.length === 0) throw new Error('seed data: the writer pool is empty; give at least one writer');
}

/**
 * Every writer's instruction for every step of `tasks` training tasks drawn
 * from `rng`, numbered `${runId}/0/${n}` in order (task, step, writer).
 * A writer that cannot describe the target in its styles writes nothing; an
 * instruction another writer already wrote for the same step is not repeated.
 */
export function writeSeedCandidates(o: SeedWriteOptions): SeedCandidate[] {
  checkWriteOptions(o);
  const specs = (o.writers ?? DEFAULT_WRITERS).map((s) => (o.errorRate === undefined ? s : { ...s, errorRate: o.errorRate }));
  const writers = specs.map(makeWriter);
  const tasks = trainingTasks(o.rng.fork('tasks'), o.tasks);
  const rng = o.rng.fork('writers');
  const out: SeedCandidate[] = [];
  for (const task of tasks) {
    for (const state of plannerStatesOfTask(task)) {
      const { screen, step } = state;
      const target = step.targetId === undefined ? null : screen.elements.find((e) => e.id === step.targetId);
      const written = new Set<string>();
      for (const writer of writers) {
        const w = writer.write(screen, target, { type: step.type, value: step.value }, rng);
        if (!w) continue;
        const text = printInstruction(w.instruction);
        if (written.has(text)) continue;
        written.add(text);
        out.push({
          screen,
          step,
          instruction: w.instruction,
          corrupted: w.corrupted,
          sample: {
            id: `${o.runId}/0/${out.length}`,
            runId: o.runId,
            iteration: 0,
            phase: 'seed-data',
            origin: 'seed',
            source: `writer:${writer.name}`,
            task,
            stepIndex: state.stepIndex,
            platform: task.platform,
            goal: task.goal,
            instruction: text,
            style: w.style,
            actionType: step.type,
            ...(step.value !== undefined ? { value: step.value } : {}),
            ...(step.targetId !== undefined ? { targetId: step.targetId } : {}),
            ...(step.box !== undefined ? { box: { ...step.box } } : {}),
            kept: false,
            curation: [],
          },
        });
      }
    }
  }
  return out;
}

export interface SeedVerifyOptions {
  verifiers: readonly PoolGrounder[];
  /** Queries per call to the pool (neural members batch inside it). */
  chunk?: number;
  onProgress?: (p: DataProgress) => void;
}

/**
 * The verifier pool's decision on every candidate, as a 'verifier'
 * CurationNote: a wrong action or value is dropped without grounding; a
 * step without a target is kept (nothing to ground); a step with one is kept
 * when the pool agrees (pools.poolVerdict). Returns the samples in order.
 */
export async function verifySeedCandidates(cands: readonly SeedCandidate[], o: SeedVerifyOptions): Promise<StepSample[]> {
  if (o.verifiers.length === 0) throw new Error('seed data: the verifier pool is empty; give it at least the rule-based verifier (verifierGrounder)');
  const chunk = o.chunk ?? 64;
  if (!Number.isInteger(chunk) || chunk < 1) throw new Error(`seed data: chunk must be an integer ≥ 1; got ${chunk}`);
  const samples = cands.map((c) => ({ ...c.sample, curation: [] as CurationNote[] }));
  const decide = (i: number, decision: 'keep' | 'drop', reason: string) => {
    samples[i].kept = decision === 'keep';
    samples[i].curation.push({ stage: 'verifier', decision, reason });
  };
  const toGround: number[] = [];
  cands.forEach((c, i) => {
    const wrong = stepMismatch(c.instruction, c.step);
    if (wrong) decide(i, 'drop', `wrong step: ${wrong}`);
    else if (!c.step.box) decide(i, 'keep', 'no target element: action and value match the step, nothing to ground');
    else toGround.push(i);
  });
  let kept = samples.filter((s) => s.kept).length;
  const total = cands.length;
  let done = total - toGround.length;
  o.onProgress?.({ stage: 'verify', done, total, kept });
  for (let start = 0; start < toGround.length; start += chunk) {
    const idx = toGround.slice(start, start + chunk);
    const answers = await groundWithPool(o.verifiers, idx.map((i) => ({ screen: cands[i].screen, instruction: samples[i].instruction })));
    idx.forEach((i, j) => {
      const v = poolVerdict(o.verifiers, answers[j], cands[i].step.box as NonNullable<OracleStep['box']>);
      decide(i, v.agrees ? 'keep' : 'drop', describeVerdict(v));
      if (v.agrees) kept++;
    });
    done += idx.length;
    o.onProgress?.({ stage: 'verify', done, total, kept });
  }
  return samples;
}

export interface SeedDataOptions extends SeedWriteOptions, SeedVerifyOptions {}

/** D0: write (writeSeedCandidates), then verify (verifySeedCandidates). Deterministic from `rng`. */
export async function buildSeedData(o: SeedDataOptions): Promise<StepSample[]> {
  if (o.verifiers.length === 0) throw new Error('seed data: the verifier pool is empty; give it at least the rule-based verifier (verifierGrounder)');
  const cands = writeSeedCandidates(o);
  o.onProgress?.({ stage: 'write', done: cands.length, total: cands.length, kept: 0 });
  return verifySeedCandidates(cands, o);
}
