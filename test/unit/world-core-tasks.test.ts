import { verifyInstruction } from '../../src/world/verifier';
import { refOf } from '../../src/world/tasks/oracle';
import { describe, expect, it } from 'vitest';
import { act, createWorld, screenOf } from '../../src/world/env';
import { contains } from '../../src/world/hit';
import { TEMPLATES, goalReached, makeTask, oracle } from '../../src/world/tasks';
import { APPS } from '../../src/world/apps';
import { layoutProblems } from './world-core-check';

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);

describe('task templates', () => {
  it('has at least 8 templates for each of mail and settings, with unique ids', () => {
    expect(TEMPLATES.filter((t) => t.appId === 'mail').length).toBeGreaterThanOrEqual(8);
    expect(TEMPLATES.filter((t) => t.appId === 'settings').length).toBeGreaterThanOrEqual(8);
    expect(new Set(TEMPLATES.map((t) => t.id)).size).toBe(TEMPLATES.length);
  });

  for (const template of TEMPLATES) {
    it(`${template.id}: the oracle reaches the goal and no proper prefix does`, () => {
      const variants = new Set<number>();
      for (const seed of SEEDS) {
        const task = makeTask(template, seed);
        variants.add(task.variant);
        const steps = oracle(task);
        expect(steps.length).toBeGreaterThanOrEqual(1);
        expect(steps.length).toBeLessThanOrEqual(10);
        if (task.platform === 'mobile') expect(steps[0].type).toBe('OPEN_APP');
        let state = createWorld(task);
        for (const step of steps) {
          expect(goalReached(task, state), `${task.id}: goal before step ${step.type}`).toBe(false);
          const screen = screenOf(state);
          expect(layoutProblems(screen), `${task.id} on ${screen.screenId}`).toEqual([]);
          expect(step.action.type).toBe(step.type);
          if (step.targetId) {
            const el = screen.elements.find((e) => e.id === step.targetId);
            expect(el, `${task.id}: target ${step.targetId}`).toBeDefined();
            expect(el!.interactive).toBe(true);
            expect(step.box).toEqual(el!.box);
            const a = step.action;
            const pt = 'x' in a && a.x !== undefined && a.y !== undefined ? { x: a.x, y: a.y } : undefined;
            expect(pt).toBeDefined();
            expect(contains(el!.box, pt!.x, pt!.y)).toBe(true);
            const ref = step.instruction.ref!;
            // The canonical ref names the target plainly (text or icon) when that is unique,
            // else in the first style that singles it out.
            if (verifyInstruction(screen, step.instruction, el!.id)) {
              if (ref.style === 'text') expect([el!.text, el!.label]).toContain(ref.text);
              else if (ref.style === 'icon') expect(ref.icon).toBe(el!.icon);
            } else {
              expect(ref).toEqual(refOf(el!)); // no style can single it out here
            }
          }
          expect(step.instruction.action).toBe(step.type);
          expect(step.instruction.phrasing).toBe(0);
          state = act(state, step.action);
          // State stays plain data: a JSON round trip changes nothing.
          expect(JSON.parse(JSON.stringify(state))).toEqual(state);
        }
        expect(goalReached(task, state), `${task.id}: goal after all steps`).toBe(true);
        expect(layoutProblems(screenOf(state))).toEqual([]);
      }
      const app = APPS.find((a) => a.id === template.appId)!;
      expect(variants.size, 'seeds should reach more than one variant').toBeGreaterThan(1);
      expect(variants.size).toBeLessThanOrEqual(app.variants.length);
    });
  }

  it('is deterministic: same seed, same task, same oracle, same element trees', () => {
    for (const template of TEMPLATES) {
      for (const seed of [1, 7, 13]) {
        const a = makeTask(template, seed);
        const b = makeTask(template, seed);
        expect(a).toEqual(b);
        const sa = oracle(a);
        expect(oracle(b)).toEqual(sa);
        let x = createWorld(a);
        let y = createWorld(b);
        for (const step of sa) {
          expect(screenOf(x)).toEqual(screenOf(y));
          x = act(x, step.action);
          y = act(y, step.action);
        }
        expect(screenOf(x)).toEqual(screenOf(y));
        expect(x).toEqual(y);
      }
    }
  });

  it('different seeds give different data and task ids', () => {
    const t = TEMPLATES.find((x) => x.id === 'mail.open')!;
    const ids = new Set(SEEDS.map((s) => makeTask(t, s).id));
    expect(ids.size).toBeGreaterThan(15);
    const screens = new Set(SEEDS.slice(0, 5).map((s) => JSON.stringify(screenOf(createWorld(makeTask(t, s))).elements.map((e) => e.text))));
    expect(screens.size).toBe(5);
  });
});
