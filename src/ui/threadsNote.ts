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
  if (device?.backend === 'wasm' && device.wasm && !device.wasm.threads) {
    return {
      short: 'one thread',
      why:
        'The page is cross-origin isolated, but tfjs’s threaded WASM build fails to start its workers once bundled, ' +
        'so the WASM backend runs on one thread (with SIMD where the browser has it).',
    };
  }
  return null;
}
