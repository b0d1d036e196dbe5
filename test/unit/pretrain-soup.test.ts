import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { soupCheckpoints } from '../../src/pretrain/soup';
import { decodeSafetensors, encodeSafetensors } from '../../src/models/safetensors';
import { runPretrain } from '../../scripts/lib/pretrain-run';
import { parsePretrainArgs, type PretrainArgs } from '../../scripts/lib/pretrain-args';
import { ProgressPrinter } from '../../scripts/lib/progress';

const file = (a: number[], b: number[], config = '{"model":"planner"}') =>
  encodeSafetensors({ 'layer.w': { shape: [2, 2], data: Float32Array.from(a) }, bias: { shape: [2], data: Float32Array.from(b) } }, { format: 'coevo', model: 'planner', config });

describe('soupCheckpoints', () => {
  it('averages every tensor element by element and keeps the first file metadata', () => {
    const mean = decodeSafetensors(soupCheckpoints([file([1, 2, 3, 4], [0, 1]), file([3, 2, 1, 0], [1, 1]), file([2, 2, 2, 2], [2, -5])]));
    expect(Array.from(mean.tensors['layer.w'].data)).toEqual([2, 2, 2, 2]);
    expect(Array.from(mean.tensors.bias.data)).toEqual([1, -1]);
    expect(mean.tensors['layer.w'].shape).toEqual([2, 2]);
    expect(mean.metadata).toEqual({ format: 'coevo', model: 'planner', config: '{"model":"planner"}' });
  });

  it('is the model itself when every ingredient is the same, bit for bit', () => {
    const one = file([0.1, -0.3, 1e-7, 3.3], [0.7, 0.2]);
    const back = decodeSafetensors(soupCheckpoints([one, one, one]));
    expect(Array.from(back.tensors['layer.w'].data)).toEqual(Array.from(decodeSafetensors(one).tensors['layer.w'].data));
  });

  it('refuses one file, other configs, other tensors and other shapes, naming the file', () => {
    const a = file([1, 2, 3, 4], [0, 1]);
    expect(() => soupCheckpoints([a])).toThrow(/at least two/);
    expect(() => soupCheckpoints([a, file([1, 2, 3, 4], [0, 1], '{"model":"grounder"}')], ['A', 'B'])).toThrow(/B has another model config than A/);
    const extra = encodeSafetensors({ 'layer.w': { shape: [2, 2], data: new Float32Array(4) } }, decodeSafetensors(a).metadata);
    expect(() => soupCheckpoints([a, extra], ['A', 'B'])).toThrow(/B has other tensors than A/);
    const wide = encodeSafetensors({ 'layer.w': { shape: [1, 4], data: new Float32Array(4) }, bias: { shape: [2], data: new Float32Array(2) } }, decodeSafetensors(a).metadata);
    expect(() => soupCheckpoints([a, wide], ['A', 'B'])).toThrow(/B's layer.w is \[1,4\], A's \[2,2\]/);
    expect(() => soupCheckpoints([a, new Uint8Array([1, 2])], ['A', 'B'])).toThrow(/B is not a safetensors file/);
  });
});

describe('npm run pretrain -- --soup', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'coevo-soup-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const folder = (name: string, bytes?: Uint8Array): string => {
    const d = join(root, name);
    mkdirSync(d, { recursive: true });
    if (bytes) writeFileSync(join(d, 'tiny-planner.safetensors'), bytes);
    return d;
  };
  const args = (soup: string[]): PretrainArgs => {
    const p = parsePretrainArgs(['--only', 'planner', '--soup', soup.join(','), '--out', folder('out')]);
    if (p.help) throw new Error('help');
    return p.args;
  };
  // The folders are checked before any browser starts: an app that is served fails the test.
  const env = { printer: new ProgressPrinter({ write: () => {}, isTTY: false }, 0), serve: () => Promise.reject(new Error('the app was served')) };

  it('names a folder without the model, and models that cannot be averaged, before starting the app', async () => {
    const a = folder('a', file([1, 2, 3, 4], [0, 1]));
    await expect(runPretrain(args([a, folder('empty')]), env)).rejects.toThrow(/no base planner to average at .*empty.*tiny-planner\.safetensors/);
    const other = folder('other', file([1, 2, 3, 4], [0, 1], '{"model":"planner","width":2}'));
    await expect(runPretrain(args([a, other]), env)).rejects.toThrow(/cannot average the planners: .*other.* has another model config/);
  });
});
