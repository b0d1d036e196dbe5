/**
 * SE-GUI's attention filter (../shared/METHOD.md §4): the previous stage's
 * grounder predicts a heat map for a training sample; the sample is trained
 * on only if that map already looks at the right place a little. τ = 0.2 beat
 * 0.1, 0.3 and 0.4 in the paper.
 */
import type { Box } from '../world/types';

export const ATTENTION_TAU = 0.2;

export interface AttentionVerdict {
  keep: boolean;
  /** Largest normalised value over the cells inside the box. */
  maxInBox: number;
  meanInBox: number;
  meanAll: number;
  reason: string;
}

/**
 * Cells "inside" the box are those whose centre lies in it (edges included);
 * a box too small to hold any cell centre uses the cell under its own centre.
 * The heat map is row-major (index = row · gridW + column), non-negative
 * (e.g. the softmax over cells), and cell (c, r) covers
 * [c·cellSize, (c+1)·cellSize) × [r·cellSize, (r+1)·cellSize) in pixels.
 */
export function boxCells(gridW: number, gridH: number, cellSize: number, box: Box): number[] {
  const cells: number[] = [];
  for (let r = 0; r < gridH; r++) {
    const y = (r + 0.5) * cellSize;
    if (y < box.y || y > box.y + box.h) continue;
    for (let c = 0; c < gridW; c++) {
      const x = (c + 0.5) * cellSize;
      if (x >= box.x && x <= box.x + box.w) cells.push(r * gridW + c);
    }
  }
  if (cells.length > 0) return cells;
  const c = Math.min(gridW - 1, Math.max(0, Math.floor((box.x + box.w / 2) / cellSize)));
  const r = Math.min(gridH - 1, Math.max(0, Math.floor((box.y + box.h / 2) / cellSize)));
  return [r * gridW + c];
}

/**
 * Normalise the map by its max, then keep the sample only if BOTH some value
 * inside the true box exceeds τ AND the mean inside the box exceeds the mean
 * over the whole screen.
 */
export function attentionKeep(
  heatmap: Float32Array,
  gridW: number,
  gridH: number,
  cellSize: number,
  box: Box,
  tau: number = ATTENTION_TAU,
): AttentionVerdict {
  if (heatmap.length !== gridW * gridH) {
    throw new Error(`attentionKeep: heat map has ${heatmap.length} values, grid is ${gridW}×${gridH}`);
  }
  let max = 0;
  let sum = 0;
  for (const v of heatmap) {
    max = Math.max(max, v);
    sum += v;
  }
  if (!(max > 0)) return { keep: false, maxInBox: 0, meanInBox: 0, meanAll: 0, reason: 'dropped: the heat map is empty (max 0)' };
  const cells = boxCells(gridW, gridH, cellSize, box);
  let maxInBox = 0;
  let sumInBox = 0;
  for (const i of cells) {
    maxInBox = Math.max(maxInBox, heatmap[i] / max);
    sumInBox += heatmap[i] / max;
  }
  const meanInBox = sumInBox / cells.length;
  const meanAll = sum / max / heatmap.length;
  const peakOk = maxInBox > tau;
  const meanOk = meanInBox > meanAll;
  const f = (x: number) => x.toFixed(3);
  const reason = !peakOk
    ? `dropped: peak in box ${f(maxInBox)} ≤ τ ${tau}`
    : !meanOk
      ? `dropped: mean in box ${f(meanInBox)} ≤ mean over screen ${f(meanAll)}`
      : `kept: peak in box ${f(maxInBox)} > τ ${tau} and mean in box ${f(meanInBox)} > mean over screen ${f(meanAll)}`;
  return { keep: peakOk && meanOk, maxInBox, meanInBox, meanAll, reason };
}
