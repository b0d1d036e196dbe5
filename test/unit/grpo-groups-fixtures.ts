/**
 * GRPO groups as the planner-grpo phase records them, built from real world
 * states and the real plan reward (verifier grounder plus a fixed-point
 * stand-in for a neural one), without any model.
 */
import { groupRecordsOfStep, type GroupRecord, type PoolMember } from '../../src/coevo/groupRecords';
import { groupAdvantages } from '../../src/learn/grpo';
import type { PlannerGrpoSample, PlannerGrpoStep } from '../../src/learn/plannerGrpo';
import { verifierGrounder } from '../../src/learn/plannerGrounderPool';
import { trainingPlannerStates, planTruth, type PlannerState } from '../../src/learn/plannerStates';
import { Random } from '../../src/learn/random';
import { planReward, type Grounding } from '../../src/learn/rewards';
import { parseInstruction } from '../../src/text/grammar';

export const G = 3;
export const POOL: PoolMember[] = [
  { name: 'verifier', prior: 1 },
  { name: 'grounder@0', prior: 2 },
];

/** Training states whose step has a target box, as planner GRPO uses them. */
export function targetedStates(count: number, seed = 5): PlannerState[] {
  return trainingPlannerStates(new Random(seed), 4 * count)
    .filter((s) => s.step.box !== undefined)
    .slice(0, count);
}

/**
 * One GRPO step over `states`: each group samples the true instruction, a
 * line that does not parse, and the true instruction again (informative
 * whenever the verifier resolves the true instruction); with `tieOdd`, odd
 * groups sample three unparsable lines instead (all rewards 0: uninformative).
 */
export async function fakeStep(states: readonly PlannerState[], tieOdd = false): Promise<PlannerGrpoStep> {
  const verifier = verifierGrounder({ prior: 1 });
  const texts = states.flatMap((s, i) => (tieOdd && i % 2 === 1 ? ['blah blah', 'zzz', 'qq'] : [s.instruction, 'blah blah', s.instruction]));
  const samples: PlannerGrpoSample[] = [];
  const rewards: number[] = [];
  for (let n = 0; n < texts.length; n++) {
    const state = states[Math.floor(n / G)];
    let groundings: Grounding[] = [];
    if (parseInstruction(texts[n])) {
      const [v] = await verifier.ground([{ screen: state.screen, instruction: texts[n] }]);
      // The stand-in neural grounder always looks at the top-left corner: a miss, with a low confidence.
      groundings = [
        { point: v.point, confidence: v.confidence, prior: 1 },
        { point: { x: 2, y: 3 }, confidence: 0.25, prior: 2 },
      ];
    }
    const reward = planReward(texts[n], planTruth(state), groundings);
    rewards.push(reward.total);
    samples.push({ stateIndex: Math.floor(n / G), truth: state.instruction, instruction: texts[n], reward, groundings, advantage: 0 });
  }
  const adv = groupAdvantages(rewards, G);
  samples.forEach((s, i) => (s.advantage = adv.advantages[i]));
  return { loss: 0.5, meanReward: rewards.reduce((a, b) => a + b, 0) / rewards.length, informativeGroups: adv.informative, groups: adv.groups, kl: 0, clipFraction: 0, samples, sizes: { promptLength: 64, decodeSteps: 8, grounded: samples.length }, decode: { batches: 1, readBacks: 8 } };
}

/** Recorded groups of one batch of a run's planner GRPO at iteration k. */
export async function groupsOf(runId: string, iteration: number, batch: number, states: readonly PlannerState[], count = 2, tieOdd = false): Promise<GroupRecord[]> {
  const step = await fakeStep(states, tieOdd);
  return groupRecordsOfStep(states, step, { runId, iteration, batch, pool: POOL, weighting: 'prior-confidence', groupSize: G, count });
}
