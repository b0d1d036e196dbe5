/**
 * What the Grounder view and the Playground ask the worker: ground an
 * instruction on a screen (a world screen, painted by the real renderer, or
 * a person's own screenshot as pixels) with a run's grounder of some
 * iteration, and play a task one agent step at a time. Models come from the
 * run's stored checkpoints (without a run: the preset's shipped base models,
 * or untrained ones where none ship); reading them needs no run lock, so this works while another tab, or
 * this worker, trains.
 */
import { agentStep } from '../src/coevo/agentStep';
import { groundOnce, platformOfSize } from '../src/learn/groundOnce';
import { evalRealScreens } from '../src/learn/evalRealScreens';
import { hashString, Random } from '../src/learn/random';
import type { Paint } from '../src/learn/stepCheck';
import { canvasFromRgba } from '../src/models/canvas';
import type { Store } from '../src/store/store';
import { defaultTokenizer } from '../src/text/vocab';
import { SCREEN_SIZE, type Screen } from '../src/world/types';
import { groundImage } from '../src/ownScreen/groundImage';
import { FeatureCache } from '../src/ownScreen/featureCache';
import type { DeviceInfo, GroundImageAnswer, GroundImageRequest, GroundScreenAnswer, GroundScreenRequest, PlayStepAnswer, PlayStepRequest, RealScreensAnswer, RealScreensRequest, ScreenPixels } from './api';
import { createModelCache } from './inspectModels';
import { shippedBaseLoader } from './baseModels';
import type { BaseLoader } from '../src/coevo/phases/context';

interface InspectDeps {
  store: () => Promise<Store>;
  paint: () => Promise<Paint>;
  device: () => DeviceInfo | null;
  /** The shipped base models (default: public/base/ of the served app). */
  base?: BaseLoader;
}

const isPixels = (s: Screen | ScreenPixels): s is ScreenPixels => 'rgba' in s;

/** The grounder's input for a world screen or a screenshot already scaled to a platform's screen size. */
async function imageOf(screen: Screen | ScreenPixels, paint: () => Promise<Paint>): Promise<{ image: Float32Array; platform: Screen['platform'] }> {
  if (!isPixels(screen)) return { image: (await paint())(screen), platform: screen.platform };
  const platform = platformOfSize(screen.width, screen.height);
  if (!platform) {
    const { web, mobile } = SCREEN_SIZE;
    throw new Error(`A screenshot must be scaled to a screen of the world first: ${web.width}×${web.height} (web) or ${mobile.width}×${mobile.height} (mobile); got ${screen.width}×${screen.height}.`);
  }
  if (screen.rgba.length !== screen.width * screen.height * 4) throw new Error(`The screenshot has ${screen.rgba.length} bytes; ${screen.width}×${screen.height} RGBA needs ${screen.width * screen.height * 4}.`);
  return { image: canvasFromRgba(screen.rgba, screen.width, screen.height), platform };
}

export function createInspectHost(deps: InspectDeps) {
  const models = createModelCache(deps.store, 4, deps.base ?? shippedBaseLoader());
  const tok = defaultTokenizer();
  const tileFeatures = new FeatureCache();
  // One screenshot grounding at a time: a newer screenshot frees the kept encodings an earlier request may still be reading.
  let imageQueue: Promise<unknown> = Promise.resolve();

  function needDevice(): void {
    if (!deps.device()) throw new Error('Choose a backend (useBackend) before asking the models.');
  }

  async function groundImageNow(req: GroundImageRequest): Promise<GroundImageAnswer> {
    needDevice();
    const instruction = req.instruction.trim();
    if (instruction === '') throw new Error('Type an instruction for the grounder, e.g. "click the Send button".');
    const grounder = await models.get('grounder', req);
    try {
      // The model's name says which run and iteration (or base) it is: encodings of another model are not reused.
      const model = `${req.runId ?? 'none'}/${req.preset}/${grounder.about.label}`;
      const result = await groundImage(grounder.params, grounder.cfg, tok, { image: req.image, original: req.original, instruction, scale: req.scale, spellWeight: req.spellWeight }, { features: tileFeatures, model });
      return { ...result, model: grounder.about };
    } finally {
      grounder.release();
    }
  }

  return {
    models,

    async groundScreen(req: GroundScreenRequest): Promise<GroundScreenAnswer> {
      needDevice();
      const instruction = req.instruction.trim();
      if (instruction === '') throw new Error('Type an instruction for the grounder, e.g. "click the Send button".');
      const { image, platform } = await imageOf(req.screen, deps.paint);
      const grounder = await models.get('grounder', req);
      try {
        const samples = req.samples ?? 0;
        // Seeded by what is asked, so the same question shows the same samples.
        const rng = new Random((req.seed ?? 1) ^ hashString(instruction));
        const result = await groundOnce(grounder.params, grounder.cfg, tok, { image, platform, instruction }, { samples, rng, box: req.box });
        return { ...result, model: grounder.about };
      } finally {
        grounder.release();
      }
    },

    groundImage(req: GroundImageRequest): Promise<GroundImageAnswer> {
      const run = imageQueue.then(() => groundImageNow(req));
      imageQueue = run.catch(() => undefined);
      return run;
    },

    async evaluateRealScreens(req: RealScreensRequest): Promise<RealScreensAnswer> {
      needDevice();
      const grounder = await models.get('grounder', { ...req.model, which: 'current' });
      try {
        const result = await evalRealScreens(grounder.params, grounder.cfg, tok, req.screens);
        return { ...result, model: grounder.about };
      } finally {
        grounder.release();
      }
    },

    async playStep(req: PlayStepRequest): Promise<PlayStepAnswer> {
      needDevice();
      const choice = { ...req.model, which: 'current' as const };
      const grounder = await models.get('grounder', choice);
      try {
        const planner = req.planner === 'oracle' ? null : await models.get('planner', choice);
        try {
          const result = await agentStep({
            task: req.task,
            taken: req.taken,
            planner: planner ? { params: planner.params, cfg: planner.cfg } : 'oracle',
            grounder: { params: grounder.params, cfg: grounder.cfg },
            tok,
            paint: await deps.paint(),
            samples: req.samples ?? 0,
            rng: new Random(hashString(`${req.task.id}/${req.taken.length}`)),
          });
          return { ...result, planner: planner?.about ?? null, grounder: grounder.about };
        } finally {
          planner?.release();
        }
      } finally {
        grounder.release();
      }
    },
  };
}

export type InspectHost = ReturnType<typeof createInspectHost>;
