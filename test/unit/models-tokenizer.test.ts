import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Random } from '../../src/learn/random';
import { defaultTokenizer, VOCAB } from '../../src/text/vocab';
import { buildVocabData, vocabCoverage } from '../../src/text/vocabBuild';
import { bucketFor, padLeft, padRight, SPECIAL, WORD_CHAR_CLASSES } from '../../src/text/tokenizer';
import { grounderExamples } from '../../src/models/grounderData';
import { plannerExamples, completionIds, parseCompletion, promptIds } from '../../src/models/plannerData';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { IMAGE_FLOATS, validCells } from '../../src/models/canvas';

const tok = defaultTokenizer();

describe('models: tokenizer and vocabulary', () => {
  it('the committed vocab.json holds every piece scripts/build-vocab.ts builds from the world now', () => {
    const built = buildVocabData();
    const { missing, kept } = vocabCoverage(VOCAB, built);
    expect(missing).toEqual([]);
    expect(VOCAB.minCount).toBe(built.minCount);
    // Pieces a world change made rare may stay (the shipped weights' ids depend on them), but only a few.
    expect(kept.length).toBeLessThanOrEqual(Math.ceil(built.pieces.length * 0.01));
    const sorted = [...VOCAB.pieces].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(VOCAB.pieces).toEqual(sorted);
    console.log(`vocabulary: ${VOCAB.pieces.length} pieces (${kept.length} kept that the world no longer needs: ${kept.map((p) => JSON.stringify(p)).join(', ')}), tokenizer size ${tok.size}`);
    expect(readFileSync(new URL('../../src/text/vocab.json', import.meta.url), 'utf8').split('\n').length).toBeGreaterThan(built.pieces.length);
  }, 60_000);

  it('round-trips goals, screen descriptions, instructions in every style, and unseen words via characters', () => {
    const texts = [
      ...grounderExamples(new Random(21), 60).map((e) => e.instruction),
      ...plannerExamples(new Random(22), 20).flatMap((e) => [e.instruction, e.parts.goal, e.parts.screen]),
      'type "Zyxwvut Qorp 42€" into the "Subject" field',
      'click the button labelled "naïve café"',
    ];
    let charTokens = 0;
    for (const t of texts) {
      const ids = tok.encode(t);
      expect(tok.decode(ids)).toBe(t);
      charTokens += ids.filter((id) => tok.isChar(id)).length;
    }
    const unseen = tok.encode('type "Zyxwvut" into the text field');
    expect(unseen.filter((id) => tok.isChar(id)).length).toBeGreaterThanOrEqual(7);
    expect(tok.encode('click the "Send" button').some((id) => tok.isChar(id))).toBe(false);
    console.log(`${texts.length} texts round-tripped; ${charTokens} character-fallback tokens`);
  });

  it('specials, buckets, padding and per-word letters', () => {
    expect(tok.tokenString(SPECIAL.eos)).toBe('<eos>');
    expect(bucketFor(17)).toBe(24);
    expect(() => bucketFor(10_000)).toThrow(/exceed/);
    expect(padRight([5, 6], 4)).toEqual([5, 6, 0, 0]);
    expect(padLeft([5, 6, 7], 2)).toEqual([6, 7]);
    const { ids, chars } = tok.encodeWithChars('click "Zork"', 8, 6);
    expect(ids[0]).toBe(SPECIAL.bos);
    expect(ids.length).toBe(8);
    // "click" spelled c,l,i,c,k in the second token's letters; every char token of "Zork" carries z,o,r,k.
    expect(Array.from(chars.subarray(6, 12))).toEqual([3, 12, 9, 3, 11, 0]);
    const zork = Array.from(ids).map((id, t) => ({ id, t })).filter(({ id }) => tok.tokenString(id) === 'Z');
    expect(zork).toHaveLength(1);
    expect(Array.from(chars.subarray(zork[0].t * 6, zork[0].t * 6 + 6))).toEqual([26, 15, 18, 11, 0, 0]);
    expect(Math.max(...chars)).toBeLessThan(WORD_CHAR_CLASSES);
  });

  it('planner prompt and CoT completion layout', () => {
    const [ex] = plannerExamples(new Random(23), 1);
    const p = promptIds(tok, ex.parts, 64);
    expect(p).toHaveLength(64);
    expect(p[p.length - 1]).toBe(SPECIAL.sep);
    const c = completionIds(tok, ex.instruction, 40, 'the goal needs a click');
    expect(c[0]).toBe(SPECIAL.think);
    expect(parseCompletion(tok, c)).toEqual({ reasoning: 'the goal needs a click', instruction: ex.instruction });
    expect(parseCompletion(tok, completionIds(tok, ex.instruction, 40))).toEqual({ instruction: ex.instruction });
  });

  it('the synthetic screen image is deterministic and stays on the screen', () => {
    const [ex] = grounderExamples(new Random(24), 1);
    const a = syntheticScreenImage(ex.screen);
    expect(a.length).toBe(IMAGE_FLOATS);
    expect(Array.from(syntheticScreenImage(ex.screen))).toEqual(Array.from(a));
    expect(validCells('web').reduce((s, v) => s + v, 0)).toBe(25 * 16);
    expect(validCells('mobile').reduce((s, v) => s + v, 0)).toBe(15 * 26);
  });
});
