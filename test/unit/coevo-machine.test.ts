import { describe, expect, it } from 'vitest';
import { AbortedError, PhaseMachine, nextCursor, phasePlan, type BatchGate, type MachineEvent, type PhaseMachineOptions } from '../../src/coevo/machine';
import type { PhaseCursor } from '../../src/coevo/records';

const key = (c: PhaseCursor) => `${c.iteration}:${c.phase}`;

interface HarnessOptions {
  iterations: number;
  /** Batches each phase runs (default 3). */
  batches?: (c: PhaseCursor) => number;
  /** Called after batch i of phase c went through. */
  afterBatch?: (c: PhaseCursor, i: number, m: PhaseMachine) => void;
  /** Called inside commit, after it was recorded. */
  onCommit?: (c: PhaseCursor, m: PhaseMachine) => void;
  fail?: (c: PhaseCursor) => boolean;
  failCommit?: (c: PhaseCursor) => boolean;
  start?: PhaseCursor | null;
}

/** A machine over fake phases that log what they did. */
function harness(o: HarnessOptions) {
  const log: string[] = [];
  const commits: string[] = [];
  const events: MachineEvent[] = [];
  const gates: BatchGate[] = [];
  const signals: AbortSignal[] = [];
  const opts: PhaseMachineOptions = {
    iterations: o.iterations,
    start: o.start,
    onEvent: (e) => events.push(e),
    runPhase: async (c, gate, signal) => {
      gates.push(gate);
      signals.push(signal);
      log.push(`start ${key(c)}`);
      const n = o.batches ? o.batches(c) : 3;
      for (let i = 0; i < n; i++) {
        await gate.batch();
        log.push(`${key(c)}#${i}`);
        o.afterBatch?.(c, i, m);
      }
      if (o.fail?.(c)) throw new Error(`phase ${key(c)} broke`);
      log.push(`end ${key(c)}`);
    },
    commit: async (c, next) => {
      await Promise.resolve(); // a real commit awaits storage
      if (o.failCommit?.(c)) throw new Error(`commit of ${key(c)} failed`);
      commits.push(`${key(c)}->${next ? key(next) : 'done'}`);
      o.onCommit?.(c, m);
    },
  };
  const m = new PhaseMachine(opts);
  return { m, log, commits, events, gates, signals };
}

/** The log of an uninterrupted run, for comparing with paused and stepped ones. */
async function fullLog(iterations: number): Promise<string[]> {
  const h = harness({ iterations });
  expect(await h.m.run()).toBe('done');
  return h.log;
}

describe('phase plan', () => {
  it('K = 0 is the seed phases and one evaluation', () => {
    expect(phasePlan({ iterations: 0 }).map(key)).toEqual(['0:seed-data', '0:sft-planner', '0:sft-grounder', '0:evaluate']);
  });

  it('K = 1 and K = 3 add planner-grpo, distill, grounder-train, evaluate per iteration', () => {
    expect(phasePlan({ iterations: 1 }).map(key)).toEqual([
      '0:seed-data',
      '0:sft-planner',
      '0:sft-grounder',
      '0:evaluate',
      '1:planner-grpo',
      '1:distill',
      '1:grounder-train',
      '1:evaluate',
    ]);
    const p3 = phasePlan({ iterations: 3 });
    expect(p3).toHaveLength(16);
    expect(p3.slice(12).map(key)).toEqual(['3:planner-grpo', '3:distill', '3:grounder-train', '3:evaluate']);
    expect(p3.filter((c) => c.phase === 'evaluate').map((c) => c.iteration)).toEqual([0, 1, 2, 3]);
  });

  it('refuses a negative or fractional K', () => {
    expect(() => phasePlan({ iterations: -1 })).toThrow(/iterations/);
    expect(() => phasePlan({ iterations: 1.5 })).toThrow(/iterations/);
  });

  it('nextCursor walks the plan and ends with null; a foreign cursor is an error', () => {
    const plan = phasePlan({ iterations: 1 });
    expect(nextCursor(plan, { iteration: 0, phase: 'evaluate' })).toEqual({ iteration: 1, phase: 'planner-grpo' });
    expect(nextCursor(plan, { iteration: 1, phase: 'distill' })).toEqual({ iteration: 1, phase: 'grounder-train' });
    expect(nextCursor(plan, { iteration: 1, phase: 'evaluate' })).toBeNull();
    expect(() => nextCursor(plan, { iteration: 2, phase: 'distill' })).toThrow(/no phase distill of iteration 2/);
    expect(() => nextCursor(plan, { iteration: 0, phase: 'distill' })).toThrow(RangeError);
    let c: PhaseCursor | null = plan[0];
    let n = 0;
    while (c) {
      n++;
      c = nextCursor(plan, c);
    }
    expect(n).toBe(plan.length);
  });
});

