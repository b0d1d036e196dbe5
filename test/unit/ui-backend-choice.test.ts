import { describe, expect, it } from 'vitest';
import { planBackend, SOFTWARE_WHY, switchChoices } from '../../src/ui/backendChoice';
import type { AdapterInfo, WebGpuProbe } from '../../workers/api';

const adapter = (software: boolean): AdapterInfo => ({ vendor: software ? 'google' : 'nvidia', architecture: software ? 'swiftshader' : 'ampere', device: '', description: '', software });
const hardware: WebGpuProbe = { ok: true, adapter: adapter(false) };
const swiftshader: WebGpuProbe = { ok: true, adapter: adapter(true) };
const none: WebGpuProbe = { ok: false, reason: 'no navigator.gpu' };

describe('the starting backend', () => {
  it('prefers WebGPU on a hardware adapter and WASM over a software one, saying why', () => {
    expect(planBackend('auto', hardware)).toEqual({ use: 'webgpu', why: null });
    expect(planBackend('auto', swiftshader)).toEqual({ use: 'wasm', why: SOFTWARE_WHY });
  });

  it('does what the URL asks for, software adapter or not', () => {
    expect(planBackend('webgpu', swiftshader)).toEqual({ use: 'webgpu', why: null });
    expect(planBackend('wasm', hardware)).toEqual({ use: 'wasm', why: null });
    expect(planBackend('wasm', none)).toEqual({ use: 'wasm', why: null });
  });

  it('explains a missing WebGPU instead of guessing, unless WASM was asked for', () => {
    expect(planBackend('auto', none)).toEqual({ use: null, noGpu: 'no navigator.gpu' });
    expect(planBackend('webgpu', none)).toEqual({ use: null, noGpu: 'no navigator.gpu' });
  });

  it('offers WebGPU on the switch only where an adapter exists', () => {
    expect(switchChoices(swiftshader)).toEqual(['webgpu', 'wasm']);
    expect(switchChoices(none)).toEqual(['wasm']);
    expect(switchChoices(null)).toEqual(['wasm']);
  });
});
