/**
 * The data owner's private set from their own screenshots (the Playground
 * keeps them in IndexedDB, with the target each person marked): each marked
 * screenshot is one grounding item on the tile that holds its target
 * (ownScreen/privateTile.ts), split by screenshot into tuning and test items
 * with the data seed. The screens carry their own pixels, so the grounder's
 * paint is wrapped to hand them out and draw world screens as before.
 */
import { Random } from '../learn/random';
import type { GroundingItem } from '../learn/evalGrounder';
import { canvasFromRgba } from '../models/canvas';
import type { PrivateTile } from '../ownScreen/privateTile';
import { UNDRAWN_THEME } from '../world/theme';
import type { Screen } from '../world/types';

/** Fewest marked screenshots a comparison takes: two to tune on, two to test. */
export const MIN_OWN_SHOTS = 4;

export interface OwnPrivateSet {
  train: GroundingItem[];
  test: GroundingItem[];
  /** Wraps a paint function so that these screens come out as their own pixels. */
  paint(world: (s: Screen) => Float32Array): (s: Screen) => Float32Array;
}

export function ownPrivateSet(tiles: readonly PrivateTile[], seed: number, testShare = 0.5): OwnPrivateSet {
  if (tiles.length < MIN_OWN_SHOTS) throw new Error(`The private set has ${tiles.length} marked screenshot(s); mark at least ${MIN_OWN_SHOTS} in the Playground (two to tune on, two to test).`);
  const images = new Map<Screen, Float32Array>();
  const items = tiles.map((t, i): GroundingItem => {
    if (t.rgba.length !== t.width * t.height * 4) throw new Error(`Marked screenshot ${i + 1}: ${t.rgba.length} bytes for a ${t.width}×${t.height} tile.`);
    const screen: Screen = {
      platform: t.platform,
      width: t.width,
      height: t.height,
      appId: 'own-screenshot',
      variant: 0,
      screenId: `own-${i}`,
      title: '',
      theme: UNDRAWN_THEME,
      elements: [{ id: 'target', role: 'button', box: t.box, state: {}, interactive: true }],
    };
    images.set(screen, canvasFromRgba(t.rgba, t.width, t.height));
    // The style is unknown (a person's words); 'text' is what most people write, and only per-style tables read it.
    return { taskId: `own-${i}`, stepIndex: 0, screen, platform: t.platform, instruction: t.instruction, style: 'text', targetId: 'target', box: t.box, split: 'own screenshots' };
  });
  const shuffled = new Random(seed).fork('offsite own screenshots').shuffle(items);
  const nTest = Math.min(items.length - 2, Math.max(2, Math.round(testShare * items.length)));
  return {
    test: shuffled.slice(0, nTest),
    train: shuffled.slice(nTest),
    paint: (world) => (s) => images.get(s) ?? world(s),
  };
}
