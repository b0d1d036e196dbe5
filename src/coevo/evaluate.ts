/**
 * The evaluation phase: a planner + grounder pair measured on every suite of
 * METHOD.md §6, plus online task success (evaluateOnline.ts). Metric keys are
 * `suite/split/metric`, values fractions in [0, 1]; a key whose denominator
 * would be empty (no such steps in the suite) is left out rather than
 * reported as a made-up 0 or 1.
 *
 * Scoring is pure functions of (instruction text, point, truth); models run
 * behind the batch `Agent` interface, so the definitions below are testable
 * with stub agents and exact inputs.
 *
 * Definitions:
 * - A point counts only when the instruction parses and its action needs a
 *   point (CLICK/TYPE/SELECT): that is when the agent would act there.
 * - A value (typed text, option, scroll direction, app name) is right when
 *   its token F1 with the true value is > 0.5, as in the plan reward (C-DREM).
 * - web (Multimodal-Mind2Web), planner given goal + screen + the true
 *   previous steps:
 *   element_accuracy over steps with a target element: the grounder's point
 *   for the planner's instruction lies inside the true box (edges included);
 *   operation_f1 over steps whose true op is CLICK/TYPE/SELECT (Mind2Web's
 *   ops): token F1 of "OP value" predicted vs true ("CLICK", "TYPE lunch");
 *   step_success: element right (steps with a target) and operation right
 *   (same type, value right where the step has one); SCROLL/BACK steps, which
 *   Mind2Web lacks, count here by type and value only;
 *   task_success: every step of the task succeeds.
 * - mobile (AndroidControl), over every step of each task: `high`, the
 *   planner writes the step instruction from goal + screen + true history;
 *   `low`, the true step instruction is given and grounded, so the action
 *   type and value come from it (type_accuracy is 1 by construction).
 *   type_accuracy: action type right; grounding_accuracy over steps with a
 *   target: tapMatches (below); step_accuracy: type, target (where there is
 *   one) and value all right.
 * - grounding (ScreenSpot): the point for the query's instruction lies inside
 *   the true box (the same greedy point and test as learn/evalGrounder).
 * - online: share of episodes whose goal predicate holds (evaluateOnline.ts).
 * - planner, per web split and mobile: the planner's text alone on the same
 *   states and greedy instructions (exact, type_accuracy, value_f1), its
 *   sampled instructions (parse_sampled) and its cut prompts (prompts_cut);
 *   definitions in plannerFigures.ts.
 * - styles and reading (the reading probe, learn/readingProbe.ts; only
 *   with a probe set): grounding accuracy of the probe's instructions by
 *   referring style (text, icon, position, relation, colour, function) on
 *   held-out screens of held-out sites, and, from agents that can read
 *   (`Agent.read`), per-cell role accuracy, the F1 of the letters read on
 *   text cells, and the glyph reader's top-1.
 */
import { plannerDecode } from '../models/plannerDecode';
import { copyTargets, promptCut, promptMatrix, parseCompletion, type PlannerPromptParts } from '../models/plannerData';
import { rowCopy } from '../text/copyMarks';
import * as tf from '../models/tf';
import { groundingItems } from '../learn/evalGrounder';
import { probeReading, styleFigures, type ProbeSet, type ReadingFigures, type StyleFigures } from '../learn/readingProbe';
import type { Paint } from '../learn/stepCheck';
import { neuralPoolGrounder } from '../learn/plannerGrounderPool';
import { screenConstraints } from '../learn/plannerConstraint';
import { plannerStatesOfTask, type PlannerState } from '../learn/plannerStates';
import type { Random } from '../learn/random';
import { insideBox, instructionValue, tokenF1, VALUE_ACTIONS, type Point } from '../learn/rewards';
import { parseInstruction } from '../text/grammar';
import type { Tokenizer } from '../text/tokenizer';
import { describeScreen } from '../world/describe';
import type { GroundingSplit, Suites, WebSplit } from '../world/suites';
import type { ActionType, Box, Instruction, Screen, Task } from '../world/types';
import { REF_STYLES } from '../world/types';
import { needsPoint, runEpisodes, type Agent, type EpisodeResult, type GroundQuery, type PlanQuery, type Sampling } from './evaluateOnline';
import { plannerMetrics, scorePlannerStep, type PlannerSplit, type PlannerStepScore } from './plannerFigures';
import type { SuiteMetrics } from './records';

