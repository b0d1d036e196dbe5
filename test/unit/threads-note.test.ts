import { describe, expect, it } from 'vitest';
import { threadsNote } from '../../src/ui/threadsNote';

describe('threads note of the device badge', () => {
  it('says threads are off, and why, when the page is not cross-origin isolated, whatever the backend', () => {
    for (const device of [null, { backend: 'webgpu' as const }, { backend: 'wasm' as const, wasm: { simd: true, threads: 1, threadsAsked: null } }]) {
      const note = threadsNote(device, false);
      expect(note?.short).toBe('threads off: page not cross-origin isolated');
      expect(note?.why).toMatch(/Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy/);
    }
  });

  it('on an isolated page, speaks only of a WASM backend running without threads', () => {
    expect(threadsNote({ backend: 'webgpu' }, true)).toBeNull();
    expect(threadsNote({ backend: 'wasm', wasm: { simd: true, threads: 2, threadsAsked: null } }, true)).toBeNull();
    expect(threadsNote({ backend: 'wasm', wasm: { simd: true, threads: 1, threadsAsked: null } }, true)?.short).toBe('one thread');
  });
});
