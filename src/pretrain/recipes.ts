/**
 * The recipes `npm run pretrain` runs: how many steps of which stage each
 * base model gets per preset, and which held-out figures it is measured on.
 * The step counts are the ones the slow tests ran (test/slow/pretrain-*.test.ts;
 * the planner's are BASE_PLANNER_RECIPES); --scale multiplies them.
 */
import { crc32 } from '../bytes/crc32';
import { exportCheckpoint } from '../models/checkpoint';
import { initGrounder } from '../models/grounder';
import { countParams, disposeParams } from '../models/params';
import { measuredWeights } from './measuredWeights';
import { grownStart } from './grownStart';
import { grounderPreset } from '../models/presets';
import { Random } from '../learn/random';
import { readingProbe } from '../learn/readingProbe';
import { defaultTokenizer } from '../text/vocab';
import { REF_STYLES } from '../world/types';
import type { BaseRecipe, TrainedBase } from './recipeTypes';
import type { BaseFigure, BasePreset } from './baseTypes';
import { pretrainGrounder, type GrounderLoopRecord } from './grounder';
import { buildBasePlanner } from './planner';
import { trainPresetPlanner } from './plannerTraining';
import { recipeCheckpoints, resumedState } from './resumeFile';
import { RESUME_FORMAT, type ResumeKey } from './resumeKey';
import { evalRealScreens } from '../learn/evalRealScreens';
import { realPool, REAL_POOL_PAGES, type RealPoolScreen } from './realPool';
import { realSuiteFigures } from './realFigures';

/** tiny: the shipped base grounder (README "Base models": before the glyph reader, 1,500 steps reached 31% over all styles held out and 3,000 steps 42%; the glyph reader makes a step about twice as slow, so 2,400); demo: as many, so the wider model is compared with tiny at equal training. */
export const GROUNDER_STEPS: Record<BasePreset, number> = { tiny: 2400, demo: 2400 };
/**
 * Tuning a base grounder (`npm run pretrain -- --only grounder --tune DIR`): whole screens from its weights, so what
 * it reads and grounds is refined (with --real-share, on real pages too), not retrained. At 1e-3 (a third of the
 * pretraining rate) the world's held-out probe fell 2.3–3.1 points over all styles; at 5e-4, 1.8–3.3
 * (docs/experiments.md, 5 Dec).
 */
export const GROUNDER_TUNE: Record<BasePreset, { steps: number; lr: number }> = { tiny: { steps: 600, lr: 5e-4 }, demo: { steps: 600, lr: 5e-4 } };
/** Held-out seeds: the suites' test split, never drawn for training. */
const PROBE_SEED = 9001;
/** Up to 100 instructions per style (on 160 screens every style has that many): at 40, the same grounder's text figure differed by 17 points between two held-out sets. */
const PROBE_SCREENS = 160;
const PROBE_PER_STYLE = 100;

const scaled = (n: number, scale: number) => Math.max(1, Math.round(n * scale));

