import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, ConfigError, applySet, defaultConfig, validateConfig, type CoevoConfig, type ConfigPath } from '../../src/coevo/config';
import { GROUNDER_BETA, GROUP_SIZE, GRPO_EPSILON, PLANNER_BETA, SAMPLING_TEMPERATURE } from '../../src/learn/grpo';
import { PRESET_NAMES } from '../../src/models/presets';

/** The ConfigError `fn` throws (fails the test when it throws nothing or something else). */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError, but nothing was thrown');
}

function tiny(): CoevoConfig {
  return defaultConfig('tiny', 1);
}

/** A copy of the tiny config with one dotted field replaced. */
function withField(path: string, value: unknown): Record<string, unknown> {
  const c = JSON.parse(JSON.stringify(tiny())) as Record<string, Record<string, unknown>>;
  const [head, leaf] = path.split('.');
  if (leaf === undefined) (c as Record<string, unknown>)[head] = value;
  else c[head][leaf] = value;
  return c;
}

describe('defaults', () => {
  it('every preset gives a valid config, growing from tiny to full', () => {
    const cs = PRESET_NAMES.map((p) => defaultConfig(p, 7));
    for (const c of cs) expect(validateConfig(c)).toEqual(c);
    expect(cs.map((c) => c.preset)).toEqual(['tiny', 'demo', 'full']);
    expect(cs.every((c) => c.seed === 7)).toBe(true);
    // Base models ship for tiny and demo (SHIPPED_BASES); full starts from scratch until its do.
    expect(cs.map((c) => c.start)).toEqual(['base', 'base', 'scratch']);
    for (const key of ['plannerSftSteps', 'grounderTrainSteps', 'seedTasks', 'evalSize'] as const) {
      expect(cs[0][key]).toBeLessThan(cs[1][key]);
      expect(cs[1][key]).toBeLessThan(cs[2][key]);
    }
  });

  it('tiny has the small step counts of the brief and METHOD.md GRPO constants', () => {
    const c = tiny();
    expect(c).toMatchObject({
      iterations: 3,
      start: 'base',
      plannerSftSteps: 60,
      grounderSftSteps: 60,
      plannerGrpoSteps: 20,
      grounderTrainSteps: 30,
      grounderSftLr: 1e-3,
      plannerBatch: 8,
      grounderBatch: 8,
      grpoPrompts: 4,
      seedTasks: 20,
      distillStates: 512,
      evalSize: 32,
      coevo: true,
    });
    expect([c.groupSize, c.temperature, c.beta, c.grounderBeta, c.epsilon]).toEqual([GROUP_SIZE, SAMPLING_TEMPERATURE, PLANNER_BETA, GROUNDER_BETA, GRPO_EPSILON]);
    expect(c.rewardPool.map((e) => `${e.name}:${e.prior}`)).toEqual(['verifier:1', 'previous:1', 'current:2']);
  });

  it('refuses an unknown preset or a bad seed', () => {
    expect(configError(() => defaultConfig('huge' as 'tiny', 1)).field).toBe('preset');
    const e = configError(() => defaultConfig('tiny', -1));
    expect(e.field).toBe('seed');
    expect(e.message).toBe('seed must be an integer from 0 to 2147483647; got -1');
  });
});

