/**
 * Planner pretraining, small and quick: the corpus says every step in many
 * referring styles and each written instruction parses; the span log-probs
 * agree with the completion log-probs SFT uses and skip padding; a few
 * pretraining steps are deterministic from the seed, lower the loss and leak
 * no tensor; held-out states are never training states; the parse rate is a
 * fraction over the states given.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { parseInstruction } from '../../src/text/grammar';
import { SPECIAL } from '../../src/text/tokenizer';
import { defaultTokenizer } from '../../src/text/vocab';
import { initPlanner, plannerLogProbs, plannerSpanLogProbs, type PlannerConfig } from '../../src/models/planner';
import { disposeParams } from '../../src/models/params';
import { isTrainingTask } from '../../src/world/suites';
import { verifyInstruction } from '../../src/world/verifier';
import { plannerPretrainBatch, plannerStateStream, writtenInstruction } from '../../src/pretrain/plannerCorpus';
import type { PlannerState } from '../../src/learn/plannerStates';
import { heldOutPlannerStates, plannerParseRate, pretrainPlanner, PROMPT_WINDOW } from '../../src/pretrain/planner';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const cfg: PlannerConfig = { model: 'planner', vocabSize: tok.size, promptLength: 64, completionLength: 16, dim: 16, heads: 2, layers: 1 };

describe('planner pretraining corpus', () => {
  it('writes the true step in many styles, every one parsing and (with a target) naming the target', () => {
    const next = plannerStateStream(new Random(1));
    const rng = new Random(2);
    const styles = new Set<string>();
    let canonical = 0;
    for (let i = 0; i < 80; i++) {
      const s = next();
      const text = writtenInstruction(s, rng);
      const parsed = parseInstruction(text);
      expect(parsed, text).not.toBeNull();
      expect(parsed?.action).toBe(s.step.type);
      if (s.step.targetId !== undefined && parsed) expect(verifyInstruction(s.screen, parsed, s.step.targetId), text).toBe(true);
      if (parsed?.ref) styles.add(parsed.ref.style);
      if (text === s.instruction) canonical++;
    }
    expect(styles.size).toBeGreaterThanOrEqual(4);
    expect(canonical).toBeGreaterThan(5);
    expect(canonical).toBeLessThan(70);
  });

  it('selectCopies serves each SELECT state that many times, and every other state once', () => {
    const draw = (copies: number) => Array.from({ length: 1500 }, plannerStateStream(new Random(8), undefined, copies));
    const share = (states: readonly PlannerState[]) => states.filter((s) => s.step.type === 'SELECT').length / states.length;
    const once = draw(1);
    const thrice = draw(3);
    expect(share(once)).toBeGreaterThan(0.03);
    // p copies of a share q: 3q / (1 + 2q), near 0.18 for q = 0.07.
    const q = share(once);
    expect(share(thrice)).toBeGreaterThan((3 * q) / (1 + 2 * q) - 0.05);
    const seen = new Map<PlannerState, number>();
    for (const s of thrice) seen.set(s, (seen.get(s) ?? 0) + 1);
    for (const [s, n] of seen) expect(n, s.instruction).toBeLessThanOrEqual(s.step.type === 'SELECT' ? 3 : 1);
  });

  it('batches are in the planner layout: left-padded prompt ending in sep, completion ending in eos', () => {
    const next = plannerStateStream(new Random(3));
    const b = plannerPretrainBatch(tok, cfg, Array.from({ length: 4 }, next), new Random(4));
    for (let i = 0; i < 4; i++) {
      expect(b.prompt[(i + 1) * cfg.promptLength - 1]).toBe(SPECIAL.sep);
      const comp = Array.from(b.completion.subarray(i * cfg.completionLength, (i + 1) * cfg.completionLength));
      expect(comp).toContain(SPECIAL.eos);
    }
  });
});

describe('planner pretraining', () => {
  it('span log-probs match plannerLogProbs on the completion and skip padding', () => {
    const params = initPlanner(new Random(5), cfg);
    const next = plannerStateStream(new Random(6));
    const b = plannerPretrainBatch(tok, cfg, Array.from({ length: 3 }, next), new Random(7));
    tf.tidy(() => {
      const prompt = tf.tensor2d(b.prompt, [3, cfg.promptLength], 'int32');
      const completion = tf.tensor2d(b.completion, [3, cfg.completionLength], 'int32');
      const seq = tf.concat([prompt, completion], 1) as tf.Tensor2D;
      const [comp, win] = plannerSpanLogProbs(params, cfg, seq, [
        { start: cfg.promptLength - 1, length: cfg.completionLength },
        { start: 0, length: PROMPT_WINDOW },
      ]);
      const ref = plannerLogProbs(params, cfg, prompt, completion);
      const diff = tf.max(tf.abs(tf.sub(tf.mul(comp.logProbs, comp.mask), tf.mul(ref, comp.mask)))).dataSync()[0];
      expect(diff).toBeLessThan(1e-5);
      // Mask: completion tokens up to eos; the window's predictions only where input and target are real.
      const seqIds = seq.arraySync();
      const m = win.mask.arraySync();
      for (let r = 0; r < 3; r++) for (let t = 0; t < PROMPT_WINDOW; t++) expect(m[r][t]).toBe(seqIds[r][t] !== SPECIAL.pad && seqIds[r][t + 1] !== SPECIAL.pad ? 1 : 0);
    });
    expect(() => plannerSpanLogProbs(params, cfg, tf.zeros([1, 10], 'int32') as tf.Tensor2D, [{ start: 5, length: 5 }])).toThrow(/does not fit/);
    disposeParams(params);
  });

  it('is deterministic from its seed, lowers the loss and leaks no tensor', async () => {
    const run = async () => {
      const params = initPlanner(new Random(8), cfg);
      const before = tf.memory().numTensors;
      const progress: number[] = [];
      const rep = await pretrainPlanner(params, cfg, tok, { seed: 9, steps: 20, batchSize: 4, lr: 1e-2 }, (p) => progress.push(p.step));
      const after = tf.memory().numTensors;
      disposeParams(params);
      return { rep, progress, leaked: after - before };
    };
    const a = await run();
    const b = await run();
    console.log(`pretraining 20 small steps: loss ${a.rep.firstLoss.toFixed(3)} → ${a.rep.lastLoss.toFixed(3)}`);
    expect(a.rep.losses).toEqual(b.rep.losses);
    expect(a.progress).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(a.leaked).toBe(0);
    expect(a.rep.lastLoss).toBeLessThan(a.rep.firstLoss - 1);
  });

  it('held-out states are not training states; the parse rate is a fraction over them', async () => {
    const held = heldOutPlannerStates(1, 24);
    expect(held.length).toBe(24);
    for (const s of held) expect(isTrainingTask(s.task)).toBe(false);
    expect(new Set(held.map((s) => s.task.id)).size).toBeGreaterThan(8);
    const params = initPlanner(new Random(10), cfg);
    const rate = await plannerParseRate(params, cfg, tok, held.slice(0, 8), { batchSize: 8 });
    expect(rate).toBeGreaterThanOrEqual(0);
    expect(rate).toBeLessThanOrEqual(1);
    expect(Math.round(rate * 8)).toBeCloseTo(rate * 8, 6);
    disposeParams(params);
  });
});
