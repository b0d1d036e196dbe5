/**
 * Backend selection, done inside the worker: the WebGPU backend registers
 * itself only if navigator.gpu exists when it is imported, so it is imported
 * here, after the check, and never on the page.
 */
import * as tf from '../src/models/tf';
import type { AdapterInfo, DeviceInfo, WebGpuProbe } from './api';
import { registerRowKernels } from './rowKernels';
import { shareSavedTensors } from './savedTensors';
import { useLeanGradients } from './leanGradients';
import { registerWasmKernels } from './wasmKernels';
import wasmPlain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';

const NO_WEBGPU =
  'WebGPU is needed to train on your GPU. Use a current Chrome or Edge (version 113 or later; on Linux start it with --enable-unsafe-webgpu), or Safari 26 / Firefox 141 or later with WebGPU turned on.';

export async function probeWebGpu(): Promise<WebGpuProbe> {
  const gpu = (self.navigator as Navigator & { gpu?: GPU }).gpu;
  if (!gpu) return { ok: false, reason: `This browser does not offer WebGPU (navigator.gpu is missing). ${NO_WEBGPU}` };
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    return { ok: false, reason: `The browser has WebGPU but asking for a GPU adapter failed: ${String(e)}. ${NO_WEBGPU}` };
  }
  if (!adapter) return { ok: false, reason: `The browser has WebGPU but found no usable GPU adapter (it may be blocklisted or disabled). ${NO_WEBGPU}` };
  return { ok: true, adapter: describeAdapter(adapter) };
}

function describeAdapter(adapter: GPUAdapter): AdapterInfo {
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const legacyFallback = (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter;
  const text = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`.toLowerCase();
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    software: Boolean(info.isFallbackAdapter ?? legacyFallback) || /swiftshader|llvmpipe|lavapipe|software|warp/.test(text),
  };
}

/*
 * tfjs-backend-webgpu never checks for GPU errors: a kernel whose shader does
 * not compile on this adapter leaves zeros or stale data and training goes on
 * with wrong numbers. The device reports such errors as uncaptured; the first
 * one is kept here, and a run refuses to commit a phase after it.
 */
let gpuFault: string | null = null;

/** The first error the GPU device reported since the WebGPU backend started, or null. */
export function deviceFault(): string | null {
  return gpuFault;
}

/*
 * A GPU device can be lost (driver reset, GPU process crash, the browser
 * reclaiming it): every kernel after that does nothing and every read-back
 * fails. The engine is told, so that it can go on without the GPU.
 */
const lostListeners = new Set<(reason: string) => void>();

/** Calls `listener` once the WebGPU device in use is lost, with why. */
export function onDeviceLost(listener: (reason: string) => void): () => void {
  lostListeners.add(listener);
  return () => lostListeners.delete(listener);
}

/** Destroys the WebGPU device in use, as a lost GPU would be (for the fault tests); false when WebGPU is not in use. */
export function simulateDeviceLoss(): boolean {
  if (tf.getBackend() !== 'webgpu') return false;
  const device = (tf.backend() as unknown as { device?: GPUDevice }).device;
  if (!device) return false;
  device.destroy();
  return true;
}

/**
 * The WASM backend's default thread count: one per logical core, at most the
 * eight workers emscripten's pool starts with (more would be spawned while a
 * kernel waits for them, which a worker cannot do); one under `vite dev`.
 */
export function defaultThreads(): number {
  // The dev server pre-bundles tfjs without the build's threads fix (vite-wasm-threads.ts), so there the threaded build cannot start.
  if (import.meta.env.DEV) return 1;
  return Math.max(1, Math.min(MAX_THREADS, self.navigator.hardwareConcurrency || 1));
}
const MAX_THREADS = 8;

/** Starts a backend; `threads` (WASM only) overrides the thread count, 1 for the single-threaded build. */
export async function useBackend(name: 'webgpu' | 'wasm', threads: number | null = null): Promise<DeviceInfo> {
  if (name === 'webgpu') {
    const probe = await probeWebGpu();
    if (!probe.ok) throw new Error(probe.reason);
    await import('@tensorflow/tfjs-backend-webgpu');
    if (!(await tf.setBackend('webgpu'))) throw new Error('The tfjs WebGPU backend failed to start on this adapter.');
    await tf.ready();
    registerRowKernels();
    shareSavedTensors();
    useLeanGradients();
    const device = (tf.backend() as unknown as { device?: GPUDevice }).device;
    device?.addEventListener('uncapturederror', (e) => {
      gpuFault ??= (e as GPUUncapturedErrorEvent).error.message.split('\n')[0] || 'unknown GPU error';
    });
    void device?.lost.then((info) => {
      const reason = `the GPU device was lost (${info.reason}${info.message ? `: ${info.message}` : ''})`;
      gpuFault ??= reason;
      for (const l of lostListeners) l(reason);
    });
    return { backend: 'webgpu', adapter: probe.adapter };
  }
  // Whatever the GPU reported concerns the GPU only; nothing runs there any more.
  gpuFault = null;
  const wasm = await import('@tensorflow/tfjs-backend-wasm');
  const asked = threads ?? defaultThreads();
  // One thread runs the plain SIMD build: no worker pool, nothing shared.
  if (asked <= 1) tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  else wasm.setThreadsCount(asked);
  wasm.setWasmPaths({
    'tfjs-backend-wasm.wasm': wasmPlain,
    'tfjs-backend-wasm-simd.wasm': wasmSimd,
    'tfjs-backend-wasm-threaded-simd.wasm': wasmThreaded,
  });
  if (!(await tf.setBackend('wasm'))) throw new Error('The tfjs WASM backend failed to start in this browser.');
  await tf.ready();
  registerWasmKernels();
  shareSavedTensors();
  useLeanGradients();
  const simd = Boolean(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'));
  const threaded = Boolean(await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'));
  return { backend: 'wasm', wasm: { simd, threads: threaded ? wasm.getThreadsCount() : 1, threadsAsked: threads } };
}
