/**
 * Hand-built records of a co-evolution run for the store, archive and report
 * tests: small, but with every field a real run fills.
 */
import type { CurationNote, PhaseName, StepSample } from '../../src/coevo/records';
import type { CheckpointRecord, PhaseRecord, RunRecord, ScreenRecord, TrajectoryRecord } from '../../src/store/schema';
import type { RefStyle, Task } from '../../src/world/types';
import { encodeSafetensors } from '../../src/models/safetensors';

export function coevoRun(id: string, createdAt = 1_000): RunRecord {
  return { id, kind: 'coevo', name: `coevo ${id}`, createdAt, status: 'running', backend: 'wasm', seed: 1, config: { preset: 'tiny', iterations: 2, coevo: true, beta: 0.01 } };
}

export const task: Task = {
  id: 'mail.send(to=Ann)',
  templateId: 'mail.send',
  appId: 'mail',
  domain: 'mail',
  platform: 'web',
  variant: 1,
  seed: 3,
  params: { to: 'Ann' },
  goal: 'Send a mail to Ann',
};

export interface SampleOptions {
  iteration?: number;
  phase?: PhaseName;
  source?: string;
  style?: RefStyle | null;
  kept?: boolean;
  curation?: CurationNote[];
  screenHash?: string;
}

export function sample(runId: string, n: number, o: SampleOptions = {}): StepSample {
  const iteration = o.iteration ?? 0;
  const kept = o.kept ?? true;
  return {
    id: `${runId}/${iteration}/${n}`,
    runId,
    iteration,
    phase: o.phase ?? (iteration === 0 ? 'seed-data' : 'distill'),
    origin: iteration === 0 ? 'seed' : 'distilled',
    source: o.source ?? (iteration === 0 ? 'writer:terse' : `planner@${iteration}`),
    task,
    stepIndex: n % 3,
    platform: 'web',
    goal: task.goal,
    instruction: `click the Send button ${n}`,
    style: o.style === undefined ? 'text' : o.style,
    actionType: 'CLICK',
    targetId: 'send',
    box: { x: 10, y: 20, w: 30, h: 12 },
    screenHash: o.screenHash,
    kept,
    curation: o.curation ?? [{ stage: 'verifier', decision: kept ? 'keep' : 'drop', reason: kept ? 'verified' : 'verifier pool disagrees' }],
  };
}

export function phase(runId: string, index: number, name: PhaseName, iteration: number, summary: Record<string, number | string> = {}, seconds = 2): PhaseRecord {
  const startedAt = 10_000 + index * 100_000;
  return { runId, index, iteration, phase: name, startedAt, finishedAt: startedAt + seconds * 1000, summary };
}

/** A PNG signature and IHDR chunk with the given size: all the archive reads of a PNG. */
export function pngBytes(width: number, height: number, salt = 0): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(8 + 25 + 12 + 4);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const v = new DataView(b.buffer);
  v.setUint32(8, 13);
  b.set([0x49, 0x48, 0x44, 0x52], 12); // IHDR
  v.setUint32(16, width);
  v.setUint32(20, height);
  b.set([8, 6, 0, 0, 0], 24);
  v.setUint32(41, salt);
  return b;
}

export function screen(hash: string, width = 200, height = 128): ScreenRecord {
  return { hash, png: new Blob([pngBytes(width, height, hash.length)], { type: 'image/png' }), width, height };
}

export function trajectory(runId: string, n: number, iteration: number, screenHashes?: string[]): TrajectoryRecord {
  return { id: `${runId}/traj/${iteration}/${n}`, runId, iteration, taskId: task.id, steps: [{ instruction: 'click Send', point: [3, 4], ok: true }], screenHashes };
}

export function checkpoint(runId: string, model: 'planner' | 'grounder', iteration: number): CheckpointRecord {
  const bytes = encodeSafetensors({ 'w.dense': { shape: [2, 3], data: new Float32Array([1, -2, 3.5, 0.25, 1e-7, iteration]) } }, { format: 'coevo', model });
  return {
    id: `${runId}/${model}@${iteration}`,
    runId,
    model,
    iteration,
    createdAt: 5_000 + iteration,
    config: { model, json: '{"model":"' + model + '"}' },
    weights: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  };
}