import type { GrounderModel, PlannerModel } from './pools';

export const WEB_SPLITS: readonly WebSplit[] = ['cross-task', 'cross-site', 'cross-domain'];
export const GROUNDING_SPLITS: readonly GroundingSplit[] = ['web-text', 'web-icon', 'mobile-text', 'mobile-icon'];
export type MobileSplit = 'high' | 'low';
export const MOBILE_SPLITS: readonly MobileSplit[] = ['high', 'low'];

/** r_value's threshold in Co-EPG: token F1 strictly above it. */
export const VALUE_F1 = 0.5;
/**
 * AndroidControl's tap tolerance (the AITW action-matching code it uses,
 * `_TAP_DISTANCE_THRESHOLD = 0.14`, "fraction of the screen"): coordinates
 * are divided by the screen's width and height respectively, so the distance
 * is in screen fractions per axis (the screen diagonal is √2, not 1).
 */
export const TAP_TOLERANCE = 0.14;
/** The operations Multimodal-Mind2Web has; operation F1 is averaged over steps of these. */
export const MIND2WEB_OPS: readonly ActionType[] = ['CLICK', 'TYPE', 'SELECT'];

/** What the scoring needs to know about a true step (an OracleStep fits). */
export interface StepTruth {
  type: ActionType;
  value?: string;
  /** The target element's box; absent for steps without a target. */
  box?: Box;
}

// ---------------------------------------------------------------------------
// Pure scoring

/** "CLICK", "TYPE lunch at noon", "SCROLL down": the op string Mind2Web's operation F1 compares. */
export function operationString(type: ActionType, value?: string): string {
  return value === undefined || value === '' ? type : `${type} ${value}`;
}

/** The step's value is right: no value needed, or token F1 with the true value > 0.5. */
export function valueRight(pred: Instruction, truth: StepTruth): boolean {
  if (!VALUE_ACTIONS.includes(truth.type)) return true;
  return tokenF1(instructionValue(pred) ?? '', truth.value ?? '') > VALUE_F1;
}

/** The point the agent acts at for this instruction, if it acts at one. */
function actingPoint(pred: Instruction | null, point: Point | null): Point | null {
  return pred && needsPoint(pred) ? point : null;
}

export interface WebStepScore {
  parsed: boolean;
  hasTarget: boolean;
  /** Point inside the true box (false for steps without a target). */
  elementHit: boolean;
  /** Whether operation F1 is measured on this step (true op is CLICK/TYPE/SELECT). */
  scoredOp: boolean;
  operationF1: number;
  /** Same type and, where the step has a value, value F1 > 0.5. */
  operationRight: boolean;
  success: boolean;
}

export function scoreWebStep(instruction: string, point: Point | null, truth: StepTruth): WebStepScore {
  const pred = parseInstruction(instruction);
  const at = actingPoint(pred, point);
  const hasTarget = truth.box !== undefined;
  const elementHit = hasTarget && at !== null && insideBox(at, truth.box as Box);
  const predOp = pred ? operationString(pred.action, instructionValue(pred)) : '';
  const operationF1 = tokenF1(predOp, operationString(truth.type, truth.value));
  const operationRight = pred !== null && pred.action === truth.type && valueRight(pred, truth);
  return {
    parsed: pred !== null,
    hasTarget,
    elementHit,
    scoredOp: MIND2WEB_OPS.includes(truth.type),
    operationF1,
    operationRight,
    success: (!hasTarget || elementHit) && operationRight,
  };
}

/** How many items each metric averages over (its n, for a Wilson interval), by the same keys as SuiteMetrics. */
export type MetricCounts = Record<string, number>;

function put(into: SuiteMetrics, key: string, sum: number, n: number, counts?: MetricCounts): void {
  if (n <= 0) return;
  into[key] = sum / n;
  if (counts) counts[key] = n;
}

