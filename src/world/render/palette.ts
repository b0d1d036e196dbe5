/**
 * Colours of the rendered world. A named colour must look like its name to a
 * person (colour-style instructions say "the red button"), so each ColorName
 * maps to a real swatch, with a lighter shade for dark themes and a tint for
 * selected/tonal backgrounds.
 */
import type { ColorName, Theme } from '../types';

export interface Swatch {
  base: string; // fills on light themes
  bright: string; // fills on dark themes (same hue, lighter)
  tint: string; // pale background of the same hue (light themes)
}

export const PALETTE: Readonly<Record<ColorName, Swatch>> = {
  red: { base: '#dc2626', bright: '#f87171', tint: '#fee2e2' },
  orange: { base: '#ea580c', bright: '#fb923c', tint: '#ffedd5' },
  yellow: { base: '#eab308', bright: '#facc15', tint: '#fef9c3' },
  green: { base: '#16a34a', bright: '#4ade80', tint: '#dcfce7' },
  teal: { base: '#0d9488', bright: '#2dd4bf', tint: '#ccfbf1' },
  blue: { base: '#2563eb', bright: '#60a5fa', tint: '#dbeafe' },
  purple: { base: '#7c3aed', bright: '#a78bfa', tint: '#ede9fe' },
  pink: { base: '#db2777', bright: '#f472b6', tint: '#fce7f3' },
  gray: { base: '#6b7280', bright: '#9ca3af', tint: '#f3f4f6' },
};

export const COLOR_NAMES = Object.keys(PALETTE) as ColorName[];

/** The neutral colours of one theme, plus its accent resolved to real colours. */
export interface ThemeColors {
  dark: boolean;
  page: string; // screen background
  surface: string; // cards, fields, dialogs
  raised: string; // menus, hovered/selected rows
  text: string;
  muted: string; // secondary text, placeholders, idle icons
  border: string; // field and card outlines
  divider: string; // hairlines between rows
  shadow: string;
  backdrop: string; // dims the screen behind a dialog
  accent: string; // the theme's accent on this background
  accentTint: string; // selected rows, tonal buttons
  onAccent: string; // text/icons on an accent fill
}

export function colorOf(name: ColorName, dark: boolean): string {
  return dark ? PALETTE[name].bright : PALETTE[name].base;
}

export function tintOf(name: ColorName, dark: boolean, surface: string): string {
  return dark ? mix(surface, PALETTE[name].bright, 0.22) : PALETTE[name].tint;
}

export function themeColors(theme: Theme): ThemeColors {
  const dark = theme.mode === 'dark';
  const accent = colorOf(theme.accent, dark);
  const base = dark
    ? {
        page: '#121316',
        surface: '#1d1f24',
        raised: '#2a2d33',
        text: '#f1f3f5',
        muted: '#9aa1ab',
        border: '#474c55',
        divider: '#2e3137',
        shadow: 'rgba(0,0,0,0.55)',
        backdrop: 'rgba(0,0,0,0.6)',
      }
    : {
        page: '#f6f7f9',
        surface: '#ffffff',
        raised: '#f1f3f5',
        text: '#14171c',
        muted: '#6b7280',
        border: '#cfd4dc',
        divider: '#e6e8ec',
        shadow: 'rgba(15,23,42,0.16)',
        backdrop: 'rgba(15,23,42,0.45)',
      };
  return {
    dark,
    ...base,
    accent,
    accentTint: tintOf(theme.accent, dark, base.surface),
    onAccent: onColor(accent),
  };
}

function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function hex(r: number, g: number, b: number): string {
  const c = (v: number) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0');
  return `#${c(r)}${c(g)}${c(b)}`;
}

/** a blended towards b by t in [0, 1]. */
export function mix(a: string, b: string, t: number): string {
  const [r1, g1, b1] = rgb(a);
  const [r2, g2, b2] = rgb(b);
  return hex(r1 + (r2 - r1) * t, g1 + (g2 - g1) * t, b1 + (b2 - b1) * t);
}

export function withAlpha(color: string, alpha: number): string {
  const [r, g, b] = rgb(color);
  return `rgba(${r},${g},${b},${alpha})`;
}

/** WCAG relative luminance of a #rrggbb colour. */
export function luminance(color: string): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = rgb(color);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Text colour that reads best on a fill: white on saturated/dark fills, ink on pale ones (yellow). */
export function onColor(fill: string): string {
  return luminance(fill) > 0.4 ? '#1a1a1a' : '#ffffff';
}

/** Hue in degrees, for tests that a colour looks like its name. */
export function hueOf(color: string): number {
  const [r, g, b] = rgb(color).map((v) => v / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** Saturation (HSV), low for grays. */
export function saturationOf(color: string): number {
  const [r, g, b] = rgb(color);
  const max = Math.max(r, g, b);
  return max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
}
