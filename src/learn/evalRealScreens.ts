/**
 * The grounder on the real-screen suite (src/realScreens): each rendered
 * fixture page goes onto the grounder's canvas exactly as a person's
 * screenshot does in the Playground (canvasFromRgba), each instruction is
 * grounded once, and the greedy point is scored against the target's DOM
 * box. The same model code as training and evaluation (groundOnce).
 */
import { canvasFromRgba } from '../models/canvas';
import type { GrounderConfig } from '../models/grounder';
import type { ParamMap } from '../models/params';
import { realScreenFigures, type RealGrounding, type RealScreenFigures } from '../realScreens/score';
import type { RealScreenInput } from '../realScreens/suiteInput';
import type { Tokenizer } from '../text/tokenizer';
import { SCREEN_SIZE } from '../world/types';
import { groundOnce } from './groundOnce';

export interface RealScreenEval extends RealScreenFigures {
  /** Every grounding with the grounder's greedy point, in input order. */
  groundings: RealGrounding[];
}

export async function evalRealScreens(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, screens: readonly RealScreenInput[]): Promise<RealScreenEval> {
  const { width, height } = SCREEN_SIZE.web;
  const groundings: RealGrounding[] = [];
  for (const s of screens) {
    if (s.width !== width || s.height !== height) throw new Error(`evalRealScreens: ${s.pageId} is ${s.width}×${s.height}; fixture pages are web screens of ${width}×${height}.`);
    if (s.rgba.length !== width * height * 4) throw new Error(`evalRealScreens: ${s.pageId} has ${s.rgba.length} bytes of RGBA; ${width * height * 4} expected.`);
    const image = canvasFromRgba(s.rgba, width, height);
    for (const q of s.queries) {
      const r = await groundOnce(params, cfg, tok, { image, platform: 'web', instruction: q.instruction });
      groundings.push({ ...q, point: { x: r.greedy.x, y: r.greedy.y } });
    }
  }
  return { ...realScreenFigures(groundings), groundings };
}