/** Metrics of one web split from its tasks' step scores (one array per task, every step). */
export function webMetrics(split: string, tasks: readonly (readonly WebStepScore[])[], counts?: MetricCounts): SuiteMetrics {
  const steps = tasks.flat();
  const targeted = steps.filter((s) => s.hasTarget);
  const ops = steps.filter((s) => s.scoredOp);
  const m: SuiteMetrics = {};
  put(m, `web/${split}/element_accuracy`, targeted.filter((s) => s.elementHit).length, targeted.length, counts);
  put(m, `web/${split}/operation_f1`, ops.reduce((a, s) => a + s.operationF1, 0), ops.length, counts);
  put(m, `web/${split}/step_success`, steps.filter((s) => s.success).length, steps.length, counts);
  put(m, `web/${split}/task_success`, tasks.filter((t) => t.length > 0 && t.every((s) => s.success)).length, tasks.length, counts);
  return m;
}

/**
 * AndroidControl's click match: inside the box (edges included), or within
 * TAP_TOLERANCE of the box centre (the true tap) in screen-normalised
 * coordinates, ‖((px − cx)/W, (py − cy)/H)‖ ≤ 0.14.
 */
export function tapMatches(point: Point, box: Box, screen: { width: number; height: number }): boolean {
  if (insideBox(point, box)) return true;
  const dx = (point.x - (box.x + box.w / 2)) / screen.width;
  const dy = (point.y - (box.y + box.h / 2)) / screen.height;
  return Math.hypot(dx, dy) <= TAP_TOLERANCE;
}

export interface MobileStepScore {
  parsed: boolean;
  typeRight: boolean;
  hasTarget: boolean;
  /** tapMatches for the point (false for steps without a target). */
  groundRight: boolean;
  valueRight: boolean;
  success: boolean;
}

export function scoreMobileStep(instruction: string, point: Point | null, truth: StepTruth, screen: { width: number; height: number }): MobileStepScore {
  const pred = parseInstruction(instruction);
  const at = actingPoint(pred, point);
  const hasTarget = truth.box !== undefined;
  const typeRight = pred !== null && pred.action === truth.type;
  const groundRight = hasTarget && at !== null && tapMatches(at, truth.box as Box, screen);
  const value = pred !== null && valueRight(pred, truth);
  return { parsed: pred !== null, typeRight, hasTarget, groundRight, valueRight: value, success: typeRight && (!hasTarget || groundRight) && value };
}

export function mobileMetrics(split: string, steps: readonly MobileStepScore[], counts?: MetricCounts): SuiteMetrics {
  const targeted = steps.filter((s) => s.hasTarget);
  const m: SuiteMetrics = {};
  put(m, `mobile/${split}/type_accuracy`, steps.filter((s) => s.typeRight).length, steps.length, counts);
  put(m, `mobile/${split}/grounding_accuracy`, targeted.filter((s) => s.groundRight).length, targeted.length, counts);
  put(m, `mobile/${split}/step_accuracy`, steps.filter((s) => s.success).length, steps.length, counts);
  return m;
}

export function groundingMetrics(split: string, hits: readonly boolean[], counts?: MetricCounts): SuiteMetrics {
  const m: SuiteMetrics = {};
  put(m, `grounding/${split}/accuracy`, hits.filter(Boolean).length, hits.length, counts);
  return m;
}

/** styles/<style>/accuracy for each style the probe has items of, and styles/all/accuracy. */
export function styleMetrics(f: StyleFigures, counts?: MetricCounts): SuiteMetrics {
  const m: SuiteMetrics = {};
  for (const style of REF_STYLES) {
    const g = f.grounding[style];
    if (g) put(m, `styles/${style}/accuracy`, g.hits, g.n, counts);
  }
  put(m, 'styles/all/accuracy', f.overall.hits, f.overall.n, counts);
  return m;
}

/** reading/cells/{role_accuracy, letter_f1}, and reading/glyphs/top1 where a glyph reader was scored on some glyphs. */
export function readingMetrics(r: ReadingFigures, counts?: MetricCounts): SuiteMetrics {
  const m: SuiteMetrics = {};
  if (r.cells > 0) {
    m['reading/cells/role_accuracy'] = r.role;
    m['reading/cells/letter_f1'] = r.letterF1;
    if (counts) counts['reading/cells/role_accuracy'] = counts['reading/cells/letter_f1'] = r.cells;
  }
  if (r.glyphs && r.glyphs.positions > 0) {
    m['reading/glyphs/top1'] = r.glyphs.top1;
    if (counts) counts['reading/glyphs/top1'] = r.glyphs.positions;
  }
  return m;
}

