/**
 * The reading probe: what the grounder can and cannot yet read, on held-out
 * screens (seeds at or above TEST_SEED_BASE; by default of the held-out
 * sites and domains), as plain numbers the engine's evaluation and the
 * benchmark suites can report.
 *
 * - per-cell reading: role, icon and colour accuracy over the cells that
 *   show one (and role accuracy over every screen cell), and the F1 of the
 *   letters read on cells that show text; with a glyph reader, how often
 *   it names the character centred at a glyph position, and how often it
 *   reads the screen's other positions as no character;
 * - grounding by referring style: click-inside-box accuracy of instructions
 *   written in each style, next to the style's chance level: the accuracy of
 *   clicking the centre of a uniformly drawn visible interactive element
 *   (the mean over items of 1 / their screen's number of such targets).
 */
import * as tf from '../models/tf';
import { CANVAS_HEIGHT, CANVAS_WIDTH, GLYPH_COLS, GLYPH_POSITIONS, GLYPH_STRIDE, GRID_CELLS, IMAGE_FLOATS, validCells } from '../models/canvas';
import { encodeScreens, type GrounderConfig } from '../models/grounder';
import type { ParamMap } from '../models/params';
import { syntheticScreenImage } from '../models/rasterize';
import { heldOutScreens, writeExample, type PoolScreen } from '../pretrain/grounderScreens';
import type { Tokenizer } from '../text/tokenizer';
import { cellLabels, glyphLabels, LETTER_CLASSES, type CellLabels } from '../world/cellLabels';
import type { Glyph } from '../world/render/painter';
import type { RefStyle, Screen } from '../world/types';
import { REF_STYLES } from '../world/types';
import { evalGrounder, type BatchHook, type GroundingItem } from './evalGrounder';
import { eventTurn } from './eventTurn';
import { Random } from './random';
import type { Paint } from './stepCheck';

export interface StyleFigure {
  n: number;
  hits: number;
  accuracy: number;
  /** Accuracy of clicking a uniformly drawn visible interactive element. */
  chance: number;
}

export interface ReadingFigures {
  cells: number;
  /** Role of the interactive element under the cell, over every screen cell ("nothing" included). */
  roleAll: number;
  /** The same over the cells that lie on an interactive element. */
  role: number;
  icon: number;
  color: number;
  /** F1 of the letters read (p > 0.5) against the letters of the text under the cell, over text cells. */
  letterF1: number;
  /** With a glyph reader: top-1 over the positions a character is centred at, and "none" over the screen's other positions. */
  glyphs?: { positions: number; top1: number; blank: number };
}

export interface ReadingProbeResult extends StyleFigures {
  screens: number;
  reading: ReadingFigures;
}

export interface ReadingProbeOptions {
  seed: number;
  /** Held-out screens to draw (default 60). */
  screens?: number;
  /** Grounding items per style, at most (default 40). */
  perStyle?: number;
  which?: 'sites' | 'all';
  paint?: Paint;
  batchSize?: number;
  /** Screens read plus items grounded so far, of the total; the probe also yields to the event loop after each batch so that a worker stays responsive. */
  onProgress?: (done: number, total: number) => void;
}

function argmaxRows(values: Float32Array, rows: number, k: number): Int32Array {
  const out = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    let best = 0;
    for (let c = 1; c < k; c++) if (values[r * k + c] > values[r * k + best]) best = c;
    out[r] = best;
  }
  return out;
}

