import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { appById } from '../../src/world/env';
import {
  buildSuites, HELD_OUT_DOMAINS, HELD_OUT_SITES, HELD_OUT_TEMPLATES, isTrainingTask, stateBefore, TEST_SEED_BASE, trainingTasks, TRAINING_TEMPLATES,
} from '../../src/world/suites';
import { screenOf } from '../../src/world/env';
import { TEMPLATES } from '../../src/world/tasks';

const SMALL = { webPerSplit: 12, mobile: 12, groundingPerSplit: 12 };

describe('benchmark suites and training draws', () => {
  it('holds out sites of seen domains, a whole domain, and templates on every seen app', () => {
    for (const site of HELD_OUT_SITES) {
      const domain = appById(site).domain;
      const seenSibling = TRAINING_TEMPLATES.some((t) => t.domain === domain);
      expect(seenSibling, `${site}'s domain ${domain} must also have a training site`).toBe(true);
    }
    for (const domain of HELD_OUT_DOMAINS) expect(TEMPLATES.some((t) => t.domain === domain)).toBe(true);
    const seenApps = new Set(TRAINING_TEMPLATES.map((t) => t.appId));
    for (const app of seenApps) expect([...HELD_OUT_TEMPLATES].some((id) => id.startsWith(`${app}.`)), app).toBe(true);
  });

  it('never draws a held-out site, domain, template or seed for training', () => {
    const tasks = trainingTasks(new Random(7), 1500);
    expect(tasks.length).toBe(1500);
    for (const t of tasks) {
      expect(HELD_OUT_SITES).not.toContain(t.appId);
      expect(HELD_OUT_DOMAINS).not.toContain(t.domain);
      expect(HELD_OUT_TEMPLATES.has(t.templateId)).toBe(false);
      expect(t.seed).toBeLessThan(TEST_SEED_BASE);
      expect(isTrainingTask(t)).toBe(true);
    }
    // Every training template is reachable by the sampler.
    expect(new Set(tasks.map((t) => t.templateId)).size).toBe(TRAINING_TEMPLATES.length);
  });

  it('builds every split from held-out data only', () => {
    const s = buildSuites(1, SMALL);
    expect(s.web['cross-task'].length).toBe(12);
    expect(s.web['cross-site'].length).toBe(12);
    expect(s.web['cross-domain'].length).toBe(12);
    expect(s.mobile.length).toBe(12);
    for (const t of s.web['cross-task']) expect(HELD_OUT_TEMPLATES.has(t.templateId)).toBe(true);
    for (const t of s.web['cross-site']) expect(HELD_OUT_SITES).toContain(t.appId);
    for (const t of s.web['cross-domain']) expect(HELD_OUT_DOMAINS).toContain(t.domain);
    for (const t of s.mobile) expect(t.platform).toBe('mobile');
    const all = [...Object.values(s.web).flat(), ...s.mobile, ...Object.values(s.grounding).flat().map((q) => q.task)];
    for (const t of all) {
      expect(t.seed).toBeGreaterThanOrEqual(TEST_SEED_BASE);
      expect(isTrainingTask(t)).toBe(false);
    }
  });

  it('grounding queries point at the right element, split by platform and text/icon target', () => {
    const s = buildSuites(1, SMALL);
    for (const [split, queries] of Object.entries(s.grounding)) {
      expect(queries.length, split).toBe(12);
      const [platform, kind] = split.split('-');
      for (const q of queries) {
        expect(q.task.platform).toBe(platform);
        expect(q.instruction.ref?.style).toBe(kind);
        const el = screenOf(stateBefore(q.task, q.stepIndex)).elements.find((e) => e.id === q.targetId);
        expect(el?.box).toEqual(q.box);
      }
    }
  });

  it('is deterministic from its seed', () => {
    expect(JSON.stringify(buildSuites(3, SMALL))).toBe(JSON.stringify(buildSuites(3, SMALL)));
    expect(JSON.stringify(buildSuites(3, SMALL))).not.toBe(JSON.stringify(buildSuites(4, SMALL)));
  });
});
