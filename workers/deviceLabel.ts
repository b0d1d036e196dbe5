import type { DeviceInfo } from './api';

/** The device in a few words, as reports and the headless command print it. */
export function deviceLabel(d: DeviceInfo): { backend: string; adapter: string } {
  const a = d.adapter;
  if (!a) {
    const n = d.wasm?.threads ?? 1;
    return { backend: d.backend, adapter: `CPU (WASM, ${n} thread${n === 1 ? '' : 's'})` };
  }
  return { backend: d.backend, adapter: [a.vendor, a.architecture, a.device || a.description].filter(Boolean).join(' · ') + (a.software ? ' (software)' : '') };
}
