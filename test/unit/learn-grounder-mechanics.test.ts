/**
 * The grounder's training rules as mechanisms: SFT targets, the attention
 * filter's zero loss for rejected samples, LoRA touching only adapters, no
 * tensor leak over 20 steps of SFT and of GRPO, and same seed → same losses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { grounderPreset } from '../../src/models/presets';
import { initGrounder } from '../../src/models/grounder';
import { grounderBatch, type GrounderBatch } from '../../src/models/grounderData';
import { CELL, GRID_CELLS, GRID_COLS } from '../../src/models/canvas';
import { disposeParams, snapshot } from '../../src/models/params';
import { createLora, DEFAULT_LORA, disposeLora } from '../../src/models/lora';
import { attentionFilterBatch, boxTarget, makeGrounderSft, offsetTarget, sftTargets } from '../../src/learn/grounderSft';
import { makeGrounderGrpo } from '../../src/learn/grounderGrpo';
import { isGlyphReaderParam } from '../../src/models/glyphReader';
import { evalGrounder, groundingItems } from '../../src/learn/evalGrounder';
import { grounderBatches, sliceTrainingExamples } from '../../src/learn/grounderCurriculum';
import { buildSuites } from '../../src/world/suites';
import type { Box } from '../../src/world/types';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg = grounderPreset('tiny');
const pool = sliceTrainingExamples(new Random(21), 48, {});
const batchOf = (from: number, size: number): GrounderBatch => grounderBatch(tok, cfg, pool.slice(from, from + size));

function maxAbsDiff(a: Record<string, Float32Array>, b: Record<string, Float32Array>, names: string[]): number {
  let m = 0;
  for (const n of names) for (let i = 0; i < a[n].length; i++) m = Math.max(m, Math.abs(a[n][i] - b[n][i]));
  return m;
}

describe('grounder SFT targets', () => {
  it('spread over the box cells, sum to 1, peak at the centre; offsets point at the centre', () => {
    const box: Box = { x: 16, y: 24, w: 40, h: 24 }; // cells 2..6 × 3..5, centre (36, 36) in cell (4, 4)
    const t = boxTarget(box);
    expect([...t.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(t.size).toBe(5 * 3);
    for (const c of t.keys()) {
      const x = ((c % GRID_COLS) + 0.5) * CELL;
      const y = (Math.floor(c / GRID_COLS) + 0.5) * CELL;
      expect(x >= box.x && x <= box.x + box.w && y >= box.y && y <= box.y + box.h).toBe(true);
    }
    const centre = 4 * GRID_COLS + 4;
    expect(Math.max(...t.values())).toBe(t.get(centre));
    // Cells further out weigh less: (2,4) at 16 px left of the centre < (3,4) at 8 px.
    expect(t.get(4 * GRID_COLS + 2)!).toBeLessThan(t.get(4 * GRID_COLS + 3)!);
    expect(offsetTarget(centre, box)).toEqual([0.5, 0.5]);
    // A cell left of the centre aims at its right edge (clamped just inside), same row height.
    expect(offsetTarget(4 * GRID_COLS + 2, box)).toEqual([0.98, 0.5]);
    // A box smaller than a cell's centre spacing still gets its centre cell.
    const tiny = boxTarget({ x: 9, y: 9, w: 3, h: 3 });
    expect([...tiny.entries()]).toEqual([[1 * GRID_COLS + 1, 1]]);
    const b = batchOf(0, 4);
    const { cells } = sftTargets(b);
    for (let i = 0; i < 4; i++) expect(cells.subarray(i * GRID_CELLS, (i + 1) * GRID_CELLS).reduce((a, v) => a + v, 0)).toBeCloseTo(1, 5);
  });
});

describe('grounder SFT options', () => {
  it('attention filter: rejected samples carry no loss (the step equals an unfiltered step on the kept ones); all rejected → no update', async () => {
    const previous = initGrounder(new Random(2), cfg);
    const a = initGrounder(new Random(1), cfg);
    const b = initGrounder(new Random(1), cfg);
    // A batch where the untrained previous grounder keeps some samples and drops others.
    let batch: GrounderBatch | null = null;
    for (let from = 0; from + 6 <= pool.length && !batch; from += 6) {
      const candidate = batchOf(from, 6);
      const kept = (await attentionFilterBatch(previous, cfg, candidate)).filter((v) => v.keep).length;
      if (kept > 0 && kept < 6) batch = candidate;
    }
    expect(batch, 'no batch with mixed verdicts').not.toBeNull();
    const filtered = makeGrounderSft(a, cfg, { lr: 1e-3, attentionFilter: { previous } });
    const r = await filtered.step(batch!);
    expect(r.kept).toBeGreaterThan(0);
    expect(r.kept).toBeLessThan(6);
    expect(r.filter).toHaveLength(6);
    expect(r.filter!.filter((v) => v.keep)).toHaveLength(r.kept);
    for (const v of r.filter!) expect(v.reason).toMatch(v.keep ? /^kept/ : /^dropped/);
    const keptExamples = batch!.examples.filter((_, i) => r.filter![i].keep);
    const plain = makeGrounderSft(b, cfg, { lr: 1e-3 });
    const rb = await plain.step(grounderBatch(tok, cfg, keptExamples));
    console.log(`attention filter kept ${r.kept}/6: filtered loss ${r.loss.toFixed(6)}, unfiltered loss on the kept ${rb.loss.toFixed(6)}`);
    expect(r.loss).toBeCloseTo(rb.loss, 4);
    const [sa, sb] = [await snapshot(a), await snapshot(b)];
    // Biases added to every logit of a softmax (attention keys, the slot scores over tokens, the cell logits' shared bias) have a true gradient
    // of 0; Adam's first step turns their float noise, which a different reduction order changes, into moves of
    // up to lr. Every other weight must match.
    const softmaxShifts = /(\.k\.b|^parse\.slots\.b|^head\.bias\.b)$/;
    const names = Object.keys(sa).filter((n) => !softmaxShifts.test(n));
    expect(names.length).toBeGreaterThanOrEqual(Object.keys(sa).length - 8);
    expect(maxAbsDiff(sa, sb, names)).toBeLessThan(1e-5);

    // τ above every possible normalised value: nothing kept, zero loss, no parameter moves.
    const strict = makeGrounderSft(a, cfg, { lr: 1e-3, attentionFilter: { previous, tau: 1 } });
    const none = await strict.step(batch!);
    expect(none.kept).toBe(0);
    expect(none.loss).toBe(0);
    expect(maxAbsDiff(sa, await snapshot(a), Object.keys(sa))).toBe(0);
    for (const t of [filtered, plain, strict]) t.dispose();
    for (const p of [previous, a, b]) disposeParams(p);
  });

  it('LoRA: SFT and GRPO steps change only the adapters', async () => {
    const params = initGrounder(new Random(1), cfg);
    const lora = createLora(new Random(3), params, DEFAULT_LORA);
    const base0 = await snapshot(params);
    const ad0 = await snapshot(lora.adapters);
    const sft = makeGrounderSft(params, cfg, { lr: 1e-2, lora });
    const grpo = makeGrounderGrpo(params, cfg, { lr: 1e-2, lora, rng: new Random(4), groupSize: 4 });
    await sft.step(batchOf(0, 4));
    await grpo.step(batchOf(4, 4));
    await sft.step(batchOf(8, 4));
    expect(maxAbsDiff(base0, await snapshot(params), Object.keys(base0))).toBe(0);
    const ad1 = await snapshot(lora.adapters);
    const moved = Object.keys(ad0).filter((k) => maxAbsDiff(ad0, ad1, [k]) > 0);
    console.log(`LoRA: ${moved.length}/${Object.keys(ad0).length} adapter tensors moved, base unchanged`);
    expect(moved.length).toBeGreaterThan(Object.keys(ad0).length / 2);
    sft.dispose();
    grpo.dispose();
    disposeLora(lora);
    disposeParams(params);
  });

  it('frozen names: SFT and GRPO steps leave the glyph reader as it was and train the rest', async () => {
    const params = initGrounder(new Random(1), cfg);
    const before = await snapshot(params);
    const sft = makeGrounderSft(params, cfg, { lr: 1e-2, frozen: isGlyphReaderParam });
    const grpo = makeGrounderGrpo(params, cfg, { lr: 1e-2, frozen: isGlyphReaderParam, rng: new Random(4), groupSize: 4 });
    await sft.step(batchOf(0, 4));
    await grpo.step(batchOf(4, 4));
    const after = await snapshot(params);
    const reader = Object.keys(before).filter(isGlyphReaderParam);
    const rest = Object.keys(before).filter((k) => !isGlyphReaderParam(k));
    expect(reader.length).toBeGreaterThanOrEqual(4);
    expect(maxAbsDiff(before, after, reader)).toBe(0);
    expect(rest.filter((k) => maxAbsDiff(before, after, [k]) > 0).length).toBeGreaterThan(rest.length / 2);
    sft.dispose();
    grpo.dispose();
    disposeParams(params);
  });
});

describe('grounder training: leaks and determinism', () => {
  it('no tensor leak across 20 SFT steps and 20 GRPO steps', async () => {
    const params = initGrounder(new Random(1), cfg);
    const next = grounderBatches(new Random(6), tok, cfg, pool, 4);
    const start = tf.memory().numTensors;
    const sft = makeGrounderSft(params, cfg, { lr: 1e-3 });
    await sft.step(next()); // creates Adam's slots
    const afterFirst = tf.memory().numTensors;
    for (let s = 1; s < 20; s++) await sft.step(next());
    expect(tf.memory().numTensors).toBe(afterFirst);
    sft.dispose();
    expect(tf.memory().numTensors).toBe(start);

    const grpo = makeGrounderGrpo(params, cfg, { lr: 1e-3, rng: new Random(7), groupSize: 4 });
    await grpo.step(next());
    const afterFirstGrpo = tf.memory().numTensors;
    for (let s = 1; s < 20; s++) await grpo.step(next());
    expect(tf.memory().numTensors).toBe(afterFirstGrpo);
    grpo.dispose(); // frees Adam's slots and the reference copy it made
    expect(tf.memory().numTensors).toBe(start);
    console.log(`tensors: ${start} at start, ${afterFirst} during SFT, ${afterFirstGrpo} during GRPO (reference + Adam), ${tf.memory().numTensors} after`);
    disposeParams(params);
  }, 900_000); // 40 steps with the glyph reader: minutes on a loaded 2-core machine (a guard against hangs, not a speed goal)

  it('same seed → same losses and rewards; another sampling seed → other samples', async () => {
    const run = async (samplingSeed: number) => {
      const params = initGrounder(new Random(1), cfg);
      const next = grounderBatches(new Random(8), tok, cfg, pool, 4);
      const sft = makeGrounderSft(params, cfg, { lr: 3e-3 });
      const out: number[] = [];
      for (let s = 0; s < 3; s++) out.push((await sft.step(next())).loss);
      const grpo = makeGrounderGrpo(params, cfg, { lr: 1e-3, rng: new Random(samplingSeed), groupSize: 4 });
      for (let s = 0; s < 3; s++) {
        const r = await grpo.step(next());
        out.push(r.loss, r.meanReward, r.kl);
      }
      sft.dispose();
      grpo.dispose();
      disposeParams(params);
      return out;
    };
    const first = await run(9);
    const second = await run(9);
    console.log(`losses (3 SFT, then GRPO loss/reward/kl ×3): ${first.map((x) => x.toPrecision(6)).join(', ')}`);
    expect(second).toEqual(first);
    const other = await run(10);
    expect(other.slice(0, 3)).toEqual(first.slice(0, 3));
    expect(other.slice(3)).not.toEqual(first.slice(3));
  }, 600_000); // several grounder steps with the glyph reader: minutes when other tests share the cores (a guard against hangs, not a speed goal)
});

describe('evalGrounder', () => {
  it('evaluates ScreenSpot-like suite queries, split by split, style and platform', async () => {
    const suites = buildSuites(4, { webPerSplit: 1, mobile: 1, groundingPerSplit: 3 });
    const items = groundingItems(suites.grounding);
    const params = initGrounder(new Random(1), cfg);
    const e = await evalGrounder(params, cfg, tok, items, { batchSize: 8 });
    expect(e.n).toBe(items.length);
    expect(Object.keys(e.bySplit).sort()).toEqual(['mobile-icon', 'mobile-text', 'web-icon', 'web-text']);
    expect(Object.values(e.bySplit).reduce((a, c) => a + (c?.n ?? 0), 0)).toBe(items.length);
    expect(Object.keys(e.byPlatform).sort()).toEqual(['mobile', 'web']);
    expect(e.hits).toBe(e.points.filter((p) => p.hit).length);
    expect(e.expectedReward).toBeGreaterThanOrEqual(1);
    expect(e.expectedReward).toBeLessThanOrEqual(5);
    disposeParams(params);
  });
});
