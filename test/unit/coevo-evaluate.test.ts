/**
 * The evaluation phase: the metric definitions on hand-built cases (pure
 * scoring), the whole suite pipeline with stub agents whose answers are
 * known (the oracle planner with a verifier grounder scores 1 everywhere;
 * the same planner with a grounder that always misses scores 0 on every
 * point metric and 1 on operation F1), the planner's own figures (the
 * oracle's text scores 1, garbage 0, sampled and cut prompts as the agent
 * says), and the tiny neural pair on WASM: every key, values in [0, 1], no
 * leaked tensors, the same numbers twice, sampling under the constraint.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import {
  GROUNDING_SPLITS,
  MOBILE_SPLITS,
  WEB_SPLITS,
  decodeRows,
  evaluateAgent,
  evaluatePair,
  mobileMetrics,
  neuralAgent,
  onlineMetrics,
  scoreMobileStep,
  scoreWebStep,
  tapMatches,
  webMetrics,
  type Evaluation,
} from '../../src/coevo/evaluate';
import { actionOf, runEpisodes, stepLimit, type Agent, type EpisodeResult, type PlanQuery, type Sampling } from '../../src/coevo/evaluateOnline';
import { plannerStatesOfTask } from '../../src/learn/plannerStates';
import { promptCut, promptTokenCount } from '../../src/models/plannerData';
import { describeScreen } from '../../src/world/describe';
import { verifierGrounder } from '../../src/learn/plannerGrounderPool';
import { probeSet } from '../../src/learn/readingProbe';
import { Random } from '../../src/learn/random';
import { initGrounder } from '../../src/models/grounder';
import { initPlanner } from '../../src/models/planner';
import { disposeParams } from '../../src/models/params';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { parseInstruction, printInstruction } from '../../src/text/grammar';
import { defaultTokenizer } from '../../src/text/vocab';
import { buildSuites, type Suites } from '../../src/world/suites';
import { evaluationSizes } from '../../src/coevo/phases/evaluate';
import { onlinePerPlatform, suiteSizes } from '../../src/coevo/runState';
import { oracle } from '../../src/world/tasks';
import { REF_STYLES, type Box } from '../../src/world/types';

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
});

const BOX: Box = { x: 40, y: 20, w: 30, h: 10 };
const INSIDE = { x: 50, y: 25 };
const FAR = { x: 190, y: 120 };
const WEB = { width: 200, height: 128 };
const MOBILE = { width: 120, height: 208 };

describe('web step scoring (Mind2Web)', () => {
  it('a perfect click scores 1 on every measure', () => {
    const s = scoreWebStep('click the "Send" button', INSIDE, { type: 'CLICK', box: BOX });
    expect(s).toEqual({ parsed: true, hasTarget: true, elementHit: true, scoredOp: true, operationF1: 1, operationRight: true, success: true });
    expect(webMetrics('cross-task', [[s]])).toEqual({
      'web/cross-task/element_accuracy': 1,
      'web/cross-task/operation_f1': 1,
      'web/cross-task/step_success': 1,
      'web/cross-task/task_success': 1,
    });
  });

  it('a wrong point loses the element and the step but not the operation', () => {
    const s = scoreWebStep('type "lunch" into the "Subject" text field', FAR, { type: 'TYPE', value: 'Lunch', box: BOX });
    expect(s.elementHit).toBe(false);
    expect(s.operationF1).toBe(1); // "TYPE lunch" both ways; case does not matter
    expect(s.operationRight).toBe(true);
    expect(s.success).toBe(false);
  });

  it('operation F1 is token F1 of "OP value"; the value must have F1 > 0.5 for the operation to be right', () => {
    const s = scoreWebStep('type "lunch" into the "Subject" text field', INSIDE, { type: 'TYPE', value: 'lunch meeting today', box: BOX });
    // "type lunch" vs "type lunch meeting today": 2 common, precision 1, recall 1/2.
    expect(s.operationF1).toBeCloseTo(2 / 3, 10);
    // value F1 of "lunch" vs "lunch meeting today" is exactly 0.5: not above it.
    expect(s.operationRight).toBe(false);
    expect(s.success).toBe(false);
    // Right element, wrong operation: "CLICK" shares no token with "TYPE lunch".
    const click = scoreWebStep('click the "Subject" text field', INSIDE, { type: 'TYPE', value: 'lunch', box: BOX });
    expect(click).toMatchObject({ elementHit: true, operationF1: 0, operationRight: false, success: false });
  });

  it('an unparseable instruction scores nothing, and a point counts only for an action that acts at one', () => {
    const bad = scoreWebStep('click click click', INSIDE, { type: 'CLICK', box: BOX });
    expect(bad).toMatchObject({ parsed: false, elementHit: false, operationF1: 0, operationRight: false, success: false });
    const scroll = scoreWebStep('scroll down', INSIDE, { type: 'CLICK', box: BOX });
    expect(scroll).toMatchObject({ parsed: true, elementHit: false, operationF1: 0, success: false });
  });

  it('steps without a target skip element accuracy and operation F1 but count for step and task success', () => {
    const scroll = scoreWebStep('scroll down', null, { type: 'SCROLL', value: 'down' });
    expect(scroll).toMatchObject({ hasTarget: false, scoredOp: false, success: true });
    const wrongWay = scoreWebStep('scroll up', null, { type: 'SCROLL', value: 'down' });
    expect(wrongWay.success).toBe(false);
    const click = scoreWebStep('click the "Send" button', INSIDE, { type: 'CLICK', box: BOX });
    const miss = scoreWebStep('click the "Send" button', FAR, { type: 'CLICK', box: BOX });
    const m = webMetrics('cross-site', [[scroll, click], [click, miss], [wrongWay]]);
    expect(m['web/cross-site/element_accuracy']).toBeCloseTo(2 / 3, 10); // three targeted steps, two hits
    expect(m['web/cross-site/operation_f1']).toBe(1); // three CLICK steps, all "CLICK"
    expect(m['web/cross-site/step_success']).toBeCloseTo(3 / 5, 10);
    expect(m['web/cross-site/task_success']).toBeCloseTo(1 / 3, 10);
  });
});

describe('mobile step scoring (AndroidControl)', () => {
  it('a click matches inside the box or within 14% of the screen, each axis normalised by its own side', () => {
    const box: Box = { x: 50, y: 90, w: 20, h: 20 }; // centre (60, 100)
    expect(tapMatches({ x: 50, y: 110 }, box, MOBILE)).toBe(true); // a corner, edges included
    expect(tapMatches({ x: 60 + 0.13 * 120, y: 100 }, box, MOBILE)).toBe(true);
    expect(tapMatches({ x: 60, y: 100 + 0.135 * 208 }, box, MOBILE)).toBe(true); // 28 px down: tolerance is per-axis
    expect(tapMatches({ x: 60, y: 100 + 0.15 * 208 }, box, MOBILE)).toBe(false);
    // (0.1, 0.1) in screen fractions is 0.141 away: just outside.
    expect(tapMatches({ x: 60 + 0.1 * 120, y: 100 + 0.1 * 208 }, box, MOBILE)).toBe(false);
    expect(tapMatches({ x: 60 + 0.098 * 120, y: 100 + 0.098 * 208 }, box, MOBILE)).toBe(true);
  });

  it('type, grounding and step accuracy', () => {
    const box: Box = { x: 50, y: 90, w: 20, h: 20 };
    const perfect = scoreMobileStep('click the "WLAN" switch', { x: 60, y: 100 }, { type: 'CLICK', box }, MOBILE);
    expect(perfect).toEqual({ parsed: true, typeRight: true, hasTarget: true, groundRight: true, valueRight: true, success: true });
    const near = scoreMobileStep('click the "WLAN" switch', { x: 75, y: 110 }, { type: 'CLICK', box }, MOBILE);
    expect(near.groundRight).toBe(true);
    const wrongType = scoreMobileStep('type "x" into the "WLAN" switch', { x: 60, y: 100 }, { type: 'CLICK', box }, MOBILE);
    expect(wrongType).toMatchObject({ typeRight: false, groundRight: true, success: false });
    const app = scoreMobileStep('open the Settings app', null, { type: 'OPEN_APP', value: 'Settings' }, MOBILE);
    expect(app).toMatchObject({ typeRight: true, hasTarget: false, groundRight: false, valueRight: true, success: true });
    const otherApp = scoreMobileStep('open the Music app', null, { type: 'OPEN_APP', value: 'Settings' }, MOBILE);
    expect(otherApp).toMatchObject({ typeRight: true, valueRight: false, success: false });
    const m = mobileMetrics('high', [perfect, near, wrongType, app, otherApp]);
    expect(m['mobile/high/type_accuracy']).toBeCloseTo(4 / 5, 10);
    expect(m['mobile/high/grounding_accuracy']).toBe(1); // three targeted steps, all within tolerance
    expect(m['mobile/high/step_accuracy']).toBeCloseTo(3 / 5, 10);
  });
});

describe('online scoring and actions', () => {
  it('task success per platform and overall; keys of empty groups are left out', () => {
    const r = (platform: 'web' | 'mobile', success: boolean): EpisodeResult => ({ taskId: 't', platform, success, end: success ? 'goal' : 'limit', instructions: [], points: [], limit: 4 });
    expect(onlineMetrics([r('web', true), r('web', false), r('mobile', true)])).toEqual({
      'online/all/task_success': 2 / 3,
      'online/web/task_success': 1 / 2,
      'online/mobile/task_success': 1,
    });
    expect(Object.keys(onlineMetrics([r('web', false)]))).toEqual(['online/all/task_success', 'online/web/task_success']);
  });

  it('turns an instruction and a point into the world action the oracle would take', () => {
    const p = { x: 12, y: 34 };
    const i = (t: string) => {
      const x = parseInstruction(t);
      if (!x) throw new Error(`does not parse: ${t}`);
      return x;
    };
    expect(actionOf(i('click the "Send" button'), p)).toEqual({ type: 'CLICK', x: 12, y: 34 });
    expect(actionOf(i('click the "Send" button'), null)).toBeNull();
    expect(actionOf(i('type "Lunch" into the "Subject" text field'), p)).toEqual({ type: 'TYPE', text: 'Lunch', x: 12, y: 34 });
    expect(actionOf(i('scroll down'), null)).toEqual({ type: 'SCROLL', direction: 'down' });
    expect(actionOf(i('open the Settings app'), null)).toEqual({ type: 'OPEN_APP', app: 'Settings' });
  });
});

const SIZES = { webPerSplit: 2, mobile: 2, groundingPerSplit: 2 };

/** The oracle's next instruction (episodes that follow it are at step history.length) and, optionally, a grounder. */
function oracleAgent(ground: Agent['ground']): Agent {
  return {
    plan: async (qs) =>
      qs.map((q) => {
        const steps = oracle(q.task);
        return q.history.length < steps.length ? printInstruction(steps[q.history.length].instruction) : printInstruction({ action: 'DONE', phrasing: 0 });
      }),
    ground,
  };
}

