import type { DeviceInfo } from './api';

/** The device in a few words, as reports and the headless command print it. */
export function deviceLabel(d: DeviceInfo): { backend: string; adapter: string } {
  const a = d.adapter;
  if (!a) return { backend: d.backend, adapter: 'CPU (WASM)' };
  return { backend: d.backend, adapter: [a.vendor, a.architecture, a.device || a.description].filter(Boolean).join(' · ') + (a.software ? ' (software)' : '') };
}
