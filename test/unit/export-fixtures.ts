/**
 * A run shaped like a tiny co-evolution run, for the export tests, built
 * without models: real training states of the world (tasks, oracle steps,
 * boxes, canonical instructions), samples of D0 and of three distilled
 * iterations (some dropped), recorded planner GRPO groups with the real
 * plan reward (grpo-groups-fixtures), and two checkpoints. Like a run the
 * loop trains, it stores no screenshots: the export renders each state.
 * Node has no Canvas, so unit tests render with standInRenderer, the
 * grounder's Node stand-in painting (src/models/rasterize.ts); the app and
 * the command line use the real renderer (test/e2e/export-trl.spec.ts).
 */
import type { StepSample } from '../../src/coevo/records';
import { trainingPlannerStates } from '../../src/learn/plannerStates';
import { Random } from '../../src/learn/random';
import type { RunBundle } from '../../src/store/store';
import { CANVAS_WIDTH } from '../../src/models/canvas';
import { syntheticScreenImage } from '../../src/models/rasterize';
import { imageOfRgb, type ScreenImage, type ScreenRenderer } from '../../src/world/render/screenImage';
import { checkpoint, coevoRun } from './coevo-store-fixtures';
import { groupsOf, targetedStates } from './grpo-groups-fixtures';

export async function tinyRunBundle(states = 400, runId = 'tiny'): Promise<RunBundle> {
  const all = trainingPlannerStates(new Random(11), states).slice(0, states);
  const samples: StepSample[] = all.map((st, n) => {
    const iteration = n < states * 0.55 ? 0 : 1 + (n % 3);
    const kept = n % 11 !== 5;
    const box = st.step.box;
    return {
      id: `${runId}/${iteration}/${n}`,
      runId,
      iteration,
      phase: iteration === 0 ? 'seed-data' : 'distill',
      origin: iteration === 0 ? 'seed' : 'distilled',
      source: iteration === 0 ? 'writer:terse' : `planner@${iteration}`,
      task: st.task,
      stepIndex: st.stepIndex,
      platform: st.task.platform,
      goal: st.task.goal,
      instruction: st.instruction,
      style: st.step.instruction.ref?.style ?? null,
      actionType: st.step.type,
      ...(st.step.value !== undefined ? { value: st.step.value } : {}),
      ...(st.step.targetId !== undefined ? { targetId: st.step.targetId } : {}),
      ...(box ? { box: { ...box } } : {}),
      kept,
      curation: [{ stage: 'verifier', decision: kept ? 'keep' : 'drop', reason: kept ? 'verified' : 'verifier pool disagrees' }],
    };
  });
  const run = { ...coevoRun(runId), status: 'done' as const, config: { preset: 'tiny', iterations: 3, coevo: true } };
  const groups = [...(await groupsOf(runId, 1, 0, targetedStates(4))), ...(await groupsOf(runId, 2, 0, targetedStates(4, 9), 2, true))];
  return { run, samples, trajectories: [], phases: [], metrics: [], screens: [], checkpoints: [checkpoint(runId, 'planner', 0), checkpoint(runId, 'grounder', 1)], groups };
}

const standIns = new Map<string, ScreenImage>();

/**
 * Screenshots from the Node stand-in painting, cropped from the grounder's
 * canvas to the screen's size; kept per screen, since the tests export one
 * run in both formats.
 */
export const standInRenderer: ScreenRenderer = async (screens) =>
  screens.map((screen) => {
    const key = JSON.stringify(screen);
    let image = standIns.get(key);
    if (!image) {
      const floats = syntheticScreenImage(screen);
      const rgb = new Uint8Array(screen.width * screen.height * 3);
      for (let y = 0; y < screen.height; y++) for (let x = 0; x < screen.width * 3; x++) rgb[y * screen.width * 3 + x] = Math.round(floats[y * CANVAS_WIDTH * 3 + x] * 255);
      image = imageOfRgb(rgb, screen.width, screen.height);
      standIns.set(key, image);
    }
    return image;
  });