const verifier = verifierGrounder();
const verifierGround: Agent['ground'] = async (qs) => (await verifier.ground(qs)).map((a) => a.point);

const PLANNER_SPLITS = [...WEB_SPLITS, 'mobile'] as const;

/**
 * planner/<split>/… keys: exact and type accuracy always, value F1 where the
 * split has a step with a value, and the sampled and cut-prompt shares for
 * agents that report them.
 */
function plannerKeys(suites: Suites, sizes: { webTasksPerSplit?: number; mobileTasks?: number }, has: { sampled?: boolean; cut?: boolean } = {}): string[] {
  const states = (split: (typeof PLANNER_SPLITS)[number]) =>
    (split === 'mobile' ? suites.mobile.slice(0, sizes.mobileTasks) : suites.web[split].slice(0, sizes.webTasksPerSplit)).flatMap(plannerStatesOfTask);
  return PLANNER_SPLITS.flatMap((split) =>
    [
      'exact',
      'type_accuracy',
      ...(states(split).some((st) => st.step.value !== undefined) ? ['value_f1'] : []),
      ...(has.sampled ? ['parse_sampled'] : []),
      ...(has.cut ? ['prompts_cut'] : []),
    ].map((m) => `planner/${split}/${m}`),
  );
}

function expectedKeys(planner: string[]): string[] {
  return [
    ...planner,
    ...[...WEB_SPLITS, 'all'].flatMap((s) => ['element_accuracy', 'operation_f1', 'step_success', 'task_success'].map((m) => `web/${s}/${m}`)),
    ...MOBILE_SPLITS.flatMap((s) => ['type_accuracy', 'grounding_accuracy', 'step_accuracy'].map((m) => `mobile/${s}/${m}`)),
    ...[...GROUNDING_SPLITS, 'all'].map((s) => `grounding/${s}/accuracy`),
    'online/all/task_success',
    'online/web/task_success',
    'online/mobile/task_success',
  ].sort();
}

