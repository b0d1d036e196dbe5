/** The Playground's words about a grounded screenshot: what was resized, which tile won, where the point is, how sure. */
import type { GroundImageResult } from '../../ownScreen/groundImage';
import { IMAGE_FORMAT_NAMES, type ImageFormat } from '../../ownScreen/sniff';

const px = (v: number) => Math.round(v).toString();

export function describeFile(name: string, format: ImageFormat, width: number, height: number, read: { width: number; height: number }): string {
  const shrunk = read.width !== width || read.height !== height ? `, read at ${read.width}×${read.height} (the most this page reads)` : '';
  return `“${name}”, a ${IMAGE_FORMAT_NAMES[format]} of ${width}×${height} px${shrunk}.`;
}

/** How the screenshot was brought to the grounder's screens. */
export function describeScaling(a: Pick<GroundImageResult, 'plan' | 'source'>): string {
  const p = a.plan;
  const screen = `${p.platform} screen${p.rows * p.cols > 1 ? 's' : ''} of ${p.tileWidth}×${p.tileHeight}`;
  const cut = p.rows * p.cols === 1 ? `into one ${screen}${p.width < p.tileWidth || p.height < p.tileHeight ? ' (white around it)' : ''}` : `and cut into ${p.rows * p.cols} overlapping ${screen} (${p.rows} rows × ${p.cols} columns)`;
  return `Scaled ×${p.scale.toFixed(2)} to ${p.width}×${p.height} ${cut}.${p.lowered ? ` ${p.lowered}` : ''}`;
}

/** Where the point is, in the screenshot's px, which tile it came from, and whether the grounder was sure. */
export function describePoint(a: Pick<GroundImageResult, 'point' | 'tile' | 'tiles' | 'plan' | 'confidence' | 'confident' | 'threshold' | 'ms'>): string {
  const n = a.tiles.length;
  const t = a.tile;
  const where = n > 1 ? ` in tile ${t + 1} of ${n} (row ${Math.floor(t / a.plan.cols) + 1}, column ${(t % a.plan.cols) + 1})` : '';
  const sure = `confidence ${a.confidence.toFixed(2)}; ${a.threshold.toFixed(2)} or more counts as confident`;
  const time = ` ${(a.ms / 1000).toFixed(1)} s.`;
  if (!a.confident) return `The grounder found nothing confident here (${sure}). Its best guess, (${px(a.point.x)}, ${px(a.point.y)})${where}, is drawn faint.${time}`;
  return `Point (${px(a.point.x)}, ${px(a.point.y)}) in your image's pixels${where}; ${sure}.${time}`;
}
