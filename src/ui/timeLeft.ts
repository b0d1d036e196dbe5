/** Time left in words, for every progress bar of the app (a loop phase, an offsite comparison). */

/** "about 2 min 5 s left", or a plain word before the phase has a pace. */
export function formatEta(etaMs: number | null): string {
  if (etaMs === null || !Number.isFinite(etaMs)) return 'estimating time left…';
  const s = Math.max(0, Math.round(etaMs / 1000));
  if (s < 1) return 'almost done';
  if (s < 60) return `about ${s} s left`;
  const m = Math.floor(s / 60);
  if (m < 60) return `about ${m} min ${s % 60} s left`;
  return `about ${Math.floor(m / 60)} h ${m % 60} min left`;
}