/** Per-cell reading figures of a set of screens. */
export async function probeReading(params: ParamMap, cfg: GrounderConfig, screens: readonly Screen[], paint: Paint = syntheticScreenImage, batchSize = 8, onBatch?: BatchHook): Promise<ReadingFigures> {
  const acc = { cells: 0, roleAllHits: 0, roleN: 0, roleHits: 0, iconN: 0, iconHits: 0, colorN: 0, colorHits: 0, tp: 0, fp: 0, fn: 0 };
  const glyph = { n: 0, hits: 0, blankN: 0, blankHits: 0 };
  for (let start = 0; start < screens.length; start += batchSize) {
    const chunk = screens.slice(start, start + batchSize);
    const images = new Float32Array(chunk.length * IMAGE_FLOATS);
    const valid = new Float32Array(chunk.length * GRID_CELLS);
    const drawn: Glyph[][] = chunk.map(() => []);
    chunk.forEach((s, i) => {
      images.set(cfg.glyphs ? paint(s, drawn[i]) : paint(s), i * IMAGE_FLOATS);
      valid.set(validCells(s.platform), i * GRID_CELLS);
    });
    const out = tf.tidy(() => {
      const r = encodeScreens(params, cfg, tf.tensor4d(images, [chunk.length, CANVAS_HEIGHT, CANVAS_WIDTH, 3]), tf.tensor2d(valid, [chunk.length, GRID_CELLS])).reading;
      return [tf.sigmoid(r.letters), r.role, r.icon, r.color, ...(r.glyphs ? [tf.argMax(r.glyphs, 2)] : [])];
    });
    const [letters, role, icon, color, named] = (await Promise.all(out.map((t) => t.data()))) as [Float32Array, Float32Array, Float32Array, Float32Array, Int32Array?];
    tf.dispose(out);
    if (named) {
      chunk.forEach((s, i) => {
        const labels = glyphLabels(drawn[i]);
        const width = Math.min(s.width, CANVAS_WIDTH);
        const height = Math.min(s.height, CANVAS_HEIGHT);
        for (let q = 0; q < GLYPH_POSITIONS; q++) {
          const got = named[i * GLYPH_POSITIONS + q];
          if (labels[q] > 0) {
            glyph.n++;
            if (got === labels[q]) glyph.hits++;
          } else if (((q % GLYPH_COLS) + 0.5) * GLYPH_STRIDE < width && (Math.floor(q / GLYPH_COLS) + 0.5) * GLYPH_STRIDE < height) {
            glyph.blankN++;
            if (got === 0) glyph.blankHits++;
          }
        }
      });
    }
    const rows = chunk.length * GRID_CELLS;
    const roleP = argmaxRows(role, rows, out[1].shape[2] as number);
    const iconP = argmaxRows(icon, rows, out[2].shape[2] as number);
    const colorP = argmaxRows(color, rows, out[3].shape[2] as number);
    chunk.forEach((s, i) => {
      const lab: CellLabels = cellLabels(s);
      for (let c = 0; c < GRID_CELLS; c++) {
        if (!lab.valid[c]) continue;
        const r = i * GRID_CELLS + c;
        acc.cells++;
        if (roleP[r] === lab.role[c]) acc.roleAllHits++;
        if (lab.role[c] > 0) {
          acc.roleN++;
          if (roleP[r] === lab.role[c]) acc.roleHits++;
        }
        if (lab.icon[c] > 0) {
          acc.iconN++;
          if (iconP[r] === lab.icon[c]) acc.iconHits++;
        }
        if (lab.color[c] > 0) {
          acc.colorN++;
          if (colorP[r] === lab.color[c]) acc.colorHits++;
        }
        if (lab.hasText[c]) {
          for (let k = 1; k < LETTER_CLASSES; k++) {
            const want = lab.letters[c * LETTER_CLASSES + k] === 1;
            const got = letters[r * LETTER_CLASSES + k] > 0.5;
            if (want && got) acc.tp++;
            else if (got) acc.fp++;
            else if (want) acc.fn++;
          }
        }
      }
    });
    await onBatch?.(start + chunk.length, screens.length);
  }
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  return {
    cells: acc.cells,
    roleAll: ratio(acc.roleAllHits, acc.cells),
    role: ratio(acc.roleHits, acc.roleN),
    icon: ratio(acc.iconHits, acc.iconN),
    color: ratio(acc.colorHits, acc.colorN),
    letterF1: ratio(2 * acc.tp, 2 * acc.tp + acc.fp + acc.fn),
    ...(cfg.glyphs ? { glyphs: { positions: glyph.n, top1: ratio(glyph.hits, glyph.n), blank: ratio(glyph.blankHits, glyph.blankN) } } : {}),
  };
}

