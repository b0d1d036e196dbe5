import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { act, createWorld, layoutOf, screenOf, type WorldState } from '../../src/world/env';
import { centerOf } from '../../src/world/hit';
import { TEMPLATES, goalReached, makeTask, oracle } from '../../src/world/tasks';
import { APPS } from '../../src/world/apps';
import type { Task } from '../../src/world/types';
import { layoutProblems } from './world-core-check';

const MY_APPS = ['news', 'files'].filter((id) => APPS.some((a) => a.id === id));
const mine = TEMPLATES.filter((t) => MY_APPS.includes(t.appId));

/** Runs the oracle of `task` and returns every state it passes through. */
function trace(task: Task): WorldState[] {
  const states = [createWorld(task)];
  for (const step of oracle(task)) states.push(act(states[states.length - 1], step.action));
  return states;
}

describe('news and files apps', () => {
  it('registers both apps with at least seven templates each', () => {
    expect(MY_APPS).toEqual(['news', 'files']);
    for (const id of MY_APPS) expect(mine.filter((t) => t.appId === id).length).toBeGreaterThanOrEqual(7);
  });

  it('solves every template on every variant over many seeds, goal only at the end', () => {
    for (const template of mine) {
      const app = APPS.find((a) => a.id === template.appId)!;
      for (let seed = 1; seed <= 40; seed++) {
        const base = makeTask(template, seed);
        const task = { ...base, variant: seed % app.variants.length };
        const states = trace(task);
        expect(states.length - 1, task.id).toBeLessThanOrEqual(10);
        states.slice(0, -1).forEach((s) => expect(goalReached(task, s), `${task.id}: early goal`).toBe(false));
        expect(goalReached(task, states[states.length - 1]), `${task.id}: goal`).toBe(true);
        for (const s of states) expect(layoutProblems(screenOf(s)), `${task.id} ${screenOf(s).screenId}`).toEqual([]);
      }
    }
  });

  it('keeps every screen sound under random clicking, typing and scrolling', () => {
    const rng = new Random(99);
    for (const appId of MY_APPS) {
      const template = mine.find((t) => t.appId === appId)!;
      const app = APPS.find((a) => a.id === appId)!;
      for (let run = 0; run < 40; run++) {
        const task = { ...makeTask(template, run + 1), variant: run % app.variants.length };
        let state = createWorld(task);
        for (let i = 0; i < 30; i++) {
          const lay = layoutOf(state);
          expect(layoutProblems(lay.screen), `${appId} run ${run} step ${i} ${lay.screen.screenId}`).toEqual([]);
          const targets = lay.screen.elements.filter((e) => e.interactive);
          const r = rng.next();
          if (r < 0.1) state = act(state, { type: 'SCROLL', direction: rng.chance(0.7) ? 'down' : 'up' });
          else if (r < 0.15) state = act(state, { type: 'BACK' });
          else if (targets.length) {
            const el = rng.pick(targets);
            const p = centerOf(el.box);
            if (el.role === 'text-field' || el.role === 'search-box') state = act(state, { type: 'TYPE', text: rng.pick(['report', 'a@b.co', 'New name', 'Tech']), ...p });
            else if (el.role === 'slider') state = act(state, { type: 'SELECT', option: `${rng.int(0, 10) * 10}%`, ...p });
            else state = act(state, { type: 'CLICK', ...p });
          }
          expect(JSON.parse(JSON.stringify(state))).toEqual(state);
        }
      }
    }
  });

  it('gives over a thousand distinct tasks per app across seeds', () => {
    for (const appId of MY_APPS) {
      const ids = new Set<string>();
      for (const template of mine.filter((t) => t.appId === appId)) {
        for (let seed = 1; seed <= 1500; seed++) {
          const task = makeTask(template, seed);
          ids.add(`${task.templateId}|${JSON.stringify(task.params)}`);
        }
      }
      expect(ids.size, appId).toBeGreaterThan(1000);
    }
  });
});
