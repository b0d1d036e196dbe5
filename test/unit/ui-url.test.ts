import { describe, expect, it } from 'vitest';
import { labSearch, parseLabUrl, viewFromUrl } from '../../src/ui/url';

describe('the lab URL', () => {
  it('reads every field, with defaults for what is absent', () => {
    expect(parseLabUrl('')).toEqual({ view: 'loop', run: null, it: null, preset: null, seed: 1, start: null, backend: 'auto', demo: false, explain: false });
    expect(parseLabUrl('?view=grpo&run=coevo-1&it=2&preset=tiny&seed=7&start=scratch&backend=wasm&demo=1&explain=true')).toEqual({
      view: 'grpo', run: 'coevo-1', it: 2, preset: 'tiny', seed: 7, start: 'scratch', backend: 'wasm', demo: true, explain: true,
    });
  });

  it('ignores values it cannot use instead of failing', () => {
    const s = parseLabUrl('?view=nope&it=-1&preset=huge&seed=1.5&start=pretrained&backend=cuda&demo=yes&run=');
    expect(s).toEqual({ view: 'loop', run: null, it: null, preset: null, seed: 1, start: null, backend: 'auto', demo: false, explain: false });
    expect(parseLabUrl('?it=0').it).toBe(0);
    expect(parseLabUrl('?seed=0').seed).toBe(0);
  });

  it('maps the old lab view to the loop', () => {
    expect(viewFromUrl('?view=lab')).toBe('loop');
    expect(viewFromUrl('?view=world')).toBe('world');
  });

  it('writes a patch over the current query, leaving defaults out and other parameters alone', () => {
    const q = labSearch('?backend=wasm&app=mail', { view: 'metrics', run: 'coevo-9', it: 0, seed: 3 });
    expect(new URLSearchParams(q).get('app')).toBe('mail');
    expect(parseLabUrl(q)).toMatchObject({ view: 'metrics', run: 'coevo-9', it: 0, seed: 3, backend: 'wasm' });
    expect(labSearch(q, { view: 'loop', run: null, it: null, seed: 1, demo: false })).toBe('?backend=wasm&app=mail');
    expect(labSearch('', {})).toBe('');
  });

  it('round-trips every state', () => {
    const state = { view: 'data', run: 'coevo-a b', it: 3, preset: 'demo', seed: 42, start: 'base', backend: 'webgpu', demo: true, explain: true } as const;
    expect(parseLabUrl(labSearch('', state))).toEqual(state);
  });
});
