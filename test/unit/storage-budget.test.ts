import { describe, expect, it } from 'vitest';
import { presetSizes } from '../../src/models/presets';
import { PRESET_PARAMS, formatBytes, noRoomMessage, runBytes } from '../../src/ui/storage/storageBudget';

describe('storage budget of a run', () => {
  it("knows each preset's parameter count as the models define it", () => {
    for (const s of presetSizes()) expect(PRESET_PARAMS[s.preset], s.preset).toBe(s.grounder + s.planner);
  });

  it('grows with iterations, distillation states and preset size', () => {
    const tiny = runBytes({ preset: 'tiny', iterations: 3 });
    console.log(`tiny, 3 iterations: ${formatBytes(tiny)}; full, 3 iterations: ${formatBytes(runBytes({ preset: 'full', iterations: 3 }))}`);
    expect(tiny).toBeGreaterThan(10e6);
    expect(tiny).toBeLessThan(500e6);
    expect(runBytes({ preset: 'tiny', iterations: 5 })).toBeGreaterThan(tiny);
    expect(runBytes({ preset: 'tiny', iterations: 3, config: { distillStates: 2048 } })).toBeGreaterThan(tiny);
    expect(runBytes({ preset: 'full', iterations: 3 })).toBeGreaterThan(tiny);
  });

  it('refuses with the need, what is free and what to do; says nothing when the run fits', () => {
    expect(noRoomMessage(50e6, { usage: 100e6, quota: 1e9 })).toBeNull();
    expect(noRoomMessage(180e6, { usage: 905e6, quota: 1e9 })).toBe(
      'This run needs about 180 MB of browser storage, but only 95.0 MB of the 1.0 GB this browser allows the app is free. ' +
        'Delete or export older runs (or free disk space), then start it again; nothing was started.',
    );
    expect(noRoomMessage(1, { usage: 2e9, quota: 1e9 })).toMatch(/only 0 bytes of the 1\.0 GB/);
  });
});
