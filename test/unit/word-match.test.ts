/**
 * Word matching (models/wordMatch.ts, pretrain/screenTexts.ts): a text
 * quoted in an instruction and the same text on the screen get one vector,
 * every text cell is labelled with its own text, and the contrastive logits
 * never pick a text the screen does not have.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { GRID_CELLS } from '../../src/models/canvas';
import { initGrounder } from '../../src/models/grounder';
import { disposeParams } from '../../src/models/params';
import { grounderPreset } from '../../src/models/presets';
import { MASKED } from '../../src/models/layers';
import { readWords, screenTextLogits, textVector, tokenWordVectors } from '../../src/models/wordMatch';
import { Random } from '../../src/learn/random';
import { instructionLabels, trainingScreens, writeExample } from '../../src/pretrain/grounderScreens';
import { MAX_SCREEN_TEXTS, screenTexts } from '../../src/pretrain/screenTexts';
import { defaultTokenizer } from '../../src/text/vocab';
import { parseInstruction } from '../../src/text/grammar';
import { cellLabels, shownText } from '../../src/world/cellLabels';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg = grounderPreset('tiny', tok.size);
const [T, L] = [cfg.maxTokens, cfg.charLength];
const fold = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

describe('screen texts', () => {
  it('label every text cell with its own text, each distinct text once', () => {
    let cells = 0;
    for (const ps of trainingScreens(new Random(5), 10)) {
      const lab = cellLabels(ps.screen);
      const st = screenTexts(ps.screen, lab, tok, T, L);
      const seen = new Map<number, string>();
      for (let c = 0; c < GRID_CELLS; c++) {
        const k = st.cellText[c];
        if (!lab.valid[c] || lab.element[c] < 0 || !lab.hasText[c]) {
          expect(k).toBe(0);
          continue;
        }
        const text = fold(shownText(ps.screen.elements[lab.element[c]]) ?? '');
        if (k === -1) continue;
        expect(k).toBeGreaterThan(0);
        expect(st.present[k - 1]).toBe(1);
        // One index per text, one text per index.
        if (seen.has(k)) expect(seen.get(k)).toBe(text);
        else seen.set(k, text);
        cells++;
      }
      expect(new Set(seen.values()).size).toBe(seen.size);
      expect(st.count).toBeGreaterThanOrEqual(seen.size);
      for (let k = Math.min(st.count, MAX_SCREEN_TEXTS); k < MAX_SCREEN_TEXTS; k++) expect(st.present[k]).toBe(0);
    }
    expect(cells).toBeGreaterThan(200);
  });

  it('a text quoted in an instruction and the same text on the screen get one vector', () => {
    const params = initGrounder(new Random(1), cfg);
    const rng = new Random(8);
    let compared = 0;
    try {
      for (const ps of trainingScreens(new Random(6), 30)) {
        for (const target of ps.targets) {
          const e = writeExample(rng, ps, target, ['text']);
          const ref = e && parseInstruction(e.instruction)?.ref;
          if (!e || !ref || ref.style !== 'text') continue;
          const shown = shownText(target.element);
          if (!shown || fold(shown) !== fold(ref.text)) continue;
          const lab = cellLabels(ps.screen);
          const st = screenTexts(ps.screen, lab, tok, T, L);
          const cell = Array.from(st.cellText).findIndex((k, c) => k > 0 && ps.screen.elements[lab.element[c]]?.id === target.element.id);
          if (cell < 0) continue;
          const k = st.cellText[cell] - 1;
          const enc = tok.encodeWithChars(e.instruction, T, L);
          const content = instructionLabels(tok, e, T).content.filter((_, i) => i % 2 === 0);
          const [fromInstruction, fromScreen] = tf.tidy(() => [
            textVector(tokenWordVectors(params, tf.tensor3d(enc.chars, [1, T, L], 'int32')), tf.tensor2d(content, [1, T])).dataSync(),
            textVector(
              tokenWordVectors(params, tf.tensor3d(st.chars.slice(k * T * L, (k + 1) * T * L), [1, T, L], 'int32')),
              tf.tensor2d(st.weights.slice(k * T, (k + 1) * T), [1, T]),
            ).dataSync(),
          ]);
          for (let i = 0; i < fromScreen.length; i++) expect(fromInstruction[i]).toBeCloseTo(fromScreen[i], 5);
          compared++;
          if (compared >= 5) return;
        }
      }
    } finally {
      disposeParams(params);
      expect(compared).toBeGreaterThanOrEqual(5);
    }
  });

  it('contrastive logits: "no text" first, texts the screen lacks masked', () => {
    const params = initGrounder(new Random(2), cfg);
    try {
      const ps = trainingScreens(new Random(7), 1)[0];
      const st = screenTexts(ps.screen, cellLabels(ps.screen), tok, T, L);
      const m = MAX_SCREEN_TEXTS;
      const logits = tf.tidy(() => {
        const words = readWords(params, tf.randomNormal([1, GRID_CELLS, cfg.dim], 0, 1, 'float32', 3));
        return screenTextLogits(params, words, tf.tensor3d(st.chars, [m, T, L], 'int32'), tf.tensor2d(st.weights, [m, T]), tf.tensor2d(st.present, [1, m]));
      });
      expect(logits.shape).toEqual([1, GRID_CELLS, m + 1]);
      const v = logits.dataSync();
      logits.dispose();
      const texts = Math.min(st.count, m);
      expect(texts).toBeGreaterThan(1);
      for (let c = 0; c < GRID_CELLS; c++) {
        for (let k = 0; k <= texts; k++) expect(Math.abs(v[c * (m + 1) + k])).toBeLessThanOrEqual(10 + 1e-3); // WORD_SCALE · cosine
        for (let k = texts + 1; k <= m; k++) expect(v[c * (m + 1) + k]).toBeLessThan(MASKED / 2);
      }
    } finally {
      disposeParams(params);
    }
  });
});