/** Up to `perStyle` grounding items per style from the screens, each with its screen's chance level. */
export function probeItems(seed: number, screens: readonly PoolScreen[], perStyle: number): { item: GroundingItem; chance: number }[] {
  const rng = new Random(seed).fork('probe items');
  const out: { item: GroundingItem; chance: number }[] = [];
  for (const style of REF_STYLES) {
    let count = 0;
    for (const s of rng.shuffle([...screens])) {
      if (count >= perStyle) break;
      for (const target of rng.shuffle([...s.targets])) {
        const e = writeExample(rng, s, target, [style]);
        if (!e) continue;
        out.push({ item: { ...e, split: style }, chance: 1 / s.targets.length });
        count++;
        break;
      }
    }
  }
  return out;
}

/** The probe's material: held-out screens (for per-cell reading) and up to perStyle grounding items per style on them. */
export interface ProbeSet {
  screens: Screen[];
  items: { item: GroundingItem; chance: number }[];
}

export function probeSet(seed: number, screens: number, perStyle: number, which: 'sites' | 'all' = 'sites'): ProbeSet {
  const pool = heldOutScreens(seed, screens, which);
  return { screens: pool.map((s) => s.screen), items: probeItems(seed, pool, perStyle) };
}

export interface StyleFigures {
  grounding: Partial<Record<RefStyle, StyleFigure>>;
  /** All styles together. */
  overall: StyleFigure;
}

/** Per-style and overall grounding figures from one hit per probe item, in the items' order. */
export function styleFigures(items: ProbeSet['items'], hits: readonly boolean[]): StyleFigures {
  const grounding: Partial<Record<RefStyle, StyleFigure>> = {};
  const overall: StyleFigure = { n: 0, hits: 0, accuracy: 0, chance: 0 };
  items.forEach((x, i) => {
    const f = (grounding[x.item.style] ??= { n: 0, hits: 0, accuracy: 0, chance: 0 });
    for (const g of [f, overall]) {
      g.n++;
      if (hits[i]) g.hits++;
      g.chance += x.chance;
    }
  });
  for (const g of [...Object.values(grounding), overall]) {
    g.accuracy = g.n ? g.hits / g.n : 0;
    g.chance = g.n ? g.chance / g.n : 0;
  }
  return { grounding, overall };
}

export async function readingProbe(params: ParamMap, cfg: GrounderConfig, tok: Tokenizer, opts: ReadingProbeOptions): Promise<ReadingProbeResult> {
  const paint = opts.paint ?? syntheticScreenImage;
  const set = probeSet(opts.seed, opts.screens ?? 60, opts.perStyle ?? 40, opts.which ?? 'sites');
  const total = set.screens.length + set.items.length;
  const step = (offset: number): BatchHook => async (done) => {
    opts.onProgress?.(offset + done, total);
    await eventTurn();
  };
  const reading = await probeReading(params, cfg, set.screens, paint, opts.batchSize, step(0));
  const ev = await evalGrounder(
    params,
    cfg,
    tok,
    set.items.map((x) => x.item),
    { paint, batchSize: opts.batchSize, onBatch: step(set.screens.length) },
  );
  return { screens: set.screens.length, reading, ...styleFigures(set.items, ev.points.map((p) => p.hit)) };
}

/** "text 0.55 (22/40, chance 0.10); icon …" and the reading figures, for logs and reports. */
export function formatReadingProbe(r: ReadingProbeResult): string {
  const styles = REF_STYLES.filter((s) => r.grounding[s])
    .map((s) => {
      const g = r.grounding[s] as StyleFigure;
      return `${s} ${g.accuracy.toFixed(3)} (${g.hits}/${g.n}, chance ${g.chance.toFixed(3)})`;
    })
    .join('; ');
  const rd = r.reading;
  const glyphs = rd.glyphs ? `; glyph reader: top-1 ${rd.glyphs.top1.toFixed(3)} over ${rd.glyphs.positions} glyph positions, none ${rd.glyphs.blank.toFixed(3)} elsewhere` : '';
  return (
    `grounding on ${r.screens} held-out screens: all ${r.overall.accuracy.toFixed(3)} (chance ${r.overall.chance.toFixed(3)}); ${styles}\n` +
    `reading over ${rd.cells} cells: role ${rd.role.toFixed(3)} (all cells ${rd.roleAll.toFixed(3)}), icon ${rd.icon.toFixed(3)}, colour ${rd.color.toFixed(3)}, letter F1 ${rd.letterF1.toFixed(3)}${glyphs}`
  );
}
