/**
 * The offsite comparison's worker host (workers/offsiteHost.ts): refuses to
 * run without a backend, or while a run is going; a run that fails (here,
 * no base ships, or the base is the other agent's) leaves the app's message
 * in its progress. A whole run in the app: offsite-cli-run.test.ts.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { createOffsiteHost } from '../../workers/offsiteHost';
import type { DeviceInfo } from '../../workers/api';
import { OFFSITE_DEFAULTS, type OffsiteOptions } from '../../src/offsite/jobTypes';
import { Store } from '../../src/store/store';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const WASM: DeviceInfo = { backend: 'wasm', wasm: { simd: true, threads: 1, threadsAsked: null } };
const O: OffsiteOptions = { ...OFFSITE_DEFAULTS.grounder, agent: 'grounder', preset: 'tiny', lora: null };
const paint = async () => () => new Float32Array(0);

describe('offsite host', () => {
  it('needs a backend', async () => {
    const host = createOffsiteHost({ paint, device: () => null, loadBase: async () => new Uint8Array(0) });
    await expect(host.run(O)).rejects.toThrow(/Choose a backend/);
    expect(host.progress().state).toBe('idle');
  });

  it('waits for a co-evolution run training in the same worker, naming it', async () => {
    const host = createOffsiteHost({ paint, device: () => WASM, training: () => 'run-7', loadBase: async () => new Uint8Array(0) });
    await expect(host.run(O)).rejects.toThrow(/Run run-7 is training in this tab; pause it in the Loop view first/);
    expect(host.progress().state).toBe('idle');
  });

  it('runs one comparison at a time', async () => {
    const host = createOffsiteHost({ paint, device: () => WASM, loadBase: () => new Promise<Uint8Array>(() => undefined) });
    void host.run(O);
    await expect(host.run(O)).rejects.toThrow(/already running/);
    expect(host.progress().state).toBe('running');
  });

  it('keeps a failed run’s message: no base ships, or the base holds the other agent', async () => {
    const missing = createOffsiteHost({ paint, device: () => WASM, loadBase: async () => Promise.reject(new Error("No base grounder ships for preset 'demo'")) });
    await expect(missing.run({ ...O, preset: 'demo' })).rejects.toThrow(/No base grounder ships/);
    expect(missing.progress()).toMatchObject({ state: 'failed', error: "No base grounder ships for preset 'demo'" });

    const bytes = new Uint8Array(readFileSync(join(__dirname, '../../public/base/tiny-planner.safetensors')));
    const wrong = createOffsiteHost({ paint, device: () => WASM, loadBase: async () => bytes });
    await expect(wrong.run(O)).rejects.toThrow(/holds a planner/);
    expect(wrong.progress().state).toBe('failed');
  });

  it('records each run in the store: a failed one with its message, and nothing for a refusal before it starts', async () => {
    const store = Store.open('offsite-host-test');
    const host = createOffsiteHost({ paint, device: () => WASM, store: () => store, loadBase: async () => Promise.reject(new Error('the disk said no')) });
    await expect(host.run(O)).rejects.toThrow(/the disk said no/);
    const [rec, ...more] = await (await store).listOffsite();
    expect(more).toEqual([]);
    expect(rec).toMatchObject({ state: 'failed', error: 'the disk said no', options: O });
    expect(rec.finishedAt).toBeGreaterThanOrEqual(rec.createdAt);

    const busy = createOffsiteHost({ paint, device: () => null, store: () => store, loadBase: async () => new Uint8Array(0) });
    await expect(busy.run(O)).rejects.toThrow(/Choose a backend/);
    expect(await (await store).listOffsite()).toHaveLength(1);
  });

  it('refuses options the comparison cannot run, with the field named', async () => {
    const host = createOffsiteHost({ paint, device: () => WASM, loadBase: async () => new Uint8Array(0) });
    await expect(host.run({ ...O, tuneSteps: 0 })).rejects.toThrow(/tuneSteps must be an integer ≥ 1/);
    expect(host.progress()).toMatchObject({ state: 'failed' });
  });
});
