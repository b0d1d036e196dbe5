/**
 * Saving checkpoints to the store and loading them back. These take any
 * object with putCheckpoint/getCheckpoint: the IndexedDB Store in the app,
 * an in-memory one in tests.
 */
import type { CheckpointRecord } from '../store/schema';
import { configJson, exportCheckpoint, importCheckpoint, type ModelConfig } from './checkpoint';
import type { ParamMap, Params } from './params';

export interface CheckpointStore {
  putCheckpoint(record: CheckpointRecord): Promise<void>;
  getCheckpoint(id: string): Promise<CheckpointRecord | undefined>;
}

export interface SaveOptions {
  id: string;
  runId: string;
  iteration: number;
  createdAt?: number;
}

export async function saveCheckpoint(store: CheckpointStore, params: ParamMap, config: ModelConfig, opts: SaveOptions): Promise<CheckpointRecord> {
  const bytes = await exportCheckpoint(params, config);
  const weights = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const record: CheckpointRecord = {
    id: opts.id,
    runId: opts.runId,
    model: config.model,
    iteration: opts.iteration,
    createdAt: opts.createdAt ?? Date.now(),
    // The record's config holds scalars only; the full config (with arrays) travels as JSON.
    config: { model: config.model, json: configJson(config) },
    weights,
  };
  await store.putCheckpoint(record);
  return record;
}

export async function loadCheckpoint(store: CheckpointStore, id: string): Promise<{ config: ModelConfig; params: Params; record: CheckpointRecord }> {
  const record = await store.getCheckpoint(id);
  if (!record) throw new Error(`No checkpoint with id ${id}.`);
  return { ...importCheckpoint(new Uint8Array(record.weights)), record };
}

/** A Map-backed CheckpointStore, for tests and for runs that keep nothing. */
export function memoryCheckpointStore(): CheckpointStore & { records: Map<string, CheckpointRecord> } {
  const records = new Map<string, CheckpointRecord>();
  return {
    records,
    async putCheckpoint(r) {
      records.set(r.id, r);
    },
    async getCheckpoint(id) {
      return records.get(id);
    },
  };
}