it('decodes in power-of-two row buckets up to the batch', () => {
  expect([1, 2, 3, 5, 8, 9, 16].map((n) => decodeRows(n, 8))).toEqual([1, 2, 4, 8, 8, 8, 8]);
});

describe('the suites with stub agents', () => {
  const suites = buildSuites(3, { webPerSplit: 3, mobile: 3, groundingPerSplit: 3 });

  it('the oracle planner with a verifier grounder scores 1 on every metric, online included', async () => {
    const progress: [number, number][] = [];
    const e = await evaluateAgent(oracleAgent(verifierGround), suites, { batch: 4, sizes: { onlinePerPlatform: 2 }, onProgress: (d, t) => progress.push([d, t]) });
    expect(Object.keys(e.metrics).sort()).toEqual(expectedKeys(plannerKeys(suites, {})));
    for (const [k, v] of Object.entries(e.metrics)) expect([k, v]).toEqual([k, 1]);
    expect(e.details.online).toHaveLength(4);
    expect(e.details.online.every((r) => r.end === 'goal' && r.instructions.length <= r.limit)).toBe(true);
    const last = progress[progress.length - 1];
    expect(last[0]).toBe(last[1]);
    expect(progress.every(([d], i) => i === 0 || d >= progress[i - 1][0])).toBe(true);
  });

  it('runs onlineEpisodes episodes per platform from suites grown for them, the offline figures on the same tasks as before', async () => {
    expect(evaluationSizes(32, 0)).toEqual({ webTasksPerSplit: 16, mobileTasks: 16, groundingPerSplit: 32, onlinePerPlatform: 4 });
    expect(suiteSizes(32, onlinePerPlatform(32, 0))).toEqual(suiteSizes(32));
    expect(suiteSizes(32, onlinePerPlatform(32, 48))).toEqual({ webPerSplit: 16, mobile: 48, groundingPerSplit: 32 });
    const small = buildSuites(4, suiteSizes(4));
    const grown = buildSuites(4, suiteSizes(4, 7));
    const ids = (ts: readonly { id: string }[]) => ts.map((t) => t.id);
    for (const split of WEB_SPLITS) {
      expect(grown.web[split]).toHaveLength(3);
      expect(ids(grown.web[split].slice(0, 2))).toEqual(ids(small.web[split]));
    }
    expect(ids(grown.mobile.slice(0, 2))).toEqual(ids(small.mobile));
    const offline = await evaluateAgent(oracleAgent(verifierGround), small, { batch: 4, sizes: evaluationSizes(4, 0) });
    const e = await evaluateAgent(oracleAgent(verifierGround), grown, { batch: 4, sizes: evaluationSizes(4, 7) });
    expect(offline.details.online).toHaveLength(2);
    expect(e.details.online.filter((r) => r.platform === 'web')).toHaveLength(7);
    expect(e.details.online.filter((r) => r.platform === 'mobile')).toHaveLength(7);
    expect(e.counts['online/all/task_success']).toBe(14);
    expect(e.details.web).toEqual(offline.details.web);
    expect(e.details.mobile).toEqual(offline.details.mobile);
  });

  it('the same planner with a grounder that always misses: point metrics 0, operation F1 and type accuracy 1', async () => {
    const e = await evaluateAgent(oracleAgent(async (qs) => qs.map(() => ({ x: -50, y: -50 }))), suites, { batch: 4, sizes: { onlinePerPlatform: 2 } });
    for (const s of WEB_SPLITS) {
      expect(e.metrics[`web/${s}/element_accuracy`]).toBe(0);
      expect(e.metrics[`web/${s}/operation_f1`]).toBe(1);
      expect(e.metrics[`web/${s}/task_success`]).toBe(0);
    }
    expect(e.metrics['mobile/high/type_accuracy']).toBe(1);
    expect(e.metrics['mobile/high/grounding_accuracy']).toBe(0);
    for (const s of GROUNDING_SPLITS) expect(e.metrics[`grounding/${s}/accuracy`]).toBe(0);
    expect(e.metrics['grounding/all/accuracy']).toBe(0);
    expect(e.metrics['web/all/operation_f1']).toBe(1);
    // Mobile steps without a target (opening the app) still succeed; the clicks after it cannot.
    const high = e.details.mobile.high;
    expect(e.metrics['mobile/high/step_accuracy']).toBeCloseTo(high.filter((d) => !d.hasTarget).length / high.length, 10);
    expect(e.metrics['online/all/task_success']).toBe(0);
    // Its clicks change nothing, so the planner runs out of oracle steps and says DONE before the goal.
    expect(e.details.online.every((r) => r.end === 'done' && !r.success)).toBe(true);
  });

  it('the planner alone: the oracle\'s text scores 1 with any grounder; sampled instructions and cut prompts are as the agent reports them', async () => {
    const sampling: Sampling = { temperature: 0.9, rng: new Random(4) };
    const calls: Sampling[] = [];
    const base = oracleAgent(async (qs) => qs.map(() => null));
    // Every second step's prompt "cut", so the share is known per split.
    const cutAt = (q: PlanQuery) => q.history.length % 2 === 1;
    const agent: Agent = { ...base, sample: async (qs, sm) => (calls.push(sm), base.plan(qs)), promptCut: (qs) => qs.map(cutAt) };
    const e = await evaluateAgent(agent, suites, { batch: 4, sizes: { onlinePerPlatform: 1 }, sampling });
    const plannerOnly = Object.keys(e.metrics).filter((k) => k.startsWith('planner/'));
    expect(plannerOnly.sort()).toEqual(plannerKeys(suites, {}, { sampled: true, cut: true }).sort());
    for (const split of PLANNER_SPLITS) {
      for (const m of ['exact', 'type_accuracy', 'value_f1', 'parse_sampled']) if (`planner/${split}/${m}` in e.metrics) expect([split, m, e.metrics[`planner/${split}/${m}`]]).toEqual([split, m, 1]);
      const d = e.details.planner[split];
      expect(d.length).toBeGreaterThan(0);
      expect(e.metrics[`planner/${split}/prompts_cut`]).toBeCloseTo(d.filter((x) => x.stepIndex % 2 === 1).length / d.length, 10);
    }
    // The planner splits hold the same states as the web splits and mobile `high`, with the same greedy texts.
    for (const split of WEB_SPLITS) expect(e.details.planner[split].map((d) => d.predicted)).toEqual(e.details.web[split].map((d) => d.predicted));
    expect(e.details.planner.mobile.map((d) => d.predicted)).toEqual(e.details.mobile.high.map((d) => d.predicted));
    // One sampled call per chunk of planned states, each with the caller's temperature and seeded source.
    const planned = PLANNER_SPLITS.reduce((n, split) => n + e.details.planner[split].length, 0);
    expect(calls).toHaveLength(Math.ceil(planned / 4));
    for (const c of calls) expect(c).toBe(sampling);

    // Without a seeded source the agent is never asked to sample, and the key is left out rather than made up.
    const unseeded = await evaluateAgent(agent, suites, { batch: 4, sizes: { onlinePerPlatform: 1 } });
    expect(calls).toHaveLength(Math.ceil(planned / 4));
    expect(Object.keys(unseeded.metrics).filter((k) => k.startsWith('planner/')).sort()).toEqual(plannerKeys(suites, {}, { cut: true }).sort());
  });

  it('a planner that writes garbage scores 0 on its own figures, its samples included', async () => {
    const agent: Agent = { plan: async (qs) => qs.map(() => 'hello'), sample: async (qs) => qs.map(() => 'click click click'), ground: async (qs) => qs.map(() => null) };
    const e = await evaluateAgent(agent, suites, { batch: 4, sizes: { onlinePerPlatform: 1, onlineMaxSteps: 1 }, sampling: { temperature: 0.9, rng: new Random(1) } });
    const plannerOnly = Object.entries(e.metrics).filter(([k]) => k.startsWith('planner/'));
    expect(plannerOnly.map(([k]) => k).sort()).toEqual(plannerKeys(suites, {}, { sampled: true }).sort());
    for (const [k, v] of plannerOnly) expect([k, v]).toEqual([k, 0]);
    expect(e.details.planner.mobile.every((d) => d.sampled === 'click click click' && d.sampledParsed === false)).toBe(true);
  });

  it('with a probe set: grounding by referring style, and what an agent that can read reads', async () => {
    const probe = probeSet(3, 4, 4);
    expect(new Set(probe.items.map((x) => x.item.style))).toEqual(new Set(REF_STYLES));
    const reading = { cells: 10, roleAll: 0.5, role: 0.25, icon: 0.1, color: 0.2, letterF1: 0.375, glyphs: { positions: 7, top1: 0.625, blank: 0.9 } };
    const seen: number[] = [];
    const reader: Agent = { ...oracleAgent(verifierGround), read: async (screens) => (seen.push(screens.length), reading) };
    const progress: [number, number][] = [];
    const e = await evaluateAgent(reader, suites, { batch: 4, sizes: { onlinePerPlatform: 1 }, probe, onProgress: (d, t) => progress.push([d, t]) });
    expect(seen).toEqual([4]);
    expect(e.metrics['reading/cells/role_accuracy']).toBe(0.25);
    expect(e.metrics['reading/cells/letter_f1']).toBe(0.375);
    expect(e.metrics['reading/glyphs/top1']).toBe(0.625);
    const styles = REF_STYLES.map((st) => e.metrics[`styles/${st}/accuracy`]);
    for (const v of styles) expect(v).toBeGreaterThanOrEqual(0.5); // the verifier resolves references as the writers meant them
    const n = REF_STYLES.map((st) => probe.items.filter((x) => x.item.style === st).length);
    expect(e.metrics['styles/all/accuracy']).toBeCloseTo(styles.reduce((a, v, i) => a + v * n[i], 0) / probe.items.length, 10);
    const last = progress[progress.length - 1];
    expect(last[0]).toBe(last[1]);

    const missing = await evaluateAgent(oracleAgent(async (qs) => qs.map(() => ({ x: -50, y: -50 }))), suites, { batch: 4, sizes: { onlinePerPlatform: 1 }, probe });
    for (const st of [...REF_STYLES, 'all']) expect(missing.metrics[`styles/${st}/accuracy`]).toBe(0);
    // An agent that cannot read gets no reading keys, rather than made-up zeros.
    expect(Object.keys(missing.metrics).filter((k) => k.startsWith('reading/'))).toEqual([]);
  });

  it('an episode stops at the step limit when the planner never writes anything useful', async () => {
    const task = suites.web['cross-task'][0];
    const idle: Agent = { plan: async (qs) => qs.map(() => 'hello'), ground: async () => [] };
    const [r] = await runEpisodes(idle, [task]);
    expect(r).toMatchObject({ success: false, end: 'limit' });
    expect(r.instructions).toHaveLength(stepLimit(task));
    expect(stepLimit(task)).toBe(2 * oracle(task).length + 2);
    const [capped] = await runEpisodes(idle, [task], { maxSteps: 3 });
    expect(capped.instructions).toHaveLength(3);
  });
});