/** online/all/task_success, and per platform where it has episodes. */
export function onlineMetrics(results: readonly EpisodeResult[], counts?: MetricCounts): SuiteMetrics {
  const m: SuiteMetrics = {};
  const rate = (key: string, rs: readonly EpisodeResult[]) => put(m, key, rs.filter((r) => r.success).length, rs.length, counts);
  rate('online/all/task_success', results);
  rate('online/web/task_success', results.filter((r) => r.platform === 'web'));
  rate('online/mobile/task_success', results.filter((r) => r.platform === 'mobile'));
  return m;
}

// ---------------------------------------------------------------------------
// Running an agent over the suites

interface StepRecord {
  taskId: string;
  stepIndex: number;
  /** The true step's instruction (the oracle's canonical text). */
  truth: string;
  /** What was grounded/scored: the planner's text, or the given true text in mobile `low`. */
  predicted: string;
  point: Point | null;
}

export type WebStepDetail = StepRecord & WebStepScore;
export type MobileStepDetail = StepRecord & MobileStepScore;
/** A planned state as the planner figures saw it: `predicted` is the greedy text, `sampled` the sampled one (if any). */
export type PlannerStepDetail = Omit<StepRecord, 'point'> & { sampled?: string } & PlannerStepScore;

export interface GroundingDetail {
  taskId: string;
  stepIndex: number;
  instruction: string;
  point: Point | null;
  hit: boolean;
}

export interface EvaluationDetails {
  web: Record<WebSplit, WebStepDetail[]>;
  mobile: Record<MobileSplit, MobileStepDetail[]>;
  grounding: Record<GroundingSplit, GroundingDetail[]>;
  planner: Record<PlannerSplit, PlannerStepDetail[]>;
  online: EpisodeResult[];
}

export interface Evaluation {
  metrics: SuiteMetrics;
  /** Each metric's n: steps, tasks, queries, cells or episodes it averages over. */
  counts: MetricCounts;
  details: EvaluationDetails;
}

/** How much of the suites to use; each defaults to all of it (online: 4 tasks per platform). */
export interface EvaluationSizes {
  webTasksPerSplit?: number;
  mobileTasks?: number;
  groundingPerSplit?: number;
  onlinePerPlatform?: number;
  /** Caps each episode's step limit (stepLimit: 2 × the oracle's length + 2). */
  onlineMaxSteps?: number;
}

export const DEFAULT_ONLINE_PER_PLATFORM = 4;

export interface EvaluateAgentOptions {
  sizes?: EvaluationSizes;
  /** The reading probe's screens and per-style items (learn/readingProbe.ts probeSet); none, no styles/reading metrics. */
  probe?: ProbeSet;
  /** Items per agent call (planner states, grounding queries); default 16. */
  batch?: number;
  /**
   * The loop's sampling temperature and a seeded source, for one sampled
   * instruction per planned state (planner/<split>/parse_sampled); without
   * it, or from an agent that cannot sample, that key is left out.
   */
  sampling?: Sampling;
  /** Work units: offline states planned (greedy, then sampled), then scored, grounding queries, online episodes. */
  onProgress?: (done: number, total: number) => void;
}

/** Held-out tasks for online episodes: web round-robin over the three splits, mobile in suite order. */
export function onlineTasks(suites: Suites, perPlatform: number): Task[] {
  const web: Task[] = [];
  for (let i = 0; web.length < perPlatform && WEB_SPLITS.some((s) => i < suites.web[s].length); i++) {
    for (const s of WEB_SPLITS) if (i < suites.web[s].length && web.length < perPlatform) web.push(suites.web[s][i]);
  }
  return [...web, ...suites.mobile.slice(0, perPlatform)];
}

