/**
 * Whether the tfjs WASM backend can use threads here, and if not, why, in
 * words for the device badge. Threads need SharedArrayBuffer, which a browser
 * only gives a cross-origin isolated page (COOP + COEP headers; a static host
 * without them loses threads silently, docs/deploying.md).
 */
import type { DeviceInfo } from '../../workers/api';

export interface ThreadsNote {
  /** A few words for the badge. */
  short: string;
  /** The reason, for the tooltip and screen readers. */
  why: string;
}

export function threadsNote(device: DeviceInfo | null, isolated: boolean): ThreadsNote | null {
  if (!isolated) {
    return {
      short: 'threads off: page not cross-origin isolated',
      why:
        'This page was served without the Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers, so the browser keeps ' +
        'SharedArrayBuffer from it and the WASM backend (the CPU fallback) runs on one thread. docs/deploying.md shows the server settings.',
    };
  }
  const w = device?.backend === 'wasm' ? device.wasm : undefined;
  if (w && w.threads === 1) {
    const asked = w.threadsAsked !== null && w.threadsAsked <= 1;
    return {
      short: asked ? 'one thread, as the URL asks' : 'one thread',
      why: asked
        ? 'The address has ?threads=1, so the WASM backend runs its single-threaded build. Remove it to use one thread per core.'
        : 'The page is cross-origin isolated, but the browser reports a single CPU core or did not start the WASM backend’s worker threads, so it runs on one thread.',
    };
  }
  return null;
}
