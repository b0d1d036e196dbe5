/** View state that lives in the URL, so a view can be shared and replayed. */
export type BackendChoice = 'webgpu' | 'wasm' | 'auto';

export function backendFromUrl(search: string = location.search): BackendChoice {
  const v = new URLSearchParams(search).get('backend');
  return v === 'webgpu' || v === 'wasm' ? v : 'auto';
}

export function setUrlParam(key: string, value: string | null): void {
  const url = new URL(location.href);
  if (value === null) url.searchParams.delete(key);
  else url.searchParams.set(key, value);
  history.replaceState(null, '', url);
}

export type ViewName = 'lab' | 'world';

export function viewFromUrl(search: string = location.search): ViewName {
  return new URLSearchParams(search).get('view') === 'world' ? 'world' : 'lab';
}

export function intFromUrl(key: string, fallback: number, search: string = location.search): number {
  const v = Number(new URLSearchParams(search).get(key));
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

export function stringFromUrl(key: string, search: string = location.search): string | null {
  return new URLSearchParams(search).get(key);
}
