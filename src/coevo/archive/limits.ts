/**
 * How much an import may take. A run export this app writes stays far below
 * every figure (a tiny run is a few MB, a full one's checkpoints tens of MB);
 * the limits exist so that a hostile or damaged file is refused from what it
 * declares, before it can fill a tab's memory.
 */
const MiB = 1024 * 1024;

export const ARCHIVE_LIMITS = {
  /** The zip file itself. */
  archiveBytes: 1024 * MiB,
  /** Entries in the zip (screens dominate: one per distinct screen). */
  entries: 200_000,
  /** Characters of one entry's path. */
  pathChars: 1024,
  /** All entries together, inflated. */
  inflatedBytes: 1024 * MiB,
  /**
   * All entries together may inflate to at most this many times the zip's size
   * (or inflatedFloor, whichever is more). Deflate packs JSON about 5–20 : 1 and
   * weights and PNGs hardly at all; a zip bomb packs about 1,000 : 1.
   */
  inflatedRatio: 200,
  inflatedFloor: 64 * MiB,
  /** Compressed bytes handed to the inflater at once: what one step can produce is about 1,032 times this. */
  inflateChunk: 8 * 1024,
} as const;

/** The most one entry may inflate to, by what the entry is (null: no entry of a run export has this path). */
export function entryLimit(path: string): number | null {
  if (path === 'manifest.json') return 16 * MiB;
  if (path === 'run.json') return 1 * MiB;
  if (/^[a-z]+\.jsonl?$/.test(path)) return 256 * MiB;
  if (/^screens\/[^/]+\.png$/.test(path)) return 8 * MiB;
  if (/^checkpoints\/[^/]+\.json$/.test(path)) return 1 * MiB;
  if (/^checkpoints\/[^/]+\.safetensors$/.test(path)) return 256 * MiB;
  return null;
}

/** Lengths of the strings a record holds, in UTF-16 code units (what String.length counts). */
export const TEXT_LIMITS = {
  /** Ids: runs, samples, trajectories, checkpoints, tasks, elements, screen hashes. */
  id: 256,
  /** Names: run names, metric names, models, sources, apps, enum-like words. */
  name: 256,
  /** Free text: goals, instructions, reasons, element text, error messages. */
  text: 16_384,
  /** A run's or a checkpoint's whole config as JSON. */
  configJson: 65_536,
} as const;

export function formatBytes(n: number): string {
  if (n >= 1024 * MiB) return `${(n / (1024 * MiB)).toFixed(1)} GiB`;
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
