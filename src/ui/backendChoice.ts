/**
 * Which tfjs backend the page starts on, decided from what the URL asks for
 * and what the WebGPU probe found. A software adapter (SwiftShader) runs
 * WebGPU on the CPU at about 1 GFLOP/s, while the WASM backend reaches tens
 * of GFLOP/s on the same cores (planner SFT: about 25 s/step against 2 s/step
 * here), so with no explicit choice WASM wins there and the badge says why.
 */
import type { BackendChoice } from './url';
import type { WebGpuProbe } from '../../workers/api';

export type StartPlan =
  /** Start this backend; `why` says why it is not the one a person might expect (null: nothing to explain). */
  | { use: 'webgpu' | 'wasm'; why: string | null }
  /** WebGPU was asked for or is the default, and there is none: the page explains and offers WASM. */
  | { use: null; noGpu: string };

export const SOFTWARE_WHY =
  'WASM chosen: the only WebGPU adapter here is a software one (a CPU emulation of a GPU), about 10× slower than WASM on the same cores.';

export function planBackend(asked: BackendChoice, probe: WebGpuProbe): StartPlan {
  if (asked === 'wasm') return { use: 'wasm', why: null };
  if (!probe.ok) return { use: null, noGpu: probe.reason };
  if (asked === 'auto' && probe.adapter.software) return { use: 'wasm', why: SOFTWARE_WHY };
  return { use: 'webgpu', why: null };
}

/** The backends the badge's switch offers: WebGPU only where the probe found an adapter. */
export function switchChoices(probe: WebGpuProbe | null): ('webgpu' | 'wasm')[] {
  return probe?.ok ? ['webgpu', 'wasm'] : ['wasm'];
}
