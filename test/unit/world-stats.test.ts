import { describe, expect, it } from 'vitest';
import { worldStats } from '../../src/world/catalog';
import { FONT_FAMILIES } from '../../src/world/render/font-faces';

describe('world stats', () => {
  it('meet the counts the world promises', () => {
    const s = worldStats(100);
    console.log(`apps ${s.apps}, domains ${s.domains.length}, variants ${s.variants.total}, widget kinds ${s.widgetKinds.length}, templates ${s.templates}, distinct tasks over 100 seeds ${s.distinctTasks.count}, steps ${s.stepsPerTask.min}-${s.stepsPerTask.max}`);
    expect(s.platforms.sort()).toEqual(['mobile', 'web']);
    expect(s.apps).toBeGreaterThanOrEqual(10);
    expect(s.domains.length).toBeGreaterThanOrEqual(5);
    expect(s.variants.min).toBeGreaterThanOrEqual(2);
    expect(s.widgetKinds.length).toBeGreaterThanOrEqual(14);
    expect(s.templates).toBeGreaterThanOrEqual(60);
    expect(s.distinctTasks.count).toBeGreaterThanOrEqual(10_000);
    expect(s.stepsPerTask.min).toBeGreaterThanOrEqual(1);
    expect(s.stepsPerTask.max).toBeLessThanOrEqual(10);
    expect(s.styles.length).toBe(6);
    expect(s.icons).toBeGreaterThanOrEqual(30);
    expect(FONT_FAMILIES.length).toBeGreaterThanOrEqual(3);
  });
});
