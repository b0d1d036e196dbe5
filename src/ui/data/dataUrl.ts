/**
 * The data view's filters and page in the URL (prefix `d-`), so a filtered
 * view of a dataset can be shared and survives a reload.
 */
import { NO_FILTERS, type DataFilters, type KeptFilter, type StyleKey } from './dataModel';

export const DATA_PARAMS = { iteration: 'd-it', source: 'd-src', kept: 'd-kept', style: 'd-style', stage: 'd-stage', reason: 'd-reason', page: 'd-page' } as const;

export function filtersFromSearch(search: string): { filters: DataFilters; page: number } {
  const q = new URLSearchParams(search);
  const it = q.get(DATA_PARAMS.iteration);
  const kept = q.get(DATA_PARAMS.kept);
  const page = Number(q.get(DATA_PARAMS.page));
  return {
    filters: {
      ...NO_FILTERS,
      iteration: it !== null && /^\d+$/.test(it) ? Number(it) : null,
      source: q.get(DATA_PARAMS.source),
      kept: kept === 'kept' || kept === 'dropped' ? (kept as KeptFilter) : 'all',
      style: q.get(DATA_PARAMS.style) as StyleKey | null,
      stage: q.get(DATA_PARAMS.stage),
      reason: q.get(DATA_PARAMS.reason),
    },
    page: Number.isInteger(page) && page > 1 ? page - 1 : 0,
  };
}

/** The URL parameters for these filters and 0-based page; null removes a parameter (its default). */
export function filtersToParams(f: DataFilters, page: number): Record<string, string | null> {
  return {
    [DATA_PARAMS.iteration]: f.iteration === null ? null : String(f.iteration),
    [DATA_PARAMS.source]: f.source,
    [DATA_PARAMS.kept]: f.kept === 'all' ? null : f.kept,
    [DATA_PARAMS.style]: f.style,
    [DATA_PARAMS.stage]: f.stage,
    [DATA_PARAMS.reason]: f.reason,
    [DATA_PARAMS.page]: page > 0 ? String(page + 1) : null,
  };
}