function chunks<T>(xs: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** Every suite and the online episodes for one agent (see the file comment for each metric). */
export async function evaluateAgent(agent: Agent, suites: Suites, opts: EvaluateAgentOptions = {}): Promise<Evaluation> {
  const batch = opts.batch ?? 16;
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`evaluate: batch must be a whole number ≥ 1; got ${batch}`);
  const sizes = opts.sizes ?? {};
  const webTasks = Object.fromEntries(WEB_SPLITS.map((s) => [s, suites.web[s].slice(0, sizes.webTasksPerSplit)])) as Record<WebSplit, Task[]>;
  const webStates = Object.fromEntries(WEB_SPLITS.map((s) => [s, webTasks[s].map(plannerStatesOfTask)])) as Record<WebSplit, PlannerState[][]>;
  const mobileStates = suites.mobile.slice(0, sizes.mobileTasks).flatMap(plannerStatesOfTask);
  const grounding = groundingItems(Object.fromEntries(GROUNDING_SPLITS.map((s) => [s, suites.grounding[s].slice(0, sizes.groundingPerSplit)])));
  const episodes = onlineTasks(suites, sizes.onlinePerPlatform ?? DEFAULT_ONLINE_PER_PLATFORM);

  // Planned states: every web step, then every mobile step (the `high` mode).
  const planned: PlannerState[] = [...WEB_SPLITS.flatMap((s) => webStates[s].flat()), ...mobileStates];
  const probe = opts.probe ?? { screens: [], items: [] };
  const readScreens = agent.read && probe.screens.length ? probe.screens : [];
  const sampling = agent.sample ? opts.sampling : undefined;
  const total = (sampling ? 3 : 2) * planned.length + mobileStates.length + grounding.length + probe.items.length + readScreens.length + episodes.length;
  let done = 0;
  const tick = (n: number) => {
    done += n;
    opts.onProgress?.(done, total);
  };

  const query = (s: PlannerState): PlanQuery => ({ task: s.task, screen: s.screen, history: s.parts.history });
  const texts: string[] = [];
  for (const part of chunks(planned, batch)) {
    texts.push(...(await agent.plan(part.map(query))));
    tick(part.length);
  }
  // A pass of its own after the greedy one: the draws depend only on the states, the batch and the seed.
  const sampled: string[] = [];
  if (sampling && agent.sample) {
    for (const part of chunks(planned, batch)) {
      sampled.push(...(await agent.sample(part.map(query), sampling)));
      tick(part.length);
    }
  }
  const cut = agent.promptCut?.(planned.map(query));

  // One grounding pass over everything that needs a point: planned instructions
  // that act at a point, mobile `low` steps with a target, the grounding suite.
  const queries: GroundQuery[] = [];
  const plannedPoint = planned.map((s, i) => {
    const p = parseInstruction(texts[i]);
    return p && needsPoint(p) ? queries.push({ screen: s.screen, instruction: texts[i] }) - 1 : -1;
  });
  const lowPoint = mobileStates.map((s) => (s.step.box !== undefined ? queries.push({ screen: s.screen, instruction: s.instruction }) - 1 : -1));
  const groundingPoint = grounding.map((g) => queries.push({ screen: g.screen, instruction: g.instruction }) - 1);
  const probePoint = probe.items.map(({ item }) => queries.push({ screen: item.screen, instruction: item.instruction }) - 1);
  tick(planned.length + mobileStates.length + grounding.length + probe.items.length - queries.length);
  // Queries about one screen side by side, so a batch encodes each screen once (the probe asks several per screen).
  const order = byScreen(queries);
  const points: (Point | null)[] = new Array(queries.length).fill(null);
  for (const part of chunks(order, batch)) {
    const answers = await agent.ground(part.map((q) => queries[q]));
    part.forEach((q, j) => (points[q] = answers[j]));
    tick(part.length);
  }
  const pointAt = (q: number) => (q < 0 ? null : points[q]);

  const metrics: SuiteMetrics = {};
  const counts: MetricCounts = {};
  const record = (s: PlannerState, predicted: string, point: Point | null): StepRecord => ({ taskId: s.task.id, stepIndex: s.stepIndex, truth: s.instruction, predicted, point });
  const web = {} as Record<WebSplit, WebStepDetail[]>;
  const allWebTasks: WebStepScore[][] = [];
  let k = 0;
  for (const split of WEB_SPLITS) {
    const perTask = webStates[split].map((states) =>
      states.map((s) => {
        const i = k++;
        const point = pointAt(plannedPoint[i]);
        return { ...record(s, texts[i], point), ...scoreWebStep(texts[i], point, s.step) };
      }),
    );
    web[split] = perTask.flat();
    allWebTasks.push(...perTask);
    Object.assign(metrics, webMetrics(split, perTask, counts));
  }
  // Pooled over the splits too: at a few tasks per split, one split's figure moves in steps of 1/n.
  Object.assign(metrics, webMetrics('all', allWebTasks, counts));
  const high = mobileStates.map((s) => {
    const i = k++;
    const point = pointAt(plannedPoint[i]);
    return { ...record(s, texts[i], point), ...scoreMobileStep(texts[i], point, s.step, s.screen) };
  });
  const low = mobileStates.map((s, j) => {
    const point = pointAt(lowPoint[j]);
    return { ...record(s, s.instruction, point), ...scoreMobileStep(s.instruction, point, s.step, s.screen) };
  });
  Object.assign(metrics, mobileMetrics('high', high, counts), mobileMetrics('low', low, counts));
  // The planner alone, on the same states and greedy texts, in `planned` order (web splits, then mobile).
  const plannerSplits: PlannerSplit[] = [...WEB_SPLITS, 'mobile'];
  const splitOf: PlannerSplit[] = [...WEB_SPLITS.flatMap((split) => webStates[split].flat().map(() => split)), ...mobileStates.map((): PlannerSplit => 'mobile')];
  const plannerDetails = Object.fromEntries(plannerSplits.map((split) => [split, [] as PlannerStepDetail[]])) as Record<PlannerSplit, PlannerStepDetail[]>;
  planned.forEach((s, i) => {
    const score = scorePlannerStep(s, texts[i], { sampled: sampled[i], promptCut: cut?.[i] });
    plannerDetails[splitOf[i]].push({ taskId: s.task.id, stepIndex: s.stepIndex, truth: s.instruction, predicted: texts[i], ...(sampled[i] !== undefined ? { sampled: sampled[i] } : {}), ...score });
  });
  for (const split of plannerSplits) Object.assign(metrics, plannerMetrics(split, plannerDetails[split], counts));
  const groundingDetails = Object.fromEntries(GROUNDING_SPLITS.map((s) => [s, [] as GroundingDetail[]])) as Record<GroundingSplit, GroundingDetail[]>;
  grounding.forEach((g, j) => {
    const point = pointAt(groundingPoint[j]);
    groundingDetails[g.split as GroundingSplit].push({ taskId: g.taskId, stepIndex: g.stepIndex, instruction: g.instruction, point, hit: point !== null && insideBox(point, g.box) });
  });
  for (const split of GROUNDING_SPLITS) Object.assign(metrics, groundingMetrics(split, groundingDetails[split].map((d) => d.hit), counts));
  Object.assign(metrics, groundingMetrics('all', GROUNDING_SPLITS.flatMap((split) => groundingDetails[split].map((d) => d.hit)), counts));
  if (probe.items.length) {
    const hits = probe.items.map(({ item }, j) => {
      const point = pointAt(probePoint[j]);
      return point !== null && insideBox(point, item.box);
    });
    Object.assign(metrics, styleMetrics(styleFigures(probe.items, hits), counts));
  }
  if (agent.read && readScreens.length) {
    Object.assign(metrics, readingMetrics(await agent.read(readScreens), counts));
    tick(readScreens.length);
  }

  const online = await runEpisodes(agent, episodes, { maxSteps: sizes.onlineMaxSteps, onEpisode: () => tick(1) });
  Object.assign(metrics, onlineMetrics(online, counts));
  return { metrics, counts, details: { web, mobile: { high, low }, grounding: groundingDetails, planner: plannerDetails, online } };
}

