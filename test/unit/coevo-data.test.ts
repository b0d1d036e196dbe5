/**
 * The two data phases of the loop: D0 from the writer pool and the verifier
 * pool (seedData.ts), Ek distilled from a planner's sampled instructions
 * (distill.ts), and the pools they use (pools.ts). Tiny preset on WASM,
 * screens painted by syntheticScreenImage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '../../src/models/tf';
import '@tensorflow/tfjs-backend-wasm';
import { Random } from '../../src/learn/random';
import { defaultTokenizer } from '../../src/text/vocab';
import { grounderPreset, plannerPreset } from '../../src/models/presets';
import { initGrounder } from '../../src/models/grounder';
import { initPlanner } from '../../src/models/planner';
import { disposeParams, type Params } from '../../src/models/params';
import { verifierGrounder, type PoolGrounder } from '../../src/learn/plannerGrounderPool';
import { trainingPlannerStates, type PlannerState } from '../../src/learn/plannerStates';
import { parseInstruction, printInstruction } from '../../src/text/grammar';
import { isTrainingTask } from '../../src/world/suites';
import { verifyInstruction } from '../../src/world/verifier';
import { writeInstruction } from '../../src/world/writers';
import { REF_STYLES } from '../../src/world/types';
import type { StepSample } from '../../src/coevo/records';
import { buildSeedData, verifySeedCandidates, writeSeedCandidates } from '../../src/coevo/seedData';
import { distill, judgeSampled, type SampledInstruction } from '../../src/coevo/distill';
import { latestGenerations, poolVerdict, verifierPool, writerPool, type GrounderModel } from '../../src/coevo/pools';

const tok = defaultTokenizer();
const gcfg = grounderPreset('tiny');
const pcfg = plannerPreset('tiny');
let grounder: Params;
let planner: Params;
let g0: GrounderModel;

beforeAll(async () => {
  await tf.setBackend('wasm');
  await tf.ready();
  grounder = initGrounder(new Random(1), gcfg);
  planner = initPlanner(new Random(2), pcfg);
  g0 = { params: grounder, cfg: gcfg };
});

afterAll(() => {
  disposeParams(grounder);
  disposeParams(planner);
});

/** The screen a sample was taken on, from the states of its task. */
function screenOf(states: readonly PlannerState[], s: StepSample) {
  const st = states.find((x) => x.task.id === s.task.id && x.stepIndex === s.stepIndex);
  if (!st) throw new Error(`no state for ${s.id}`);
  return st.screen;
}

function expectProvenance(s: StepSample, runId: string): void {
  expect(s.runId).toBe(runId);
  expect(s.id.startsWith(`${runId}/${s.iteration}/`)).toBe(true);
  expect(s.curation.length).toBeGreaterThan(0);
  for (const n of s.curation) expect(n.reason.length).toBeGreaterThan(0);
  if (!s.kept) expect(s.curation.some((n) => n.decision === 'drop')).toBe(true);
  else expect(s.curation.every((n) => n.decision === 'keep')).toBe(true);
}

describe('pools', () => {
  it('keep the two latest generations; the verifier pool is the rule verifier plus grounders of earlier iterations, priors 1 : 1 : 2', () => {
    const gens = [3, 1, 2].map((iteration) => ({ iteration, model: iteration }));
    expect(latestGenerations(gens).map((g) => g.iteration)).toEqual([2, 3]);
    expect(() => latestGenerations([...gens, { iteration: 2, model: 9 }])).toThrow(/two models of iteration 2/);
    const planners = [0, 1, 2, 3].map((iteration) => ({ iteration, model: { params: planner, cfg: pcfg } }));
    expect(writerPool(1, planners).planners.map((p) => p.iteration)).toEqual([1]);
    expect(writerPool(3, planners).planners.map((p) => p.iteration)).toEqual([2, 3]);
    expect(writerPool(0, planners).planners).toEqual([]);

    const grounders = [0, 1, 2].map((iteration) => ({ iteration, model: g0 }));
    const at = (k: number) => verifierPool({ k, grounders, tok }).map((g) => `${g.name}:${g.prior}`);
    expect(at(0)).toEqual(['verifier:1']);
    expect(at(1)).toEqual(['verifier:1', 'grounder@0:2']);
    expect(at(3)).toEqual(['verifier:1', 'grounder@1:1', 'grounder@2:2']);
  });

  it('agree by the σ·c-weighted vote; a member without a point is a confident miss', () => {
    const box = { x: 10, y: 10, w: 20, h: 20 };
    const pool = [{ name: 'rule', prior: 1 }, { name: 'net', prior: 2 }] as PoolGrounder[];
    const hit = { x: 20, y: 20 };
    const miss = { x: 100, y: 100 };
    // A lucky, unconfident neural hit does not outvote a verifier that found no single element.
    expect(poolVerdict(pool, [{ point: null, confidence: 0 }, { point: hit, confidence: 0.01 }], box).agrees).toBe(false);
    expect(poolVerdict(pool, [{ point: hit, confidence: 1 }, { point: miss, confidence: 0.01 }], box).agrees).toBe(true);
    // Two confident neural hits (σ 2) outvote one verifier miss (σ 1).
    const v = poolVerdict(pool, [{ point: miss, confidence: 1 }, { point: hit, confidence: 1 }], box);
    expect(v.agreement).toBeCloseTo(Math.exp(2) / (Math.exp(1) + Math.exp(2)), 6);
    expect(v.agrees).toBe(true);
  });
});