describe('PhaseMachine', () => {
  it('runs every phase and every batch in order, committing each phase once', async () => {
    const h = harness({ iterations: 1 });
    expect(h.m.state).toBe('idle');
    expect(h.m.cursor).toEqual({ iteration: 0, phase: 'seed-data' });
    expect(await h.m.run()).toBe('done');
    expect(h.m.state).toBe('done');
    expect(h.m.cursor).toBeNull();
    const plan = phasePlan({ iterations: 1 }).map(key);
    expect(h.log).toEqual(plan.flatMap((k) => [`start ${k}`, `${k}#0`, `${k}#1`, `${k}#2`, `end ${k}`]));
    expect(h.commits).toEqual(plan.map((k, i) => `${k}->${plan[i + 1] ?? 'done'}`));
    const types = h.events.map((e) => e.type);
    expect(types).toEqual([...plan.flatMap(() => ['phase-start', 'phase-end']), 'done']);
    const end = h.events[1];
    expect(end).toEqual({ type: 'phase-end', cursor: { iteration: 0, phase: 'seed-data' }, index: 0, total: 8, batches: 3 });
  });

  it('pause mid-phase stops before the next batch; resume finishes with the same work as an uninterrupted run', async () => {
    const h = harness({
      iterations: 1,
      afterBatch: (c, i, m) => {
        if (c.phase === 'sft-planner' && i === 1) m.pause();
      },
    });
    expect(await h.m.run()).toBe('paused');
    expect(h.m.state).toBe('paused');
    expect(h.m.cursor).toEqual({ iteration: 0, phase: 'sft-planner' });
    expect(h.log.at(-1)).toBe('0:sft-planner#1');
    expect(h.commits).toEqual(['0:seed-data->0:sft-planner']);
    expect(h.events.at(-1)).toEqual({ type: 'paused', cursor: { iteration: 0, phase: 'sft-planner' }, at: 'batch', batches: 2 });
    // Nothing moves while paused.
    await new Promise((r) => setImmediate(r));
    expect(h.log.at(-1)).toBe('0:sft-planner#1');

    expect(await h.m.resume()).toBe('done');
    expect(h.log).toEqual(await fullLog(1));
    expect(h.commits).toHaveLength(8);
    expect(h.events.filter((e) => e.type === 'resumed')).toEqual([{ type: 'resumed', cursor: { iteration: 0, phase: 'sft-planner' }, mode: 'run' }]);
  });

  it('a pause requested after a phase\'s last batch takes effect at the phase boundary, after its commit', async () => {
    const h = harness({ iterations: 0, onCommit: (c, m) => c.phase === 'seed-data' && m.pause() });
    expect(await h.m.run()).toBe('paused');
    expect(h.commits).toEqual(['0:seed-data->0:sft-planner']);
    expect(h.log.at(-1)).toBe('end 0:seed-data');
    expect(h.m.cursor).toEqual({ iteration: 0, phase: 'sft-planner' });
    expect(h.events.at(-1)).toEqual({ type: 'paused', cursor: { iteration: 0, phase: 'sft-planner' }, at: 'phase', batches: 0 });
    expect(await h.m.run()).toBe('done');
    expect(h.log).toEqual(await fullLog(0));
  });

  it('stepPhase runs exactly one phase, from the start and from a pause inside a phase', async () => {
    const h = harness({ iterations: 1 });
    expect(await h.m.stepPhase()).toBe('paused');
    expect(h.log).toEqual(['start 0:seed-data', '0:seed-data#0', '0:seed-data#1', '0:seed-data#2', 'end 0:seed-data']);
    expect(h.commits).toEqual(['0:seed-data->0:sft-planner']);
    expect(h.m.cursor).toEqual({ iteration: 0, phase: 'sft-planner' });

    expect(await h.m.stepPhase()).toBe('paused');
    expect(h.log.at(-1)).toBe('end 0:sft-planner');
    expect(h.commits).toHaveLength(2);

    // Pause inside sft-grounder, then stepPhase finishes just that phase.
    expect(await h.m.stepBatch()).toBe('paused');
    expect(h.log.at(-1)).toBe('0:sft-grounder#0');
    expect(await h.m.stepPhase()).toBe('paused');
    expect(h.log.at(-1)).toBe('end 0:sft-grounder');
    expect(h.commits.at(-1)).toBe('0:sft-grounder->0:evaluate');
    expect(h.m.cursor).toEqual({ iteration: 0, phase: 'evaluate' });
  });

  it('stepBatch lets exactly one batch through, pausing at the phase end when no batch is left', async () => {
    const h = harness({ iterations: 0, batches: (c) => (c.phase === 'seed-data' ? 2 : c.phase === 'sft-planner' ? 0 : 3) });
    expect(await h.m.stepBatch()).toBe('paused');
    expect(h.log).toEqual(['start 0:seed-data', '0:seed-data#0']);
    expect(h.events.at(-1)).toMatchObject({ type: 'paused', at: 'batch', batches: 1 });

    expect(await h.m.stepBatch()).toBe('paused');
    expect(h.log.slice(2)).toEqual(['0:seed-data#1', 'end 0:seed-data']);
    expect(h.commits).toEqual(['0:seed-data->0:sft-planner']);
    expect(h.events.at(-1)).toMatchObject({ type: 'paused', at: 'phase', cursor: { iteration: 0, phase: 'sft-planner' } });

    // sft-planner has no batches: one step runs it whole and stops at the next boundary.
    expect(await h.m.stepBatch()).toBe('paused');
    expect(h.log.slice(4)).toEqual(['start 0:sft-planner', 'end 0:sft-planner']);
    expect(h.m.cursor).toEqual({ iteration: 0, phase: 'sft-grounder' });

    expect(await h.m.stepBatch()).toBe('paused');
    expect(h.log.slice(6)).toEqual(['start 0:sft-grounder', '0:sft-grounder#0']);
    expect(await h.m.stepBatch()).toBe('paused');
    expect(h.log.slice(8)).toEqual(['0:sft-grounder#1']);
    expect(h.events.filter((e) => e.type === 'resumed').every((e) => e.type === 'resumed' && e.mode === 'batch')).toBe(true);
    expect(await h.m.run()).toBe('done');
    expect(h.commits).toHaveLength(4);
  });

  it('resumes from a start cursor, skipping finished phases', async () => {
    const h = harness({ iterations: 2, start: { iteration: 1, phase: 'distill' } });
    expect(h.m.cursor).toEqual({ iteration: 1, phase: 'distill' });
    expect(await h.m.run()).toBe('done');
    expect(h.log.filter((l) => l.startsWith('start'))).toEqual([
      'start 1:distill',
      'start 1:grounder-train',
      'start 1:evaluate',
      'start 2:planner-grpo',
      'start 2:distill',
      'start 2:grounder-train',
      'start 2:evaluate',
    ]);
    expect(h.commits[0]).toBe('1:distill->1:grounder-train');
    expect(h.events[0]).toMatchObject({ type: 'phase-start', index: 5, total: 12 });
  });

  it('a finished run (start null) runs nothing; a start outside the plan is refused', async () => {
    const h = harness({ iterations: 1, start: null });
    expect(h.m.state).toBe('done');
    expect(await h.m.run()).toBe('done');
    expect(h.log).toEqual([]);
    expect(() => harness({ iterations: 1, start: { iteration: 2, phase: 'evaluate' } })).toThrow(/no phase evaluate of iteration 2/);
  });

  it('a failing phase fails the machine: no commit for it and no later phase', async () => {
    const h = harness({ iterations: 1, fail: (c) => c.phase === 'sft-grounder' });
    expect(await h.m.run()).toBe('failed');
    expect(h.m.state).toBe('failed');
    expect(h.m.error?.message).toBe('phase 0:sft-grounder broke');
    expect(h.commits).toEqual(['0:seed-data->0:sft-planner', '0:sft-planner->0:sft-grounder']);
    expect(h.log.at(-1)).toBe('0:sft-grounder#2');
    expect(h.events.at(-1)).toMatchObject({ type: 'failed', cursor: { iteration: 0, phase: 'sft-grounder' } });
    expect(h.events.some((e) => e.type === 'phase-start' && e.cursor.phase === 'evaluate')).toBe(false);
    // Controls do nothing after a failure.
    expect(await h.m.run()).toBe('failed');
    expect(await h.m.stepBatch()).toBe('failed');
    expect(h.log.at(-1)).toBe('0:sft-grounder#2');
  });

  it('a failing commit fails the machine without a phase-end event', async () => {
    const h = harness({ iterations: 0, failCommit: (c) => c.phase === 'sft-planner' });
    expect(await h.m.run()).toBe('failed');
    expect(h.m.error?.message).toBe('commit of 0:sft-planner failed');
    expect(h.events.filter((e) => e.type === 'phase-end').map((e) => e.type === 'phase-end' && e.cursor.phase)).toEqual(['seed-data']);
    expect(h.m.cursor).toEqual({ iteration: 0, phase: 'sft-planner' });
  });

  it('abort while paused rejects the blocked batch, aborts the signal and commits nothing more', async () => {
    const h = harness({ iterations: 0 });
    expect(await h.m.stepBatch()).toBe('paused');
    h.m.abort('The tab lost the run lock.');
    expect(await h.m.settled()).toBe('failed');
    expect(h.m.error).toBeInstanceOf(AbortedError);
    expect(h.m.error?.message).toBe('The tab lost the run lock.');
    expect(h.signals[0].aborted).toBe(true);
    expect(h.commits).toEqual([]);
    expect(h.log).toEqual(['start 0:seed-data', '0:seed-data#0']);
  });

  it('pause() from outside while a batch is computing stops before the next batch', async () => {
    let finishBatch: () => void = () => {};
    let batchStarted: () => void = () => {};
    const started = new Promise<void>((r) => (batchStarted = r));
    const log: string[] = [];
    const m = new PhaseMachine({
      iterations: 0,
      commit: async () => {},
      runPhase: async (c, gate) => {
        for (let i = 0; i < 3; i++) {
          await gate.batch();
          if (c.phase === 'seed-data' && i === 0) {
            batchStarted();
            await new Promise<void>((r) => (finishBatch = r)); // a long GPU batch
          }
          log.push(`${c.phase}#${i}`);
        }
      },
    });
    const settled = m.run();
    await started;
    expect(m.state).toBe('running');
    m.pause();
    finishBatch();
    expect(await settled).toBe('paused');
    expect(log).toEqual(['seed-data#0']);
    expect(await m.run()).toBe('done');
    expect(log).toHaveLength(12);
  });

  it('a pause that arrives while the gate yields runs its beforePause first; a resume during it is not lost', async () => {
    const seen: string[] = [];
    let resumeDuringSave = false;
    const m: PhaseMachine = new PhaseMachine({
      iterations: 0,
      commit: async () => {},
      onEvent: (e) => {
        if (e.type === 'paused') seen.push(`paused at ${e.batches}`);
      },
      runPhase: async (c, gate) => {
        for (let i = 0; i < 3; i++) {
          // Asked for while batch() yields to the event loop: a check of willPause() made here says no.
          if (c.phase === 'seed-data' && i === 1) {
            setTimeout(() => m.pause(), 0);
            expect(gate.willPause?.()).toBe(false);
          }
          await gate.batch(async () => {
            seen.push(`save before ${c.phase}#${i}`);
            if (resumeDuringSave) void m.run();
          });
          seen.push(`${c.phase}#${i}`);
        }
      },
    });
    expect(await m.run()).toBe('paused');
    expect(seen).toEqual(['seed-data#0', 'save before seed-data#1', 'paused at 1']);
    // The same, with the run resumed while the save is being written: it goes on instead of blocking.
    seen.length = 0;
    resumeDuringSave = true;
    expect(await m.run()).toBe('done');
    expect(seen.slice(0, 2)).toEqual(['seed-data#1', 'seed-data#2']);
    expect(seen.filter((s) => s.startsWith('paused'))).toEqual([]);
  });

  it('abort while paused between phases fails the run before the next phase starts', async () => {
    const h = harness({ iterations: 0 });
    expect(await h.m.stepPhase()).toBe('paused');
    h.m.abort();
    expect(await h.m.settled()).toBe('failed');
    expect(h.m.error).toBeInstanceOf(AbortedError);
    expect(h.log.filter((l) => l.startsWith('start'))).toEqual(['start 0:seed-data']);
    expect(h.commits).toEqual(['0:seed-data->0:sft-planner']);
    expect(await h.m.run()).toBe('failed');
  });

  it('a gate used after its phase ended throws instead of counting a batch', async () => {
    const h = harness({ iterations: 0, batches: () => 1 });
    expect(await h.m.stepPhase()).toBe('paused');
    await expect(h.gates[0].batch()).rejects.toThrow(/after that phase ended/);
  });

  it('pause while idle or paused changes nothing', async () => {
    const h = harness({ iterations: 0 });
    h.m.pause();
    expect(h.m.state).toBe('idle');
    expect(await h.m.run()).toBe('done');
    expect(h.log).toEqual(await fullLog(0));
  });
});