/** Indices of `queries` with those about the same screen next to each other, screens in order of first appearance. */
function byScreen(queries: readonly GroundQuery[]): number[] {
  const groups = new Map<Screen, number[]>();
  queries.forEach((q, i) => {
    const g = groups.get(q.screen);
    if (g) g.push(i);
    else groups.set(q.screen, [i]);
  });
  return [...groups.values()].flat();
}

// ---------------------------------------------------------------------------
// The neural pair as an Agent

export type { PlannerModel, GrounderModel };

/** Rows of a decode for `n` prompts: the next power of two, at most `batch`, so only a few shapes ever occur. */
export function decodeRows(n: number, batch: number): number {
  return Math.min(batch, 2 ** Math.ceil(Math.log2(Math.max(1, n))));
}

/** What the planner reads for one step, and the screen it is on (what a constraint may quote). */
export interface PlanItem {
  parts: PlannerPromptParts;
  screen: Screen;
}

/**
 * Instruction texts for prompt parts, greedy unless a temperature and rng
 * are given, at most `batch` rows per decode. A short chunk (the last one,
 * or a round of few live episodes) is padded with copies of its last prompt
 * to decodeRows rows (sampled rows draw from rng too): decoding costs
 * one full forward per token, so padding a handful of rows up to a large
 * batch would multiply the cost, while power-of-two buckets keep the
 * shapes few and reused.
 */
