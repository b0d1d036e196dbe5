/**
 * The schema of groups.jsonl: planner GRPO groups kept for the inspector,
 * each with the screen it was sampled on. The screen is rebuilt field by
 * field, so that the renderer meets only shapes and sizes it knows.
 */
import type { PlanWeighting } from '../../learn/rewards';
import type { FontFamily, Role, Screen, TextStyle, UIElement } from '../../world/types';
import { REF_STYLES } from '../../world/types';
import type { GroupGrounding, GroupRecord, GroupSample } from '../groupRecords';
import { PRIOR } from '../config';
import { Fields, type Range } from './fields';
import { ACTION_TYPES, MAX_INDEX, MAX_ITERATION, MAX_SIDE, PLATFORMS, elementBox, strip, targetBox, taskOf } from './records';

const WEIGHTINGS: readonly PlanWeighting[] = ['prior-confidence', 'prior', 'uniform', 'single'];
const THEME_MODES = ['light', 'dark'] as const;
const DENSITIES = ['compact', 'comfortable'] as const;
const STATE_FLAGS = ['checked', 'selected', 'focused', 'disabled', 'expanded'] as const;
const PRIOR_RANGE: Range = PRIOR.kind === 'number' ? { min: PRIOR.min, max: PRIOR.max, above: PRIOR.above } : { min: 0, max: 100, above: true };
/** Rewards, confidences, advantages, levels: finite, and far from anything a float would overflow on. */
const SCORE: Range = { min: -1e6, max: 1e6 };
const POINT: Range = { min: -MAX_SIDE, max: 2 * MAX_SIDE };
const FONT_SIZE: Range = { min: 0, max: 1000, above: true };
const FONT_WEIGHT: Range = { min: 1, max: 1000 };
const CORNER: Range = { min: 0, max: 1000 };

export function groupRecord(v: unknown, runId: string, at: string): GroupRecord {
  const f = new Fields(v, at);
  const truth = f.obj('truth');
  const truthBox = truth.optObj('box');
  return {
    runId: f.runId(runId),
    iteration: f.int('iteration', MAX_ITERATION),
    batch: f.int('batch', MAX_INDEX),
    group: f.int('group', MAX_INDEX),
    task: taskOf(f.obj('task')),
    stepIndex: f.int('stepIndex', MAX_INDEX),
    screen: screenOf(f.obj('screen')),
    goal: f.str('goal'),
    truth: strip({
      instruction: truth.str('instruction'),
      type: truth.oneOf('type', ACTION_TYPES),
      box: truthBox && targetBox(truthBox),
      value: truth.optStr('value'),
      targetId: truth.optId('targetId'),
    }),
    pool: f.objs('pool').map((p) => ({ name: p.name('name'), prior: p.num('prior', PRIOR_RANGE) })),
    weighting: f.oneOf('weighting', WEIGHTINGS),
    informative: f.bool('informative'),
    samples: f.objs('samples').map(groupSample),
  };
}

function groupSample(f: Fields): GroupSample {
  const r = f.obj('reward');
  return strip({
    instruction: f.str('instruction'),
    reasoning: f.optStr('reasoning'),
    parsed: f.bool('parsed'),
    actionType: f.nullableOneOf('actionType', ACTION_TYPES),
    style: f.nullableOneOf('style', REF_STYLES),
    groundings: f.objs('groundings').map((g): GroupGrounding => {
      const point = g.nullableObj('point');
      return { point: point && { x: point.num('x', POINT), y: point.num('y', POINT) }, confidence: g.num('confidence', SCORE), hit: g.bool('hit') };
    }),
    reward: {
      type: r.num('type', SCORE),
      value: r.num('value', SCORE),
      plan: r.num('plan', SCORE),
      weights: r.numbers('weights', SCORE),
      hits: r.numbers('hits', SCORE),
      total: r.num('total', SCORE),
    },
    advantage: f.num('advantage', SCORE),
  });
}

function screenOf(f: Fields): Screen {
  const theme = f.obj('theme');
  return {
    platform: f.oneOf('platform', PLATFORMS),
    width: f.int('width', MAX_SIDE, 1),
    height: f.int('height', MAX_SIDE, 1),
    appId: f.id('appId'),
    variant: f.int('variant', MAX_INDEX),
    screenId: f.id('screenId'),
    title: f.str('title'),
    theme: {
      mode: theme.oneOf('mode', THEME_MODES),
      accent: theme.name('accent') as Screen['theme']['accent'],
      font: theme.name('font') as FontFamily,
      density: theme.oneOf('density', DENSITIES),
      corner: theme.num('corner', CORNER),
    },
    elements: f.objs('elements').map((e): UIElement => {
      const state = e.obj('state');
      const style = e.optObj('style');
      return strip({
        id: e.id('id'),
        role: e.name('role') as Role,
        box: elementBox(e.obj('box')),
        text: e.optStr('text'),
        icon: e.optStr('icon', 256) as UIElement['icon'],
        label: e.optStr('label'),
        color: e.optStr('color', 256) as UIElement['color'],
        purpose: e.optStr('purpose'),
        state: strip({
          ...Object.fromEntries(STATE_FLAGS.map((k) => [k, state.optBool(k)])),
          value: state.optStr('value'),
          level: state.optNum('level', SCORE),
        }),
        interactive: e.bool('interactive'),
        parent: e.optId('parent'),
        style: style && { family: style.name('family') as FontFamily, size: style.num('size', FONT_SIZE), weight: style.num('weight', FONT_WEIGHT) as TextStyle['weight'] },
      });
    }),
  };
}
