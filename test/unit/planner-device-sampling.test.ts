/**
 * Sampling on the device (plannerDecode.ts `deviceBlock`): the device
 * proposes each token and feeds it back, the host reads a round back once
 * and keeps each row's tokens up to its first correction. The host's
 * sampler decides every token, so the outcome must equal one read-back per
 * token for the same draws: tokens, log-probs and allowed sets, greedy and
 * sampled, with the grammar constraint and the copy gate, rows ending at
 * different lengths, at every block length; and with the shipped planner
 * the rounds must read back fewer times than the steps did.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import { shippedTinyPlanner } from './shipped-planner';
import { decodeStates, type DecodedState, type DecodeTally } from '../../src/learn/evalPlanner';
import { plannerDecode } from '../../src/models/plannerDecode';
import { initPlanner, type PlannerConfig } from '../../src/models/planner';
import { disposeParams, type Params } from '../../src/models/params';
import { plannerPreset } from '../../src/models/presets';
import { plannerSplitStates } from '../../src/pretrain/plannerSplits';
import type { PlannerState } from '../../src/learn/plannerStates';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { parseBenchArgs, UsageError } from '../../scripts/lib/bench-args';

const tok = defaultTokenizer();
let shipped: { params: Params; cfg: PlannerConfig };
let states: PlannerState[];

beforeAll(async () => {
  shipped = await shippedTinyPlanner();
  // Six states of the training templates: two chunks of 12 rows (groups of 4), the second padded.
  states = plannerSplitStates(3, 12)['training templates'].slice(0, 6);
});

async function decode(params: Params, cfg: PlannerConfig, o: { temperature: number; constrained: boolean; deviceBlock: number }): Promise<{ out: DecodedState[]; tally: DecodeTally }> {
  const tally: DecodeTally = { batches: 0, readBacks: 0, corrections: { constraint: 0, other: 0 } };
  const out = await decodeStates(params, cfg, tok, states, { temperature: o.temperature, rng: new Random(11), repeat: 4, batchSize: 12, constrained: o.constrained, deviceBlock: o.deviceBlock, tally });
  return { out, tally };
}

function expectSame(a: DecodedState[], b: DecodedState[]): void {
  expect(a.map((d) => d.tokens)).toEqual(b.map((d) => d.tokens));
  expect(a.map((d) => d.logProbs)).toEqual(b.map((d) => d.logProbs));
  expect(a.map((d) => d.allowed?.map((m) => Array.from(m).join('')))).toEqual(b.map((d) => d.allowed?.map((m) => Array.from(m).join(''))));
}

describe('planner sampling on the device', () => {
  it.each([
    ['sampled, constrained', 0.9, true],
    ['sampled, unconstrained', 0.9, false],
    ['greedy, constrained', 0, true],
  ])('gives the tokens one read-back per token gives (%s), in fewer read-backs, and leaks no tensor', async (_, temperature, constrained) => {
    const { params, cfg } = shipped;
    expect(cfg.copyGate).toBe(true);
    const host = await decode(params, cfg, { temperature, constrained, deviceBlock: 0 });
    const lengths = host.out.map((d) => d.tokens.length);
    // Rows that end at different lengths, so a round settles rows at different places.
    expect(new Set(lengths).size).toBeGreaterThan(1);
    for (const block of [1, 3, cfg.completionLength]) {
      const before = tf.memory().numTensors;
      const device = await decode(params, cfg, { temperature, constrained, deviceBlock: block });
      expect(tf.memory().numTensors).toBe(before);
      expectSame(device.out, host.out);
      expect(device.tally.batches).toBe(host.tally.batches);
      console.log(`${temperature > 0 ? 'sampled' : 'greedy'}, constraint ${constrained ? 'on' : 'off'}, block ${block}: ${device.tally.readBacks} read-backs for ${device.tally.batches} batches (one per token: ${host.tally.readBacks})`);
      if (block === cfg.completionLength) expect(device.tally.readBacks).toBeLessThan(host.tally.readBacks / 2);
      // Without a constraint only the copy bonus (or rounding) can overrule the device; one read-back per token overrules nothing.
      if (!constrained) expect(device.tally.corrections?.constraint).toBe(0);
      expect(host.tally.corrections).toEqual({ constraint: 0, other: 0 });
    }
  }, 300_000);

  it('gives the same tokens with an untrained planner, which the device proposes wrongly at most steps', async () => {
    const cfg: PlannerConfig = { ...plannerPreset('tiny'), completionLength: 12, copyGate: true };
    const params = initPlanner(new Random(5), cfg);
    try {
      const host = await decode(params, cfg, { temperature: 1, constrained: true, deviceBlock: 0 });
      const device = await decode(params, cfg, { temperature: 1, constrained: true, deviceBlock: 5 });
      expectSame(device.out, host.out);
    } finally {
      disposeParams(params);
    }
  }, 300_000);

  it('refuses a block that is not a whole number ≥ 0', async () => {
    const prompt = tf.zeros([1, 8], 'int32') as tf.Tensor2D;
    await expect(plannerDecode(shipped.params, shipped.cfg, prompt, { temperature: 0, deviceBlock: -1 })).rejects.toThrow(/deviceBlock/);
    await expect(plannerDecode(shipped.params, shipped.cfg, prompt, { temperature: 0, deviceBlock: 1.5 })).rejects.toThrow(/deviceBlock/);
    prompt.dispose();
  });
});

describe('bench --device-sampling', () => {
  it('is a switch, off by default, and refused with --anchor (whose mirror decodes a token a step)', () => {
    const on = parseBenchArgs(['--device-sampling', '--iterations', '0']);
    const off = parseBenchArgs(['--iterations', '0']);
    if (on.help || off.help) throw new Error('help');
    expect(on.args.options.deviceSampling).toBe(true);
    expect(on.args.options.iterations).toBe(0);
    expect(off.args.options.deviceSampling).toBe(false);
    expect(() => parseBenchArgs(['--anchor', '--device-sampling'])).toThrow(UsageError);
  });
});