describe('evaluatePair (tiny preset, WASM, syntheticScreenImage)', () => {
  it('reports every key in [0, 1], leaks no tensors and gives the same numbers twice', async () => {
    const tok = defaultTokenizer();
    const pcfg = plannerPreset('tiny');
    const gcfg = grounderPreset('tiny');
    const planner = { params: initPlanner(new Random(1).fork('planner'), pcfg), cfg: pcfg };
    const grounder = { params: initGrounder(new Random(1).fork('grounder'), gcfg), cfg: gcfg };
    const suites = buildSuites(5, SIZES);
    // Greedy decoding of an untrained planner never stops before the completion length, one full
    // forward per token: keep the planned states few (one task per split, one online round).
    const sizes = { webTasksPerSplit: 1, mobileTasks: 1, groundingPerSplit: 1, onlinePerPlatform: 1, onlineMaxSteps: 1 };
    // A fresh seeded source per run: the sampled instructions must come out the same twice.
    const run = () => evaluatePair({ planner, grounder, tok, paint: syntheticScreenImage, suites, sizes, batch: 8, sampling: { temperature: 0.9, rng: new Random(7) } });
    const before = tf.memory().numTensors;
    const a: Evaluation = await run();
    const afterOne = tf.memory().numTensors;
    const b = await run();
    expect(tf.memory().numTensors).toBe(before);
    expect(afterOne).toBe(before);
    expect(Object.keys(a.metrics).sort()).toEqual(expectedKeys(plannerKeys(suites, sizes, { sampled: true, cut: true })));
    for (const v of Object.values(a.metrics)) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
    expect(b.metrics).toEqual(a.metrics);
    expect(b.details).toEqual(a.details);
    const sampledParse = PLANNER_SPLITS.map((split) => {
      const d = a.details.planner[split];
      return d.filter((x) => parseInstruction(x.sampled ?? '') !== null).length / d.length;
    });
    expect(PLANNER_SPLITS.map((split) => a.metrics[`planner/${split}/parse_sampled`])).toEqual(sampledParse);
    // With the reading probe: every style, per-cell reading, and the glyph reader's top-1 (syntheticScreenImage reports its glyphs).
    const probed = await evaluatePair({ planner, grounder, tok, paint: syntheticScreenImage, suites, sizes, batch: 8, probe: probeSet(5, 2, 2) });
    const extra = Object.keys(probed.metrics).filter((k) => !(k in a.metrics)).sort();
    expect(extra).toEqual([...[...REF_STYLES, 'all'].map((st) => `styles/${st}/accuracy`), 'reading/cells/letter_f1', 'reading/cells/role_accuracy', 'reading/glyphs/top1'].sort());
    expect(tf.memory().numTensors).toBe(before);
    // The low-level mode is given the true instruction: its action type is right by construction.
    expect(a.metrics['mobile/low/type_accuracy']).toBe(1);
    console.log('untrained tiny pair:', JSON.stringify(a.metrics));

    // Sampling honours the agent's constraint: even an untrained planner, constrained, samples only instructions that parse.
    const qs: PlanQuery[] = [...suites.web['cross-site'].slice(0, 1), ...suites.mobile.slice(0, 1)]
      .flatMap(plannerStatesOfTask)
      .map((st) => ({ task: st.task, screen: st.screen, history: st.parts.history }));
    const constrained = neuralAgent({ planner, grounder, tok, paint: syntheticScreenImage, batch: 8, constrained: true });
    const texts = await constrained.sample!(qs, { temperature: 0.9, rng: new Random(3) });
    expect(texts).toHaveLength(qs.length);
    for (const t of texts) expect(parseInstruction(t), t).not.toBeNull();
    // Cut prompts: what promptCut says at the preset's prompt length; every one of them a token short of the shortest.
    const parts = (q: PlanQuery) => ({ goal: q.task.goal, screen: describeScreen(q.screen), history: q.history });
    expect(constrained.promptCut!(qs)).toEqual(qs.map((q) => promptCut(tok, parts(q), pcfg.promptLength)));
    const shortest = Math.min(...qs.map((q) => promptTokenCount(tok, parts(q))));
    const short = neuralAgent({ planner: { params: planner.params, cfg: { ...pcfg, promptLength: shortest - 1 } }, grounder, tok, paint: syntheticScreenImage });
    expect(short.promptCut!(qs)).toEqual(qs.map(() => true));
    expect(tf.memory().numTensors).toBe(before);
    disposeParams(planner.params);
    disposeParams(grounder.params);
  }, 120_000);
});