describe('seed data (D0)', () => {
  it('is deterministic from its seed, uses only training tasks, and records provenance and a verifier note on every sample', async () => {
    const opts = { runId: 'run', tasks: 4, verifiers: [verifierGrounder()] };
    const a = await buildSeedData({ ...opts, rng: new Random(7) });
    const b = await buildSeedData({ ...opts, rng: new Random(7) });
    const c = await buildSeedData({ ...opts, rng: new Random(8) });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
    expect(a.length).toBeGreaterThan(10);
    expect(new Set(a.map((s) => s.task.id)).size).toBe(4);
    a.forEach((s, n) => {
      expect(s.id).toBe(`run/0/${n}`);
      expect(isTrainingTask(s.task)).toBe(true);
      expect(s).toMatchObject({ iteration: 0, phase: 'seed-data', origin: 'seed' });
      expect(s.source).toMatch(/^writer:/);
      expect(s.curation.map((n) => n.stage)).toEqual(['verifier']);
      expectProvenance(s, 'run');
      expect(parseInstruction(s.instruction)).not.toBeNull();
    });
    // Steps without a target still give (kept) planner samples; steps with one carry its box.
    expect(a.some((s) => s.box === undefined && s.kept)).toBe(true);
    expect(a.filter((s) => s.targetId !== undefined).every((s) => s.box !== undefined)).toBe(true);
  });

  it('drops most corrupted writer output at the verifier pool and keeps the clean output (pool with an untrained neural grounder)', async () => {
    const cands = writeSeedCandidates({ runId: 'run', rng: new Random(21), tasks: 5, errorRate: 0.4 });
    const pool = verifierPool({ k: 1, grounders: [{ iteration: 0, model: g0 }], tok });
    const before = tf.memory().numTensors;
    const samples = await verifySeedCandidates(cands, { verifiers: pool, chunk: 32 });
    expect(tf.memory().numTensors).toBe(before);
    const corrupted = cands.map((c, i) => ({ corrupted: c.corrupted, kept: samples[i].kept }));
    const written = corrupted.filter((x) => x.corrupted).length / cands.length;
    const keptSamples = corrupted.filter((x) => x.kept);
    const keptCorrupted = keptSamples.filter((x) => x.corrupted).length / Math.max(1, keptSamples.length);
    const cleanKept = corrupted.filter((x) => !x.corrupted && x.kept).length / corrupted.filter((x) => !x.corrupted).length;
    console.log(
      `seed: ${cands.length} written, corrupted ${(100 * written).toFixed(1)}% of written, ${(100 * keptCorrupted).toFixed(1)}% of kept; clean kept ${(100 * cleanKept).toFixed(1)}%`,
    );
    expect(written).toBeGreaterThan(0.1);
    expect(keptCorrupted).toBeLessThan(written / 4);
    expect(cleanKept).toBeGreaterThan(0.9);
    // Every kept targeted sample points at its element by the rule verifier.
    samples.forEach((s, i) => {
      const p = parseInstruction(s.instruction);
      if (s.kept && s.box && p) expect(verifyInstruction(cands[i].screen, p, s.targetId)).toBe(true);
      expect(s.curation[0].reason).toMatch(s.kept ? /agrees|nothing to ground/ : /disagrees|wrong step/);
    });
  });
});

