/**
 * Every task template, and the three things done with a task: make it from a
 * template and a seed, solve it with the oracle, check its goal on a state.
 * To add templates: one import line and one spread entry in TEMPLATES.
 */
import { Random, hashString } from '../../learn/random';
import { act, appById, createWorld, initialAppState, type WorldState } from '../env';
import type { OracleStep, Task } from '../types';
import { runIntents } from './oracle';
import type { AnyTemplate } from './template';
import { MAIL_TEMPLATES } from './mail';
import { SETTINGS_TEMPLATES } from './settings';
import { SHOP_TEMPLATES } from './shop';
import { BOOKS_TEMPLATES } from './books';
import { FLIGHTS_TEMPLATES } from './flights';
import { HOTELS_TEMPLATES } from './hotels';
import { CONTACTS_TEMPLATES } from './contacts';
import { CALENDAR_TEMPLATES } from './calendar';
import { NOTES_TEMPLATES } from './notes';
import { MUSIC_TEMPLATES } from './music';
import { NEWS_TEMPLATES } from './news';
import { FILES_TEMPLATES } from './files';

export const TEMPLATES: AnyTemplate[] = [
  ...MAIL_TEMPLATES,
  ...SETTINGS_TEMPLATES,
  ...SHOP_TEMPLATES,
  ...BOOKS_TEMPLATES,
  ...FLIGHTS_TEMPLATES,
  ...HOTELS_TEMPLATES,
  ...CONTACTS_TEMPLATES,
  ...CALENDAR_TEMPLATES,
  ...NOTES_TEMPLATES,
  ...MUSIC_TEMPLATES,
  ...NEWS_TEMPLATES,
  ...FILES_TEMPLATES,
];

export function templateById(id: string): AnyTemplate {
  const t = TEMPLATES.find((x) => x.id === id);
  if (!t) throw new Error(`unknown template ${id}`);
  return t;
}

/**
 * A concrete task: `seed` fixes the app's data; `rng` (default: derived from
 * the template and seed) draws params, visual variant and goal phrasing.
 * Throws when this seed's data admits no task of this template.
 */
export function makeTask(template: AnyTemplate, seed: number, rng?: Random): Task {
  const r = rng ?? new Random((hashString(template.id) ^ seed) >>> 0);
  const app = appById(template.appId);
  const params = template.sample(r, initialAppState(app, seed));
  if (!params) throw new Error(`template ${template.id}: no task for seed ${seed}`);
  const variant = r.int(0, app.variants.length - 1);
  const goal = r.pick(template.phrasings)(params);
  const keys = Object.keys(params).sort();
  const id = `${template.id}|s${seed}|v${variant}|${keys.map((k) => `${k}=${params[k]}`).join(';')}`;
  return { id, templateId: template.id, appId: app.id, domain: template.domain, platform: template.platform, variant, seed, params, goal };
}

/** The oracle's solution from the task's starting world (mobile tasks open the app first). */
export function oracle(task: Task): OracleStep[] {
  const template = templateById(task.templateId);
  const app = appById(task.appId);
  let state = createWorld(task);
  const steps: OracleStep[] = [];
  if (task.platform === 'mobile') {
    steps.push({ action: { type: 'OPEN_APP', app: app.name }, type: 'OPEN_APP', value: app.name, instruction: { action: 'OPEN_APP', app: app.name, phrasing: 0 } });
    state = act(state, { type: 'OPEN_APP', app: app.name });
  }
  const plan = template.plan(task.params, state.apps[app.id]);
  return steps.concat(runIntents(state, plan).steps);
}

export function goalReached(task: Task, state: WorldState): boolean {
  const appState = state.apps[task.appId];
  return appState !== undefined && templateById(task.templateId).goal(task.params, appState);
}
