/**
 * The grounder on the real-screen suite (src/realScreens): each rendered
 * fixture page goes onto the grounder's canvas exactly as a person's
 * screenshot does in the Playground (canvasFromRgba), each instruction is
 * grounded once, and the greedy point is scored against the target's DOM
 * box. The same model code as training and evaluation: groundOnce one
 * instruction at a time (evalRealScreens, the worker API), or a batched
 * grounder over realScreenBatch's queries (the loop's evaluation).
 */
import { canvasFromRgba } from '../models/canvas';
import type { GrounderConfig } from '../models/grounder';
import type { ParamMap } from '../models/params';
import { realScreenFigures, type RealGrounding, type RealScreenFigures } from '../realScreens/score';
import type { RealQuery, RealScreenInput } from '../realScreens/suiteInput';
import type { Tokenizer } from '../text/tokenizer';
import { SCREEN_SIZE, type Screen } from '../world/types';
import { groundOnce } from './groundOnce';
import type { GroundingQuery } from './plannerGrounderPool';
import type { Point } from './rewards';

export interface RealScreenEval extends RealScreenFigures {
  /** Every grounding with the grounder's greedy point, in input order. */
  groundings: RealGrounding[];
}

function checkedCanvas(s: RealScreenInput): Float32Array {
  const { width, height } = SCREEN_SIZE.web;
  if (s.width !== width || s.height !== height) throw new Error(`evalRealScreens: ${s.pageId} is ${s.width}×${s.height}; fixture pages are web screens of ${width}×${height}.`);
  if (s.rgba.length !== width * height * 4) throw new Error(`evalRealScreens: ${s.pageId} has ${s.rgba.length} bytes of RGBA; ${width * height * 4} expected.`);
  return canvasFromRgba(s.rgba, width, height);
}

export async function evalRealScreens(
  params: ParamMap,
  cfg: GrounderConfig,
  tok: Tokenizer,
  screens: readonly RealScreenInput[],
  onPage?: (done: number, pages: number) => void,
): Promise<RealScreenEval> {
  const groundings: RealGrounding[] = [];
  for (const [i, s] of screens.entries()) {
    const image = checkedCanvas(s);
    for (const q of s.queries) {
      const r = await groundOnce(params, cfg, tok, { image, platform: 'web', instruction: q.instruction });
      groundings.push({ ...q, point: { x: r.greedy.x, y: r.greedy.y } });
    }
    onPage?.(i + 1, screens.length);
  }
  return { ...realScreenFigures(groundings), groundings };
}

/** The suite as grounding queries for a batched grounder (GroundingQuery's screen), with a paint that gives each page's pixels. */
export interface RealScreenBatch {
  /** One per instruction, in input order; pages' queries share their page's screen object. */
  queries: GroundingQuery[];
  /** What each query asks and where its target is, index-aligned with queries. */
  items: RealQuery[];
  /** A query's screen to the grounder's canvas: the page's rendered pixels, not the world's renderer. */
  paint: (screen: Screen) => Float32Array;
}

// Only the grounder's platform and the paint below read these screens; the theme never draws anything.
const THEME: Screen['theme'] = { mode: 'light', accent: 'blue', font: 'Inter', density: 'comfortable', corner: 2 };

export function realScreenBatch(screens: readonly RealScreenInput[]): RealScreenBatch {
  const pixels = new Map<Screen, Float32Array>();
  const queries: GroundingQuery[] = [];
  const items: RealQuery[] = [];
  for (const s of screens) {
    // A stand-in world Screen with no elements: the pool grounder keys its images by screen and reads only the platform.
    const screen: Screen = { platform: 'web', width: s.width, height: s.height, appId: 'real-screen', variant: 0, screenId: s.pageId, title: '', theme: THEME, elements: [] };
    pixels.set(screen, checkedCanvas(s));
    for (const q of s.queries) {
      queries.push({ screen, instruction: q.instruction });
      items.push(q);
    }
  }
  const paint = (screen: Screen): Float32Array => {
    const p = pixels.get(screen);
    if (!p) throw new Error(`realScreenBatch: ${screen.screenId} is not a page of this batch`);
    return p;
  };
  return { queries, items, paint };
}

/** The figures for the batch's items from the grounder's points (index-aligned; no point is a miss). */
export function scoreRealScreens(items: readonly RealQuery[], points: readonly (Point | null)[]): RealScreenEval {
  if (points.length !== items.length) throw new Error(`scoreRealScreens: ${points.length} points for ${items.length} instructions`);
  // Outside every box: a grounder that gives no point misses.
  const groundings = items.map((q, i): RealGrounding => ({ ...q, point: points[i] ?? { x: -1, y: -1 } }));
  return { ...realScreenFigures(groundings), groundings };
}
