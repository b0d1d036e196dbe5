/**
 * The grounder pretraining's pieces, fast: dense per-cell labels from the
 * layout, the instruction labels, the shared-screen forward (several
 * instructions over one screen give what one forward per instruction
 * gives), the reading probe's numbers on an untrained grounder, and two
 * pretraining steps without a tensor leak.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { CELL, GRID_CELLS, GRID_COLS, cellOfPoint } from '../../src/models/canvas';
import { encodeScreens, groundOnScreens, grounderForward, initGrounder } from '../../src/models/grounder';
import { grounderBatch, grounderTensors } from '../../src/models/grounderData';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { Random } from '../../src/learn/random';
import { formatReadingProbe, probeItems, readingProbe } from '../../src/learn/readingProbe';
import { pretrainGrounder } from '../../src/pretrain/grounder';
import { heldOutScreens, instructionLabels, trainingScreens, writeExample } from '../../src/pretrain/grounderScreens';
import { defaultTokenizer } from '../../src/text/vocab';
import { parseInstruction } from '../../src/text/grammar';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { cellLabels, colorClass, iconClass, LETTER_CLASSES, letterBag, roleClass, shownText } from '../../src/world/cellLabels';
import { HELD_OUT_DOMAINS, HELD_OUT_SITES, TEST_SEED_BASE } from '../../src/world/suites';
import { appById } from '../../src/world/env';
import { visibleElements } from '../../src/world/verifier';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const centreCell = (b: { x: number; y: number; w: number; h: number }) => cellOfPoint(b.x + b.w / 2, b.y + b.h / 2);
const seedOf = (taskId: string) => Number(/\|s(\d+)\|/.exec(taskId)?.[1]);

describe('cell labels', () => {
  it('letter bags fold case, keep digits, put punctuation in one class', () => {
    const bag = letterBag('Wi-Fi 5G');
    const on = [...bag].flatMap((v, i) => (v ? [i] : []));
    // w=23, i=9, f=6, g=7, '5' = 27 + 5, '-' = 37
    expect(on).toEqual([6, 7, 9, 23, 32, 37]);
    expect(bag[0]).toBe(0);
  });

  it('label each screen cell with what the layout put there', () => {
    const screens = trainingScreens(new Random(3), 12);
    expect(screens.length).toBe(12);
    let checkedText = 0;
    let checkedIcon = 0;
    for (const ps of screens) {
      const { screen } = ps;
      const lab = cellLabels(screen);
      // Padding cells of the canvas carry nothing.
      for (let c = 0; c < GRID_CELLS; c++) {
        const col = c % GRID_COLS;
        const row = Math.floor(c / GRID_COLS);
        expect(lab.valid[c]).toBe(col * CELL < screen.width && row * CELL < screen.height ? 1 : 0);
        if (!lab.valid[c]) expect([lab.role[c], lab.icon[c], lab.color[c], lab.hasText[c], lab.element[c]]).toEqual([0, 0, 0, 0, -1]);
      }
      const visible = visibleElements(screen);
      for (const el of visible) {
        const cell = centreCell(el.box);
        const owner = lab.element[cell];
        if (owner < 0 || screen.elements[owner].id !== el.id) continue; // something painted later covers the centre
        const text = shownText(el);
        expect(lab.hasText[cell]).toBe(text ? 1 : 0);
        if (text) {
          expect([...lab.letters.subarray(cell * LETTER_CLASSES, (cell + 1) * LETTER_CLASSES)]).toEqual([...letterBag(text)]);
          checkedText++;
        }
        if (el.interactive) {
          expect(lab.role[cell]).toBe(roleClass(el.role));
          expect(lab.icon[cell]).toBe(iconClass(el.icon));
          expect(lab.color[cell]).toBe(colorClass(el.color));
          if (el.icon) checkedIcon++;
        }
      }
    }
    expect(checkedText).toBeGreaterThan(50);
    expect(checkedIcon).toBeGreaterThan(3);
  });
});

describe('pretraining material', () => {
  it('draws training screens below TEST_SEED_BASE and held-out screens of held-out sites above it', () => {
    const train = trainingScreens(new Random(4), 20);
    const held = heldOutScreens(5, 20);
    expect(train.every((s) => seedOf(s.taskId) < TEST_SEED_BASE)).toBe(true);
    expect(held.every((s) => seedOf(s.taskId) >= TEST_SEED_BASE)).toBe(true);
    expect(held.every((s) => HELD_OUT_SITES.includes(s.screen.appId) || HELD_OUT_DOMAINS.includes(appById(s.screen.appId).domain))).toBe(true);
    expect(train.some((s) => HELD_OUT_SITES.includes(s.screen.appId))).toBe(false);
  });

  it('labels the tokens that name the target text, the anchor, and the target role', () => {
    const tok = defaultTokenizer();
    const rng = new Random(6);
    const screens = trainingScreens(new Random(7), 30);
    let text = 0;
    let relation = 0;
    for (const s of screens) {
      for (const target of s.targets) {
        for (const style of ['text', 'relation'] as const) {
          const e = writeExample(rng, s, target, [style]);
          if (!e) continue;
          const lab = instructionLabels(tok, e, 24);
          const enc = tok.encodeDetailed(e.instruction);
          const marked = new Set<string>();
          for (let t = 0; t < Math.min(enc.ids.length, 23); t++) if (lab.content[(t + 1) * 2 + (style === 'text' ? 0 : 1)] === 1) marked.add(enc.pieces[enc.pieceOf[t]].trim().toLowerCase());
          const other = [...lab.content].filter((v, i) => i % 2 === (style === 'text' ? 1 : 0) && v === 1);
          expect(other).toHaveLength(0);
          expect(marked.size).toBeGreaterThan(0);
          // Every marked word is a word of the text (or anchor) the instruction refers by.
          const ref = parseInstruction(e.instruction)?.ref;
          const named = ref?.style === 'text' ? ref.text : ref?.style === 'relation' ? ref.anchor : '';
          for (const w of marked) expect(named.toLowerCase().split(/[^\p{L}\p{N}]+/u)).toContain(w);
          expect(lab.role).toBe(roleClass(target.element.role));
          if (style === 'text') text++;
          else relation++;
        }
      }
    }
    expect(text).toBeGreaterThan(10);
    expect(relation).toBeGreaterThan(3);
  });
});

describe('grounder reading and shared screens (tiny, WASM)', () => {
  it('several instructions over one screen score as one forward per instruction', async () => {
    const tok = defaultTokenizer();
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(2), cfg);
    const s = trainingScreens(new Random(8), 1)[0];
    const rng = new Random(9);
    const examples = s.targets.slice(0, 6).flatMap((t) => writeExample(rng, s, t, ['text', 'position', 'icon', 'relation', 'color', 'function']) ?? []).slice(0, 3);
    expect(examples).toHaveLength(3);
    const batch = grounderBatch(tok, cfg, examples);
    const before = tf.memory().numTensors;
    const [separate, shared] = tf.tidy(() => {
      const inputs = grounderTensors(batch, cfg);
      const one = grounderForward(params, cfg, inputs).logits;
      const screens = encodeScreens(params, cfg, tf.slice(inputs.images, [0, 0, 0, 0], [1, -1, -1, -1]) as tf.Tensor4D, tf.slice(inputs.valid, [0, 0], [1, -1]) as tf.Tensor2D);
      expect(screens.reading.letters.shape).toEqual([1, GRID_CELLS, LETTER_CLASSES]);
      return [one, groundOnScreens(params, cfg, screens, 3, inputs).logits];
    });
    const [a, b] = (await Promise.all([separate.data(), shared.data()])) as Float32Array[];
    tf.dispose([separate, shared]);
    let diff = 0;
    for (let i = 0; i < a.length; i++) if (a[i] > -1e8) diff = Math.max(diff, Math.abs(a[i] - b[i]));
    expect(diff).toBeLessThan(1e-3);
    expect(tf.memory().numTensors).toBe(before);
    disposeParams(params);
  });

  it('the reading probe reports reading and per-style grounding with chance levels', async () => {
    const tok = defaultTokenizer();
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(3), cfg);
    const screens = heldOutScreens(11, 8);
    const items = probeItems(11, screens, 2);
    for (const x of items) {
      const s = screens.find((p) => p.screen === x.item.screen);
      expect(x.chance).toBeCloseTo(1 / (s?.targets.length ?? 0), 9);
    }
    const before = tf.memory().numTensors;
    const progress: [number, number][] = [];
    const r = await readingProbe(params, cfg, tok, { seed: 11, screens: 8, perStyle: 2, batchSize: 4, onProgress: (done, total) => progress.push([done, total]) });
    expect(tf.memory().numTensors).toBe(before);
    // Two batches of screens, then the items four at a time, counted together.
    const total = 8 + items.length;
    expect(progress.slice(0, 2)).toEqual([[4, total], [8, total]]);
    expect(progress.at(-1)).toEqual([total, total]);
    expect(progress.every(([d], i) => i === 0 || d > progress[i - 1][0])).toBe(true);
    expect(r.screens).toBe(8);
    expect(r.reading.cells).toBeGreaterThan(8 * 300);
    const { glyphs, ...cellFigures } = r.reading;
    for (const v of Object.values(cellFigures)) expect(v).toBeGreaterThanOrEqual(0);
    // The tiny preset has a glyph reader: every character the painter drew on the 8 screens is a position it is scored on.
    expect(glyphs?.positions).toBeGreaterThan(8 * 50);
    for (const v of [glyphs?.top1, glyphs?.blank]) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    expect(formatReadingProbe(r)).toMatch(/glyph reader: top-1 \d\.\d{3} over \d+ glyph positions/);
    expect(r.grounding.text?.n).toBe(2);
    for (const g of [...Object.values(r.grounding), r.overall]) {
      expect(g.accuracy).toBeGreaterThanOrEqual(0);
      expect(g.accuracy).toBeLessThanOrEqual(1);
      expect(g.chance).toBeGreaterThan(0);
      expect(g.chance).toBeLessThan(1);
      expect(g.hits).toBeLessThanOrEqual(g.n);
    }
    expect(r.overall.n).toBe(items.length);
    disposeParams(params);
  });

  it('pretrainGrounder runs its stages with the synthetic painter and leaks no tensors', async () => {
    const tok = defaultTokenizer();
    const cfg = grounderPreset('tiny');
    const params = initGrounder(new Random(4), cfg);
    const before = tf.memory().numTensors;
    const seen: string[] = [];
    const rep = await pretrainGrounder(params, cfg, tok, { seed: 3, steps: 7, paint: syntheticScreenImage, batchSize: 4, perScreen: 2, screens: 20 }, (p) => seen.push(`${p.step}:${p.stage}`));
    expect(tf.memory().numTensors).toBe(before);
    expect(seen).toEqual(['1:read', '2:read', '3:easy', '4:easy', '5:full', '6:full', '7:anneal']);
    expect(rep.stages.map((s) => s.stage)).toEqual(['read', 'easy', 'full', 'anneal']);
    expect(Number.isFinite(rep.finalLoss)).toBe(true);
    for (const s of rep.stages) expect(s.read).toBeGreaterThan(0);
    disposeParams(params);
  });
});
