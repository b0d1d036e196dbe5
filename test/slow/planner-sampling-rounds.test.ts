/**
 * How many read-backs sampling on the device saves (docs/sampling.md): the
 * shipped tiny planner decodes 64 states of three splits in groups of 4
 * (T = 0.9, 8 rows a batch), one read-back per token and in rounds of up to
 * 48, with the constraint on and off. Each pair gives the same tokens; the
 * table it prints is the doc's. A few minutes on a 2-core CPU, so it lives
 * in test/slow: COEVO_SLOW=1 npx vitest run test/slow/planner-sampling-rounds.test.ts
 */
import { expect, it } from 'vitest';
import { shippedTinyPlanner } from '../unit/shipped-planner';
import { decodeStates, type DecodeTally } from '../../src/learn/evalPlanner';
import { plannerSplitStates, type PlannerSplit } from '../../src/pretrain/plannerSplits';
import { defaultTokenizer } from '../../src/text/vocab';
import { Random } from '../../src/learn/random';

it('reads back fewer times in rounds on every split, with the same tokens', async () => {
  const { params, cfg } = await shippedTinyPlanner();
  const tok = defaultTokenizer();
  const splits = plannerSplitStates(2, 64);
  const lines = ['| split | constraint | one per token | rounds (block 48) | decode time, rounds ÷ one per token | corrections: by the constraint, other |', '|---|---|---|---|---|---|'];
  for (const constrained of [true, false]) {
    for (const split of ['training templates', 'held-out mixed', 'cross-site'] as PlannerSplit[]) {
      const run = async (deviceBlock: number) => {
        const tally: DecodeTally = { batches: 0, readBacks: 0, corrections: { constraint: 0, other: 0 } };
        const t0 = performance.now();
        const out = await decodeStates(params, cfg, tok, splits[split].slice(0, 32), { temperature: 0.9, rng: new Random(5), repeat: 4, batchSize: 8, constrained, deviceBlock, tally });
        return { out, tally, ms: performance.now() - t0 };
      };
      const host = await run(0);
      const device = await run(cfg.completionLength);
      expect(device.out.map((d) => d.tokens)).toEqual(host.out.map((d) => d.tokens));
      expect(device.tally.readBacks).toBeLessThan(host.tally.readBacks);
      const per = (t: DecodeTally) => (t.readBacks / t.batches).toFixed(1);
      lines.push(`| ${split} | ${constrained ? 'on' : 'off'} | ${per(host.tally)} | ${per(device.tally)} | ${(device.ms / host.ms).toFixed(1)}× | ${device.tally.corrections?.constraint}, ${device.tally.corrections?.other} |`);
    }
  }
  console.log(lines.join('\n'));
}, 1_800_000);
