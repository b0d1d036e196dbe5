/** The font families and weights the world ships (kept apart from fonts.ts so Node scripts can read them without Vite). */
import type { FontFamily, TextStyle } from '../types';

export const FONT_FAMILIES: readonly FontFamily[] = ['Inter', 'Roboto Slab', 'Noto Sans'];
export const FONT_WEIGHTS: readonly TextStyle['weight'][] = [400, 500, 600, 700];
