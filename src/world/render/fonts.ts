/**
 * The world's fonts: three families shipped as @fontsource packages (latin
 * subset, weights 400–700), loaded with the FontFace API into the window or
 * the worker that renders. Rendering waits for every face, so text never
 * falls back to a system font and pixels are the same on every run.
 */
import type { FontFamily } from '../types';
import inter400 from '@fontsource/inter/files/inter-latin-400-normal.woff2?url';
import inter500 from '@fontsource/inter/files/inter-latin-500-normal.woff2?url';
import inter600 from '@fontsource/inter/files/inter-latin-600-normal.woff2?url';
import inter700 from '@fontsource/inter/files/inter-latin-700-normal.woff2?url';
import robotoSlab400 from '@fontsource/roboto-slab/files/roboto-slab-latin-400-normal.woff2?url';
import robotoSlab500 from '@fontsource/roboto-slab/files/roboto-slab-latin-500-normal.woff2?url';
import robotoSlab600 from '@fontsource/roboto-slab/files/roboto-slab-latin-600-normal.woff2?url';
import robotoSlab700 from '@fontsource/roboto-slab/files/roboto-slab-latin-700-normal.woff2?url';
import notoSans400 from '@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff2?url';
import notoSans500 from '@fontsource/noto-sans/files/noto-sans-latin-500-normal.woff2?url';
import notoSans600 from '@fontsource/noto-sans/files/noto-sans-latin-600-normal.woff2?url';
import notoSans700 from '@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff2?url';

export interface FontFaceSpec {
  family: FontFamily;
  weight: 400 | 500 | 600 | 700;
  url: string;
}

export const WORLD_FONTS: readonly FontFaceSpec[] = [
  { family: 'Inter', weight: 400, url: inter400 },
  { family: 'Inter', weight: 500, url: inter500 },
  { family: 'Inter', weight: 600, url: inter600 },
  { family: 'Inter', weight: 700, url: inter700 },
  { family: 'Roboto Slab', weight: 400, url: robotoSlab400 },
  { family: 'Roboto Slab', weight: 500, url: robotoSlab500 },
  { family: 'Roboto Slab', weight: 600, url: robotoSlab600 },
  { family: 'Roboto Slab', weight: 700, url: robotoSlab700 },
  { family: 'Noto Sans', weight: 400, url: notoSans400 },
  { family: 'Noto Sans', weight: 500, url: notoSans500 },
  { family: 'Noto Sans', weight: 600, url: notoSans600 },
  { family: 'Noto Sans', weight: 700, url: notoSans700 },
];

export { FONT_FAMILIES, FONT_WEIGHTS } from './font-faces';

let loading: Promise<number> | undefined;

/** The FontFaceSet of this global: document.fonts in a window, self.fonts in a worker. */
function fontSet(): FontFaceSet {
  if (typeof document !== 'undefined') return document.fonts;
  const scope = globalThis as unknown as { fonts?: FontFaceSet };
  if (!scope.fonts) throw new Error('loadWorldFonts: this global has no FontFaceSet');
  return scope.fonts;
}

/** Loads all faces once per global; resolves with the number of faces loaded. */
export function loadWorldFonts(): Promise<number> {
  loading ??= (async () => {
    const set = fontSet();
    const faces = await Promise.all(
      WORLD_FONTS.map(async (spec) => {
        const face = new FontFace(spec.family, `url(${spec.url})`, { weight: String(spec.weight), style: 'normal' });
        await face.load();
        set.add(face);
        return face;
      }),
    );
    // Every face has been loaded above; FontFaceSet.ready is not awaited because in Chromium workers it can stay pending.
    const missing = WORLD_FONTS.filter((s) => !set.check(`${s.weight} 10px "${s.family}"`));
    if (missing.length > 0) throw new Error(`loadWorldFonts: not usable: ${missing.map((s) => s.family + ' ' + s.weight).join(', ')}`);
    return faces.length;
  })();
  return loading;
}