export async function decodeInstructions(
  planner: PlannerModel,
  tok: Tokenizer,
  items: readonly PlanItem[],
  batch: number,
  opts: { constrained?: boolean; temperature?: number; rng?: Random } = {},
): Promise<string[]> {
  const out: string[] = [];
  for (const part of chunks(items, batch)) {
    const rows = decodeRows(part.length, batch);
    const chunk = Array.from({ length: rows }, (_, i) => part[Math.min(i, part.length - 1)]);
    const { ids, length: pl } = promptMatrix(tok, planner.cfg, chunk.map((x) => x.parts));
    const prompt = tf.tensor2d(ids, [rows, pl], 'int32');
    const constraints = opts.constrained ? screenConstraints(tok, chunk.map((x) => ({ screen: x.screen, goal: x.parts.goal, history: x.parts.history }))) : undefined;
    try {
      const copy = planner.cfg.copyGate ? chunk.map((x) => rowCopy(tok, copyTargets(x.parts))) : undefined;
      const dec = await plannerDecode(planner.params, planner.cfg, prompt, { temperature: opts.temperature ?? 0, rng: opts.rng, constraints, copy });
      for (let i = 0; i < part.length; i++) out.push(parseCompletion(tok, dec.tokens[i]).instruction);
    } finally {
      prompt.dispose();
    }
  }
  return out;
}

export interface NeuralAgentOptions {
  planner: PlannerModel;
  grounder: GrounderModel;
  tok: Tokenizer;
  /** Screen pixels: syntheticScreenImage in Node, the Canvas renderer in the browser (which also reports the glyphs it drew, for the reading probe). */
  paint: Paint;
  /** Rows per forward (default 16); batches are padded to it. */
  batch?: number;
  /** Grammar-constrained planner decoding (config plannerConstraint). */
  constrained?: boolean;
}

/** What the planner reads for a query: goal, screen description, history. */
function planItem(q: PlanQuery): PlanItem {
  return { parts: { goal: q.task.goal, screen: describeScreen(q.screen), history: q.history }, screen: q.screen };
}

/**
 * The planner (greedy decoding of goal + screen description + history, or
 * sampled under the same constraint) and the grounder (greedy cell) as one
 * Agent.
 */
export function neuralAgent(o: NeuralAgentOptions): Agent {
  const batch = o.batch ?? 16;
  const pool = neuralPoolGrounder(o.grounder.params, o.grounder.cfg, o.tok, { paint: o.paint, batchSize: batch });
  return {
    plan: (qs) => decodeInstructions(o.planner, o.tok, qs.map(planItem), batch, { constrained: o.constrained }),
    sample: (qs, { temperature, rng }) => decodeInstructions(o.planner, o.tok, qs.map(planItem), batch, { constrained: o.constrained, temperature, rng }),
    promptCut: (qs) => qs.map((q) => promptCut(o.tok, planItem(q).parts, o.planner.cfg.promptLength, o.planner.cfg.goalMarks)),
    ground: async (qs) => (await pool.ground(qs)).map((a) => a.point),
    read: (screens) => probeReading(o.grounder.params, o.grounder.cfg, screens, o.paint, batch),
  };
}

export interface EvaluatePairOptions extends NeuralAgentOptions {
  suites: Suites;
  sizes?: EvaluationSizes;
  probe?: ProbeSet;
  /** For planner/<split>/parse_sampled (EvaluateAgentOptions.sampling). */
  sampling?: Sampling;
  onProgress?: (done: number, total: number) => void;
}

/** The evaluation phase for (πk, φk): every suite of METHOD.md §6 and online task success. Deterministic. */
export async function evaluatePair(opts: EvaluatePairOptions): Promise<Evaluation> {
  return evaluateAgent(neuralAgent(opts), opts.suites, { sizes: opts.sizes, batch: opts.batch, probe: opts.probe, sampling: opts.sampling, onProgress: opts.onProgress });
}