describe('distillation (Ek)', () => {
  it('an untrained tiny planner: every sampled instruction comes back with provenance; kept ones verify, dropped ones say why; no tensor leaks', async () => {
    const states = trainingPlannerStates(new Random(4), 4).filter((s) => s.step.box).slice(0, 3);
    const before = tf.memory().numTensors;
    const out = await distill({
      runId: 'run',
      iteration: 1,
      rng: new Random(5),
      planner: { params: planner, cfg: pcfg },
      tok,
      states,
      samplesPerState: 2,
      temperature: 1,
      decodeBatch: 6,
      verifiers: verifierPool({ k: 1, grounders: [{ iteration: 0, model: g0 }], tok }),
      grounder: g0,
      curation: { tooEasy: true, misaligned: true, diversity: true, keepFraction: 0.5 },
      groupSize: 4,
    });
    expect(tf.memory().numTensors).toBe(before);
    expect(out).toHaveLength(6);
    out.forEach((s, n) => {
      expect(s.id).toBe(`run/1/${n}`);
      expect(s).toMatchObject({ iteration: 1, phase: 'distill', origin: 'distilled', source: 'planner@1' });
      expect(isTrainingTask(s.task)).toBe(true);
      expectProvenance(s, 'run');
      if (s.kept) expect(verifyInstruction(screenOf(states, s), parseInstruction(s.instruction) ?? { action: 'DONE', phrasing: 0 }, s.targetId)).toBe(true);
    });
    console.log(`distill, untrained planner: ${out.filter((s) => s.kept).length} of ${out.length} kept; e.g. ${JSON.stringify(out[0].instruction.slice(0, 60))}: ${out[0].curation.at(-1)?.reason}`);
  });

  it('judges written instructions: wrong ones and duplicates dropped at their stage, the rest through too-easy, misaligned and diversity, deterministically', async () => {
    const states = trainingPlannerStates(new Random(9), 12).filter((s) => s.step.box && s.step.targetId).slice(0, 6);
    expect(states.length).toBe(6);
    const rng = new Random(3);
    const sampled: SampledInstruction[] = [];
    const corrupted = new Set<number>();
    for (const st of states) {
      sampled.push({ state: st, text: st.instruction });
      const target = st.screen.elements.find((e) => e.id === st.step.targetId);
      for (const style of REF_STYLES) {
        const w = writeInstruction(st.screen, target, { type: st.step.type, value: st.step.value }, style, rng, { errorRate: 1 });
        if (w?.corrupted) {
          corrupted.add(sampled.length);
          sampled.push({ state: st, text: printInstruction(w.instruction) });
          break;
        }
      }
    }
    sampled.push({ state: states[0], text: states[0].instruction }); // a copy within Ek
    sampled.push({ state: states[1], text: 'type "zzz" into the nothing' }); // does not parse, or names the wrong step
    const existing: StepSample[] = [{ ...(await buildSeedData({ runId: 'seed', rng: new Random(1), tasks: 1, verifiers: [verifierGrounder()] }))[0] }];
    // D(k−1) already holds states[2]'s oracle instruction, kept.
    Object.assign(existing[0], { task: states[2].task, stepIndex: states[2].stepIndex, instruction: printInstruction(states[2].step.instruction), kept: true });
    const pool: PoolGrounder[] = [verifierGrounder(), ...verifierPool({ k: 1, grounders: [{ iteration: 0, model: g0 }], tok }).slice(1)];
    const run = () =>
      judgeSampled(sampled, {
        runId: 'run',
        iteration: 2,
        source: 'planner@2',
        rng: new Random(11),
        tok,
        verifiers: pool,
        grounder: g0,
        curation: { tooEasy: true, misaligned: true, diversity: true, keepFraction: 0.5 },
        groupSize: 4,
        existing,
        groundBatch: 8,
      });
    const before = tf.memory().numTensors;
    const out = await run();
    expect(tf.memory().numTensors).toBe(before);
    expect(JSON.stringify(await run())).toBe(JSON.stringify(out));

    const dropAt = (s: StepSample) => s.curation.find((n) => n.decision === 'drop');
    expect(corrupted.size).toBeGreaterThan(2);
    for (const i of corrupted) expect(dropAt(out[i])?.stage).toBe('verifier');
    expect(dropAt(out[sampled.length - 2])?.reason).toMatch(/^duplicate: .* as run\/2\/0$/);
    expect(dropAt(out[sampled.length - 1])?.stage).toBe('verifier');
    const seedCopy = out.find((s) => s.stepIndex === states[2].stepIndex && s.task.id === states[2].task.id && s.instruction === existing[0].instruction);
    expect(dropAt(seedCopy as StepSample)?.reason).toBe(`duplicate: same task, step and instruction as ${existing[0].id}`);

    // Survivors of the verifier went through too-easy (and misaligned); diversity kept half of what was left.
    const verified = out.filter((s) => s.curation.some((n) => n.stage === 'verifier' && n.decision === 'keep'));
    expect(verified.length).toBeGreaterThanOrEqual(4);
    for (const s of verified) expect(s.curation[1].stage).toBe('too-easy');
    const atDiversity = out.filter((s) => s.curation.some((n) => n.stage === 'diversity' && !n.reason.startsWith('duplicate')));
    expect(atDiversity.length).toBeGreaterThanOrEqual(4);
    expect(out.filter((s) => s.kept)).toHaveLength(Math.round(0.5 * atDiversity.length));
    for (const s of out) {
      expectProvenance(s, 'run');
      if (s.kept) expect(verifyInstruction(screenOf(states, s), parseInstruction(s.instruction) ?? { action: 'DONE', phrasing: 0 }, s.targetId)).toBe(true);
    }
  });

  it('refuses bad options with the field named', async () => {
    const base = {
      runId: 'r',
      iteration: 1,
      source: 'planner@1',
      rng: new Random(1),
      tok,
      verifiers: [verifierGrounder()],
      grounder: g0,
      curation: { tooEasy: true, misaligned: true, diversity: true, keepFraction: 0.5 },
      groupSize: 4,
    };
    await expect(judgeSampled([], { ...base, curation: { ...base.curation, keepFraction: 0 } })).rejects.toThrow(/keepFraction/);
    await expect(judgeSampled([], { ...base, iteration: 0 })).rejects.toThrow(/iteration/);
    await expect(judgeSampled([], { ...base, verifiers: [] })).rejects.toThrow(/verifier pool is empty/);
    await expect(buildSeedData({ runId: 'r', rng: new Random(1), tasks: 0, verifiers: [verifierGrounder()] })).rejects.toThrow(/tasks/);
  });
});
