/**
 * The data owner's private set for the grounder: grounding instructions on
 * the held-out sites and the held-out domain (suites.ts `cross-site` and
 * `cross-domain` web tasks: apps and a domain no grounder training draws
 * from, at test seeds), split by task into tuning tasks and test tasks. A
 * test task gives one item (its screen, an instruction for one of its
 * targeted oracle steps, the target's box); a tuning task gives
 * `perTrainTask` items (other steps or styles of the same task), since the
 * owner may use all of its own data. Splitting by task keeps every screen of
 * a test task out of tuning.
 */
import { groundingItemsFromTasks, type GroundingItem } from '../learn/evalGrounder';
import { Random } from '../learn/random';
import { grounderExamples, type GrounderExample } from '../models/grounderData';
import { buildSuites } from '../world/suites';
import type { Task } from '../world/types';

export interface GrounderPrivateSet {
  train: GroundingItem[];
  test: GroundingItem[];
  trainTasks: number;
  testTasks: number;
}

/** `tasks` per held-out split (cross-site and cross-domain), seed-deterministic. */
export function grounderPrivateSet(seed: number, tasks: number, testShare = 0.5, perTrainTask = 3): GrounderPrivateSet {
  const web = buildSuites(seed, { webPerSplit: tasks, mobile: 0, groundingPerSplit: 0 }).web;
  const tagged: { task: Task; split: string }[] = [];
  const seen = new Set<string>();
  for (const split of ['cross-site', 'cross-domain'] as const) {
    for (const task of web[split]) {
      if (seen.has(task.id)) continue;
      seen.add(task.id);
      tagged.push({ task, split });
    }
  }
  const rng = new Random(seed).fork('offsite grounder private');
  const all = rng.shuffle(tagged);
  const nTest = Math.round(testShare * all.length);
  const testTasks = all.slice(0, nTest);
  const trainTasks = all.slice(nTest);
  const items = (rng2: Random, group: typeof all, times: number) =>
    group.flatMap(({ task, split }) => Array.from({ length: times }, () => groundingItemsFromTasks(rng2, [task], undefined, split)).flat());
  return { train: items(rng.fork('train items'), trainTasks, perTrainTask), test: items(rng.fork('test items'), testTasks, 1), trainTasks: trainTasks.length, testTasks: testTasks.length };
}

/** The model owner's public data: grounding examples of training tasks (what the base grounder was trained on). */
export function grounderPublicExamples(seed: number, count: number): GrounderExample[] {
  return grounderExamples(new Random(seed).fork('offsite grounder public'), count);
}
