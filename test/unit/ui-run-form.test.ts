import { describe, expect, it } from 'vitest';
import { applySet, CONFIG_FIELDS, defaultConfig, type ConfigPath } from '../../src/coevo/config';
import { FORM_GROUPS, QUICK_FIELDS, judge, runName, fieldText, baseConfig, type RunBasics } from '../../src/ui/newrun/runForm';

const TINY: RunBasics = { preset: 'tiny', seed: 1, iterations: 3, start: 'base' };

describe('the New-run form', () => {
  it('shows every config field once: the quick controls, then exactly one group each', () => {
    const inForm = [...QUICK_FIELDS, ...FORM_GROUPS.flatMap((g) => g.fields)];
    expect(new Set(inForm).size).toBe(inForm.length);
    expect([...inForm].sort()).toEqual((Object.keys(CONFIG_FIELDS) as ConfigPath[]).sort());
  });

  it('writes each field as --set reads it back', () => {
    const c = defaultConfig('tiny', 1);
    for (const p of Object.keys(CONFIG_FIELDS) as ConfigPath[]) expect(fieldText(applySet(c, `${p}=${fieldText(c, p)}`), p)).toBe(fieldText(c, p));
    expect(fieldText(c, 'rewardPool')).toBe('verifier:1,previous:1,current:2');
  });

  it('names a run by what differs from the defaults', () => {
    expect(judge(TINY, {}).name).toBe('tiny · seed 1');
    const v = judge(TINY, { coevo: 'false', groupSize: '7' });
    expect(v.name).toBe('tiny · seed 1 · coevo=false');
    expect(v.set).toEqual(['coevo=false']);
    expect(v.config?.coevo).toBe(false);
    expect(runName({ ...TINY, seed: 4, iterations: 2, start: 'scratch' }, baseConfig({ ...TINY, seed: 4, iterations: 2, start: 'scratch' }))).toBe('tiny · seed 4 · K = 2 · start=scratch');
    const many = judge(TINY, { beta: '0.1', epsilon: '0.3', temperature: '1', groupSize: '4', 'lora.enabled': 'true', 'lora.rank': '8', coevo: 'false' });
    expect(many.name.split(' · ').at(-1)).toBe('+2 more');
  });

  it('refuses a bad value with the validator’s own message, per field, and starts nothing', () => {
    const v = judge(TINY, { groupSize: '1', 'curation.keepFraction': '0', coevo: 'false', rewardPool: 'verifier:1,verifier:2' });
    expect(v.config).toBeNull();
    expect(v.errors.groupSize).toBe('groupSize must be an integer from 2 to 16; got 1');
    expect(v.errors['curation.keepFraction']).toBe('curation.keepFraction must be a number greater than 0 and at most 1; got 0');
    expect(v.errors.rewardPool).toContain('at most once');
    expect(v.errors.coevo).toBeUndefined();
    expect(() => applySet(defaultConfig('tiny', 1), 'groupSize=1')).toThrow(v.errors.groupSize!);
  });
});
