/**
 * A short co-evolution run through the engine's own host, watched from
 * inside the worker: the wall time of every phase (start to the next
 * phase's start, so each phase's commit is included) and tfjs's memory at
 * the end of each iteration, taken while the run still holds its models.
 */
import type { CoevoProgress } from '../coevo/runner';
import { memorySnapshot } from './measure';
import type { CoevoBench, MemorySnapshot, PhaseTime } from './types';

/** The part of the worker's co-evolution host the benchmark drives. */
export interface CoevoDriver {
  start(o: { preset: string; seed: number; iterations: number; set?: string[]; name?: string }): Promise<{ runId: string }>;
  onProgress(listener: (p: CoevoProgress) => void): () => void;
  deleteRun(runId: string): Promise<void>;
}

export async function benchCoevo(
  driver: CoevoDriver,
  o: { preset: string; seed: number; iterations: number; set: string[]; reduced: boolean },
  onPhase: (p: CoevoProgress) => void,
): Promise<CoevoBench> {
  const phases: PhaseTime[] = [];
  const memoryAfter: MemorySnapshot[] = [];
  let current: { iteration: number; phase: string; at: number } | null = null;
  let runId: string | null = null;
  const t0 = performance.now();
  let finish: (p: CoevoProgress) => void = () => {};
  const finished = new Promise<CoevoProgress>((r) => (finish = r));

  const stop = driver.onProgress((p) => {
    if (runId !== null && p.runId !== runId) return;
    const now = performance.now();
    const moved = current === null || current.iteration !== p.iteration || current.phase !== p.phase;
    if (!moved && p.state !== 'done' && p.state !== 'failed') return;
    if (current) {
      phases.push({ iteration: current.iteration, phase: current.phase, seconds: (now - current.at) / 1000 });
      // Leaving an iteration's last phase: its outputs are committed and installed, the next has not started.
      if (current.iteration >= 1 && (p.state === 'done' || p.iteration > current.iteration)) memoryAfter.push(memorySnapshot());
    }
    current = p.phase === null ? null : { iteration: p.iteration, phase: p.phase, at: now };
    if (p.state !== 'running' && p.state !== 'idle') finish(p);
    else onPhase(p);
  });
  try {
    ({ runId } = await driver.start({ preset: o.preset, seed: o.seed, iterations: o.iterations, set: o.set, name: 'Benchmark run (npm run bench)' }));
    const last = await finished;
    if (last.state !== 'done') throw new Error(`The benchmark's co-evolution run stopped (${last.state}) in iteration ${last.iteration}, phase ${last.phase}: ${last.error ?? 'no message'}`);
  } finally {
    stop();
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  // The host lets go of a finished run after its listeners have heard 'done'.
  await new Promise((r) => setTimeout(r, 0));
  await driver.deleteRun(runId).catch(() => undefined);
  return { iterations: o.iterations, set: o.set, reduced: o.reduced, phases, memoryAfter, wallSeconds };
}