describe('validateConfig', () => {
  it('names the field, its range and the value given', () => {
    const e = configError(() => validateConfig(withField('groupSize', 1)));
    expect(e.field).toBe('groupSize');
    expect(e.message).toBe('groupSize must be an integer from 2 to 16; got 1');

    const r = configError(() => validateConfig(withField('lora.rank', 65)));
    expect(r.field).toBe('lora.rank');
    expect(r.message).toBe('lora.rank must be an integer from 1 to 64; got 65');

    expect(configError(() => validateConfig(withField('iterations', 1.5))).message).toBe('iterations must be an integer from 0 to 10; got 1.5');
    expect(configError(() => validateConfig(withField('iterations', 11))).field).toBe('iterations');
    expect(configError(() => validateConfig(withField('plannerSftLr', 0))).message).toBe('plannerSftLr must be a number greater than 0 and at most 0.1; got 0');
    expect(configError(() => validateConfig(withField('grounderGrpoLr', 0.2))).field).toBe('grounderGrpoLr');
    expect(configError(() => validateConfig(withField('temperature', '0.9'))).message).toBe('temperature must be a number from 0.1 to 2; got "0.9"');
    expect(configError(() => validateConfig(withField('writerErrorRate', Number.NaN))).field).toBe('writerErrorRate');
    expect(configError(() => validateConfig(withField('aggregation', 'ppo'))).message).toBe("aggregation must be one of 'grpo', 'dapo', 'dr_grpo'; got \"ppo\"");
    expect(configError(() => validateConfig(withField('curation.keepFraction', 0))).field).toBe('curation.keepFraction');
    expect(configError(() => validateConfig(withField('coevo', 'false'))).message).toBe('coevo must be true or false; got "false"');
  });

  it('accepts the edges of each range', () => {
    for (const [path, v] of [
      ['groupSize', 2],
      ['groupSize', 16],
      ['iterations', 0],
      ['beta', 0],
      ['plannerGrpoLr', 0.1],
      ['curation.keepFraction', 1],
      ['writerErrorRate', 0.5],
      ['lora.rank', 1],
    ] as const) {
      expect(() => validateConfig(withField(path, v)), `${path}=${v}`).not.toThrow();
    }
  });

  it('the range text of CONFIG_FIELDS is the one the validator uses, for every field', () => {
    const paths = Object.keys(CONFIG_FIELDS) as ConfigPath[];
    expect(paths).toContain('lora.alpha');
    expect(paths).toContain('curation.tooEasy');
    for (const p of paths) {
      const e = configError(() => validateConfig(withField(p, null)));
      expect(e.field, p).toBe(p);
      expect(e.message, p).toBe(`${p} must be ${CONFIG_FIELDS[p].range}; got null`);
      expect(CONFIG_FIELDS[p].help.length, p).toBeGreaterThan(0);
    }
    expect(CONFIG_FIELDS.groupSize.range).toBe('an integer from 2 to 16');
  });

  it('refuses unknown and missing fields, suggesting the near name', () => {
    const top = configError(() => validateConfig({ ...tiny(), groupsize: 4 }));
    expect(top.field).toBe('groupsize');
    expect(top.message).toContain("Did you mean 'groupSize'?");

    const nested = configError(() => validateConfig({ ...tiny(), lora: { enabled: true, rank: 4, alpha: 8, rnak: 2 } }));
    expect(nested.field).toBe('lora.rnak');
    expect(nested.message).toContain("Did you mean 'rank'?");

    const missing = { ...tiny() } as Partial<CoevoConfig>;
    delete missing.epsilon;
    expect(configError(() => validateConfig(missing)).message).toBe('epsilon must be a number from 0 to 1; got nothing');

    // A run stored before a field existed ran without it: it reads back as it ran, not as today's default.
    const older = { ...tiny() } as Partial<CoevoConfig>;
    delete older.grpoScreen;
    delete older.plannerCopyGate;
    delete older.grpoTargetedOnly;
    delete older.plannerSftOnBase;
    delete older.onlineEpisodes;
    expect(tiny()).toMatchObject({ grpoScreen: 3, grpoTargetedOnly: false, plannerSftOnBase: false, onlineEpisodes: 0 });
    expect(validateConfig(older)).toMatchObject({ grpoScreen: 1, plannerCopyGate: false, grpoTargetedOnly: true, plannerSftOnBase: true, onlineEpisodes: 0 });
    expect(applySet(tiny(), 'onlineEpisodes=48').onlineEpisodes).toBe(48);
    expect(configError(() => applySet(tiny(), 'onlineEpisodes=2.5')).message).toBe('onlineEpisodes must be an integer from 0 to 10000; got 2.5');
    expect(configError(() => validateConfig({ ...tiny(), grpoScreen: 0 })).message).toBe('grpoScreen must be an integer from 1 to 16; got 0');

    expect(configError(() => validateConfig({ ...tiny(), curation: true })).field).toBe('curation');
    expect(configError(() => validateConfig(null)).field).toBe('');
    expect(configError(() => validateConfig([])).field).toBe('');
  });

  it('checks the reward pool entry by entry', () => {
    const pool = (p: unknown) => configError(() => validateConfig(withField('rewardPool', p)));
    expect(pool([]).field).toBe('rewardPool');
    expect(pool([{ name: 'verifier', prior: 1 }, { name: 'current', prior: 0 }]).message).toBe(
      'rewardPool[1].prior must be a number greater than 0 and at most 100; got 0',
    );
    expect(pool([{ name: 'oracle', prior: 1 }]).field).toBe('rewardPool[0].name');
    expect(pool([{ name: 'current', prior: 1 }, { name: 'current', prior: 2 }]).message).toContain("'current' twice");
    expect(pool([{ name: 'current', prior: 1, weight: 2 }]).field).toBe('rewardPool[0].weight');
    expect(pool([{ name: 'current', prior: 1 }, { name: 'previous', prior: 1 }, { name: 'verifier', prior: 1 }, { name: 'verifier', prior: 1 }]).field).toBe(
      'rewardPool',
    );
    expect(validateConfig(withField('rewardPool', [{ name: 'current', prior: 3 }])).rewardPool).toEqual([{ name: 'current', prior: 3 }]);
  });

  it('returns a copy that later changes to the input do not reach', () => {
    const input = tiny();
    const out = validateConfig(input);
    input.lora.rank = 9;
    input.rewardPool[0].prior = 50;
    expect(out.lora.rank).toBe(4);
    expect(out.rewardPool[0].prior).toBe(1);
  });
});

