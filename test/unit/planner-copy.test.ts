/**
 * The planner's copy gate (planner.ts copyGate, text/copyMarks.ts):
 * - the marks: after a completion's tokens so far, exactly the tokens that
 *   go on spelling a goal-named text inside a quote (or open one), none in
 *   a `<think>` trace, after eos, or inside a quote that names something else;
 * - goalNamedTexts takes the description's quoted texts the goal holds whole,
 *   copyTargets leaves out those an earlier step clicked or chose;
 * - decoding adds the gate's bonus where training adds it: the log-probs of
 *   constrained samples at T = 0.9 equal, to 1e-5, what GRPO's two training
 *   passes recompute from the sampled tokens (allowedMask plus the copy
 *   marks), and differ from the log-probs without the marks; with the
 *   tensor ops, then with the app's WASM kernels (decoding attention and
 *   picked log-probs as one kernel each);
 * - SFT's gradient reaches the gate's weights.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { SPECIAL } from '../../src/text/tokenizer';
import { defaultTokenizer } from '../../src/text/vocab';
import { copyIndices, copyTokens } from '../../src/text/copyMarks';
import { actedOnTexts, goalNamedTexts } from '../../src/text/goalMarks';
import { decodeStates } from '../../src/learn/evalPlanner';
import { plannerPrompts, plannerSftBatch, trainingPlannerStates } from '../../src/learn/plannerStates';
import { plannerSftLoss } from '../../src/learn/plannerSft';
import { copyTensor, initPlanner, plannerLogProbs, type PlannerConfig } from '../../src/models/planner';
import { allowedMask } from '../../src/models/plannerDecode';
import { plannerGroupLogProbs } from '../../src/models/plannerGroups';
import { copyTargets, plannerTensors } from '../../src/models/plannerData';
import { disposeParams } from '../../src/models/params';
import { DECODE_ATTENTION, PICKED_LOG_PROB } from '../../src/models/kernelNames';
import { registerWasmKernels } from '../../workers/wasmKernels';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const tok = defaultTokenizer();
const C = 48;

/** Every token whose characters are a non-empty prefix of `rest`, from a scan of the whole vocabulary. */
function prefixTokens(rest: string): number[] {
  const out: number[] = [];
  for (let id = tok.charBase; id < tok.size; id++) {
    const s = tok.tokenString(id);
    if (s.length > 0 && rest.startsWith(s)) out.push(id);
  }
  return out;
}

describe('copy marks', () => {
  const targets = ['Recipes', 'Book club'];
  it('inside a quote: the tokens that go on spelling a target, up to its closing quote', () => {
    expect(copyTokens(tok, targets, tok.encode('click the "'))).toEqual([...new Set([...prefixTokens('Recipes"'), ...prefixTokens('Book club"')])].sort((a, b) => a - b));
    expect(copyTokens(tok, targets, tok.encode('click the "Rec'))).toEqual(prefixTokens('ipes"'));
    expect(copyTokens(tok, targets, tok.encode('click the "Recipes'))).toEqual(prefixTokens('"'));
    expect(copyTokens(tok, targets, tok.encode('click the "Save'))).toEqual([]);
  });

  it('outside a quote only tokens that open one and spell a target; nothing in a trace, after eos, or without targets', () => {
    const opening = copyTokens(tok, targets, tok.encode('click the '));
    const scan = [...new Set([...prefixTokens('"Recipes"'), ...prefixTokens('"Book club"')])].filter((id) => tok.tokenString(id).length >= 2);
    expect(opening).toEqual(scan.sort((a, b) => a - b));
    expect(copyTokens(tok, targets, tok.encode('click the "Recipes" '))).toEqual(opening);
    expect(copyTokens(tok, targets, [SPECIAL.think, ...tok.encode('the "')])).toEqual([]);
    expect(copyTokens(tok, targets, [SPECIAL.think, ...tok.encode('x'), SPECIAL.endThink, ...tok.encode('click the "')]).length).toBeGreaterThan(0);
    expect(copyTokens(tok, targets, [...tok.encode('click the "Recipes"'), SPECIAL.eos])).toEqual([]);
    expect(copyTokens(tok, [], tok.encode('click the "'))).toEqual([]);
  });

  it('teacher-forced marks: position t is copyTokens of the first t tokens', () => {
    const row = [...tok.encode('click the "Recipes" link'), SPECIAL.eos];
    const completion = Int32Array.from({ length: C }, (_, t) => row[t] ?? SPECIAL.pad);
    const flat = copyIndices(tok, [targets], completion, C);
    const v = tok.size;
    for (let t = 0; t < row.length; t++) {
      const at = [...flat].filter((i) => Math.floor(i / v) === t).map((i) => i % v);
      expect(at).toEqual(copyTokens(tok, targets, row.slice(0, t)));
    }
    expect([...flat].every((i) => Math.floor(i / v) < row.length)).toBe(true);
  });

  it('goalNamedTexts: the quoted texts the goal holds whole', () => {
    const screen = 'link "Recipes"\nbutton "Add folder"\nlist item "Book club" "Sat 4 pm"';
    expect(goalNamedTexts('Open the Recipes folder', screen)).toEqual(['Recipes']);
    expect(goalNamedTexts('Colour the Book club event orange', screen)).toEqual(['Book club']);
    expect(goalNamedTexts('Add a folder', screen)).toEqual([]);
  });

  it('copyTargets: a goal-named text an earlier step clicked or chose is no longer marked; one it typed still is', () => {
    const screen = 'link "Clients"\nlink "Work"\nsearch box "Search files" value="poster-full.zip"\ndropdown "Sort" value="Size" options "Name" "Size"';
    const goal = 'Add the file "poster-full.zip" to the Clients folder, sorted by Size';
    const targets = (history: string[]) => copyTargets({ goal, screen, history }).sort();
    expect(targets([])).toEqual(['Clients', 'Size', 'poster-full.zip']);
    expect(targets(['click the "Clients" link'])).toEqual(['Size', 'poster-full.zip']);
    expect(targets(['select "Size" in the "Sort" dropdown'])).toEqual(['Clients', 'poster-full.zip']);
    expect(targets(['type "poster-full.zip" into the "Search files" search box', 'scroll down', 'open the Files app'])).toEqual(['Clients', 'Size', 'poster-full.zip']);
    expect(actedOnTexts(['click the "Clients" link', 'click the upload icon button', 'select "Size" in the "Sort" dropdown', 'not an instruction "Work"'])).toEqual(new Set(['Clients', 'Sort', 'Size']));
  });
});

