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