export const grounderRecipe: BaseRecipe = async ({ preset, seed, scale, backend, paint, from, start, checkpoints, resume, realShare = 0, tuneStyles, trainAdded = false, realPages, realSuite, onProgress }) => {
  const tok = defaultTokenizer();
  const cfg = grounderPreset(preset, tok.size);
  const tune = start ? GROUNDER_TUNE[preset] : null;
  const steps = from ? 0 : scaled(tune ? tune.steps : GROUNDER_STEPS[preset], scale);
  const mixed = !from && realShare > 0;
  // The real-page fields join the key only when pages are mixed in, so checkpoints of world-only runs made before them still resume;
  // a tuning run's name the grounder it started from, so another start cannot continue them.
  const tuned = start ? { tune: { ...tune, start: { bytes: start.length, crc32: crc32(start) }, ...(tuneStyles ? { styles: tuneStyles } : {}), ...(trainAdded ? { trainAdded } : {}) } } : {};
  const recipe = JSON.stringify({ steps, config: cfg, ...(mixed ? { realShare, realPages: REAL_POOL_PAGES } : {}), ...tuned });
  const key: ResumeKey = { format: RESUME_FORMAT, preset, model: 'grounder', seed, scale, backend, recipe };
  // Checked before anything is built, so a wrong checkpoint fails at once.
  const resumed = resumedState<GrounderLoopRecord>(resume, key);
  let pages: RealPoolScreen[] = [];
  if (mixed) {
    if (!realPages) throw new Error(`realShare ${realShare} needs real pages, which the app's page draws; this worker has none registered (pretrain in the app, or with realShare 0).`);
    onProgress({ stage: 'drawing real pages', step: 0, steps: REAL_POOL_PAGES, loss: null });
    pages = await realPool(seed, REAL_POOL_PAGES, realPages);
  }
  const params = from ? measuredWeights(from, cfg, 'grounder', preset) : start ? (grownStart(start, cfg, seed, trainAdded) ?? measuredWeights(start, cfg, 'grounder', preset, 'tune')) : initGrounder(new Random(seed).fork('base grounder'), cfg);
  try {
    let data: TrainedBase['data'];
    if (!from) {
      const report = await pretrainGrounder(params, cfg, tok, { seed, steps, paint, ...(mixed ? { real: { share: realShare, pages } } : {}), ...(tune ? { plan: 'tune' as const, lr: tune.lr, ...(tuneStyles ? { tuneStyles } : {}) } : {}) }, (p) => onProgress({ stage: p.stage, step: p.step, steps: p.steps, loss: p.loss }), {
        resume: resumed,
        checkpoints: recipeCheckpoints<GrounderLoopRecord>(key, checkpoints, (s) => ({ stage: s.record.totals[s.record.totals.length - 1]?.stage ?? 'read', step: s.step, steps })),
      });
      data = report.data;
    }
    const probe = await readingProbe(params, cfg, tok, {
      seed: PROBE_SEED,
      screens: PROBE_SCREENS,
      perStyle: PROBE_PER_STYLE,
      paint,
      onProgress: (step, steps) => onProgress({ stage: 'held-out probe', step, steps, loss: null }),
    });
    const figures: BaseFigure[] = [];
    for (const style of REF_STYLES) {
      const g = probe.grounding[style];
      if (g) figures.push({ model: 'grounder', name: `grounding accuracy, ${style} style`, value: g.accuracy, chance: g.chance, n: g.n });
    }
    figures.push({ model: 'grounder', name: 'grounding accuracy, all styles', value: probe.overall.accuracy, chance: probe.overall.chance, n: probe.overall.n });
    figures.push({ model: 'grounder', name: 'reading: role of the cell', value: probe.reading.role, n: probe.reading.cells });
    figures.push({ model: 'grounder', name: 'reading: letters (F1)', value: probe.reading.letterF1, n: probe.reading.cells });
    const g = probe.reading.glyphs;
    if (g) figures.push({ model: 'grounder', name: 'reading: character at a glyph position (top-1)', value: g.top1, n: g.positions });
    // The held-out real-screen suite, where a page draws it (the app; not Node): the same grounding as the loop's evaluation of it.
    const suite = realSuite ? await realSuite() : null;
    if (suite) {
      onProgress({ stage: 'real-screen suite', step: 0, steps: suite.length, loss: null });
      const onPage = (step: number, steps: number) => onProgress({ stage: 'real-screen suite', step, steps, loss: null });
      figures.push(...realSuiteFigures(await evalRealScreens(params, cfg, tok, suite, onPage)));
    }
    return { bytes: from ?? (await exportCheckpoint(params, cfg)), parameters: countParams(params), steps, figures, ...(data ? { data } : {}) };
  } finally {
    disposeParams(params);
  }
};

/**
 * Trains with trainPresetPlanner (checkpointed, resumable), then has
 * buildBasePlanner measure the weights as it measures any: the same bits,
 * so the same figures as when it trained them itself.
 */
export const plannerRecipe: BaseRecipe = async ({ preset, seed, scale, backend, from, start, checkpoints, resume, trainAdded, onProgress }) => {
  const tok = defaultTokenizer();
  const trained = from
    ? null
    : await trainPresetPlanner({ preset, seed, scale, backend, tok, checkpoints, resume, start, trainAdded, onProgress: (p) => onProgress({ stage: p.stage, step: p.step, steps: p.steps, loss: p.loss }) });
  const built = await buildBasePlanner({
    preset,
    seed,
    scale,
    from: from ?? trained?.bytes,
    tok,
    onMeasure: (step, steps) => onProgress({ stage: 'held-out splits', step, steps, loss: null }),
  });
  return { bytes: built.bytes, parameters: built.parameters, steps: trained ? trained.steps : 0, figures: built.figures };
};