describe('applySet', () => {
  it('sets numbers, booleans, enums, dotted fields and the reward pool', () => {
    const c = tiny();
    expect(applySet(c, 'groupSize=4').groupSize).toBe(4);
    expect(applySet(c, 'plannerGrpoLr=5e-4').plannerGrpoLr).toBe(5e-4);
    expect(applySet(c, 'curation.diversity=false').curation).toEqual({ ...c.curation, diversity: false });
    expect(applySet(c, 'coevo=false').coevo).toBe(false);
    expect(applySet(c, 'aggregation=dr_grpo').aggregation).toBe('dr_grpo');
    expect(applySet(c, ' lora.enabled = true ').lora.enabled).toBe(true);
    expect(applySet(c, 'rewardPool=verifier:1,current:2').rewardPool).toEqual([
      { name: 'verifier', prior: 1 },
      { name: 'current', prior: 2 },
    ]);
    expect(c.groupSize).toBe(7); // the input is untouched
    expect(c.curation.diversity).toBe(true);
  });

  it('refuses bad keys and values with the field named', () => {
    const c = tiny();
    const bad = (a: string) => configError(() => applySet(c, a));
    expect(bad('groupSize=1').message).toBe('groupSize must be an integer from 2 to 16; got 1');
    expect(bad('groupSize=abc').message).toBe('groupSize must be an integer from 2 to 16; got "abc"');
    expect(bad('groupSize=').field).toBe('groupSize');
    expect(bad('seed=0x10').field).toBe('seed');
    expect(bad('curation.diversity=yes').message).toBe('curation.diversity must be true or false; got "yes"');
    expect(bad('pointReward=medium').field).toBe('pointReward');
    expect(bad('rewardPool=verifier').field).toBe('rewardPool');
    expect(bad('rewardPool=verifier:1,verifier:2').field).toBe('rewardPool[1].name');
    expect(bad('grupSize=4').message).toContain("Did you mean 'groupSize'?");
    expect(bad('lora.rnak=2').field).toBe('lora.rnak');
    const group = bad('lora=3');
    expect(group.field).toBe('lora');
    expect(group.message).toContain('lora.rank');
    expect(bad('groupSize').field).toBe('');
  });
});
