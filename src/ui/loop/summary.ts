/** A finished phase's headline numbers (PhaseRecord.summary) as rows a person can read. */
export interface SummaryRow {
  key: string;
  label: string;
  value: string;
}

const METRIC = 'metric:';

export function formatSummaryValue(key: string, v: number | string): string {
  if (typeof v === 'string') return v;
  if (!Number.isFinite(v)) return String(v);
  if (key.startsWith(METRIC) || (/(ratio|rate|share|kept)$/.test(key) && v >= 0 && v <= 1 && !Number.isInteger(v))) return `${(v * 100).toFixed(1)} %`;
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return Math.abs(v) >= 1000 ? v.toFixed(0) : v.toPrecision(3);
}

export function summaryLabel(key: string): string {
  const bare = key.startsWith(METRIC) ? key.slice(METRIC.length).split('/').join(' · ') : key;
  return bare.replace(/_/g, ' ').replace(/:/g, ': ');
}

/** Rows in the summary's own order (the engine writes the headline first); strings too long for a table row are cut. */
export function summaryRows(summary: Record<string, number | string>): SummaryRow[] {
  return Object.entries(summary).map(([key, v]) => {
    const value = formatSummaryValue(key, v);
    return { key, label: summaryLabel(key), value: value.length > 80 ? `${value.slice(0, 79)}…` : value };
  });
}