describe('a planner with a copy gate', () => {
  const cfg: PlannerConfig = { model: 'planner', vocabSize: tok.size, promptLength: 512, completionLength: C, dim: 16, heads: 2, layers: 1, goalMarks: true, copyGate: true };
  const states = trainingPlannerStates(new Random(4), 300).filter((s) => copyTargets(s.parts).length > 0);

  it.each([
    ['the tensor ops', false],
    ['the WASM kernels', true],
  ])('samples with the bonus GRPO training recomputes, per row and per group, with %s', async (_, kernels) => {
    // Registered once for the rest of the file: the tensor-ops case runs first.
    if (kernels) registerWasmKernels();
    expect([DECODE_ATTENTION, PICKED_LOG_PROB].map((k) => Boolean(tf.getKernel(k, 'wasm')))).toEqual([kernels, kernels]);
    const params = initPlanner(new Random(5), cfg);
    // A gate that varies with the hidden state, and a large one, so that a missing or misplaced bonus shows.
    params['copy.w'].assign(tf.mul(tf.randomNormal([cfg.dim, 1], 0, 1, 'float32', 3), 2));
    params['copy.b'].assign(tf.tensor1d([2]));
    const batch = states.slice(0, 12);
    try {
      const decoded = await decodeStates(params, cfg, tok, batch, { temperature: 0.9, rng: new Random(11), repeat: 2, batchSize: 24, constrained: true });
      const n = decoded.length;
      const { ids, length: pl } = plannerPrompts(tok, cfg, batch);
      const prompt = new Int32Array(n * pl);
      const completion = new Int32Array(n * C).fill(SPECIAL.pad);
      decoded.forEach((d, i) => {
        const s = Math.floor(i / 2);
        prompt.set(ids.subarray(s * pl, (s + 1) * pl), i * pl);
        completion.set(d.tokens, i * C);
      });
      const marks = copyIndices(tok, decoded.map((_, i) => copyTargets(batch[Math.floor(i / 2)].parts)), completion, C);
      const [lp, grouped, plain] = tf.tidy(() => {
        const comp = tf.tensor2d(completion, [n, C], 'int32');
        const allowed = allowedMask(decoded.map((d) => d.allowed ?? null), cfg);
        const copy = copyTensor(marks, n, C, cfg.vocabSize);
        const promptT = tf.tensor2d(prompt, [n, pl], 'int32');
        return [
          plannerLogProbs(params, cfg, promptT, comp, allowed, copy),
          plannerGroupLogProbs(params, cfg, tf.tensor2d(ids, [batch.length, pl], 'int32'), comp, 2, allowed, copy),
          plannerLogProbs(params, cfg, promptT, comp, allowed),
        ];
      });
      const [lpv, gv, pv] = [await lp.data(), await grouped.data(), await plain.data()];
      tf.dispose([lp, grouped, plain]);
      let worst = 0;
      let moved = 0;
      decoded.forEach((d, i) =>
        d.logProbs.forEach((v, t) => {
          worst = Math.max(worst, Math.abs(v - lpv[i * C + t]), Math.abs(v - gv[i * C + t]));
          if (Math.abs(v - pv[i * C + t]) > 1e-3) moved++;
        }),
      );
      console.log(`copy marks in the samples: ${marks.length}; log-probs the bonus moved: ${moved}; largest difference from training ${worst.toExponential(2)}`);
      expect(marks.length).toBeGreaterThan(n);
      expect(moved).toBeGreaterThan(n);
      expect(worst).toBeLessThan(1e-5);
    } finally {
      disposeParams(params);
    }
  }, 120_000);

  it("SFT's gradient reaches the gate", () => {
    const params = initPlanner(new Random(6), cfg);
    try {
      const batch = plannerSftBatch(tok, cfg, states.slice(0, 8));
      expect(batch.copy?.length ?? 0).toBeGreaterThan(0);
      const { prompt, completion, copy } = plannerTensors(batch, cfg);
      const { value, grads } = tf.variableGrads(() => plannerSftLoss(params, cfg, prompt, completion, copy), [params['copy.w'], params['copy.b']]);
      const size = (t: tf.Tensor) => Math.max(...Array.from(t.dataSync(), Math.abs));
      expect(size(grads[params['copy.w'].name])).toBeGreaterThan(0);
      expect(size(grads[params['copy.b'].name])).toBeGreaterThan(0);
      tf.dispose([value, prompt, completion, ...(copy ? [copy] : []), ...Object.values(grads)]);
    } finally {
      disposeParams(params);
    }
  });
});
