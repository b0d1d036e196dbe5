/**
 * The visual looks of the fixture pages, as CSS. Sizes follow the world's
 * web metrics (theme.ts metricsFor: body text 7–8 px, titles 9–10 px,
 * controls 11–12 px tall on a 200×128 screen), so text on a real page is as
 * tall as the text the grounder learned to read. Fonts are system or
 * generic families: an SVG image drawn to a canvas cannot use the page's
 * web fonts, and these render the same in the DOM (where boxes are
 * measured) and in the image (where pixels come from).
 */
import type { ColorName } from '../world/types';
import type { Look } from './types';

/** Fills of coloured buttons, named as a person would say them. */
export const FILLS: Readonly<Record<ColorName, string>> = {
  red: '#d32f2f',
  orange: '#e65100',
  yellow: '#f9c02a',
  green: '#2e7d32',
  teal: '#00796b',
  blue: '#1565c0',
  purple: '#6a1b9a',
  pink: '#c2185b',
  gray: '#616161',
};

interface LookSpec {
  font: string;
  text: number; // body text px
  title: number;
  bg: string;
  fg: string;
  muted: string;
  panel: string; // cards, nav bars, dialogs
  line: string; // borders
  btnBg: string;
  btnFg: string;
  btnBorder: string;
  radius: number;
  shadow: string;
  link: string;
  accent: string; // selected tab, focused field
  pad: number;
}

export const LOOK_SPECS: Readonly<Record<Look, LookSpec>> = {
  // An unstyled-looking page: serif text, grey system-like buttons, underlined links.
  plain: {
    font: "'Liberation Serif', 'DejaVu Serif', serif",
    text: 8, title: 10, bg: '#ffffff', fg: '#111111', muted: '#555555', panel: '#ffffff', line: '#767676',
    btnBg: '#efefef', btnFg: '#111111', btnBorder: '#767676', radius: 2, shadow: 'none', link: '#0000ee', accent: '#0000ee', pad: 4,
  },
  // Flat, material-like: sans text, filled accent buttons, raised cards, a coloured bar.
  material: {
    font: "'DejaVu Sans', 'Liberation Sans', sans-serif",
    text: 7, title: 9, bg: '#fafafa', fg: '#212121', muted: '#757575', panel: '#ffffff', line: '#e0e0e0',
    btnBg: '#3949ab', btnFg: '#ffffff', btnBorder: '#3949ab', radius: 3, shadow: '0 1px 2px rgba(0,0,0,0.35)', link: '#3949ab', accent: '#3949ab', pad: 4,
  },
  // Bordered, bootstrap-like: outlined buttons, light panels, rounded borders.
  bordered: {
    font: "'Liberation Sans', 'DejaVu Sans', sans-serif",
    text: 8, title: 10, bg: '#ffffff', fg: '#212529', muted: '#6c757d', panel: '#f8f9fa', line: '#ced4da',
    btnBg: '#ffffff', btnFg: '#0d6efd', btnBorder: '#0d6efd', radius: 3, shadow: 'none', link: '#0d6efd', accent: '#0d6efd', pad: 4,
  },
  // Dark: light text on near-black, teal accents.
  dark: {
    font: "'DejaVu Sans', sans-serif",
    text: 7, title: 9, bg: '#181a1b', fg: '#e8e6e3', muted: '#a8a29e', panel: '#26292b', line: '#44494d',
    btnBg: '#2f3437', btnFg: '#e8e6e3', btnBorder: '#5b6166', radius: 4, shadow: 'none', link: '#4fc3f7', accent: '#26a69a', pad: 4,
  },
  // Dense, table-like: monospace, small type, grid lines, square corners.
  dense: {
    font: "'Liberation Mono', 'DejaVu Sans Mono', monospace",
    text: 7, title: 8, bg: '#ffffff', fg: '#000000', muted: '#444444', panel: '#f0f0f0', line: '#999999',
    btnBg: '#e8e8e8', btnFg: '#000000', btnBorder: '#888888', radius: 0, shadow: 'none', link: '#00008b', accent: '#000000', pad: 2,
  },
};

/** The page's stylesheet; rules are scoped under `.rs-page` so they touch nothing else in the document. */
export function lookCss(look: Look, width: number, height: number): string {
  const s = LOOK_SPECS[look];
  const r = `.rs-page`;
  const fills = (Object.entries(FILLS) as [ColorName, string][])
    .map(([name, hex]) => `${r} .btn.c-${name}{background:${hex};border-color:${hex};color:${name === 'yellow' ? '#000' : '#fff'}}`)
    .join('');
  return [
    `${r}{box-sizing:border-box;position:relative;overflow:hidden;width:${width}px;height:${height}px;margin:0;padding:${s.pad}px;background:${s.bg};color:${s.fg};font-family:${s.font};font-size:${s.text}px;line-height:1.2}`,
    `${r} *{box-sizing:border-box;margin:0}`,
    `${r} .h{font-size:${s.title}px;font-weight:700;margin-bottom:2px;white-space:nowrap}`,
    `${r} .p{color:${s.muted};white-space:nowrap;margin-bottom:2px}`,
    `${r} .small{font-size:${Math.max(6, s.text - 1)}px;color:${s.muted};white-space:nowrap}`,
    `${r} .row{display:flex;align-items:center;gap:3px;margin-bottom:3px}`,
    `${r} .col{display:flex;flex-direction:column;gap:2px}`,
    `${r} .grow{flex:1}`,
    `${r} .btn{display:inline-block;white-space:nowrap;padding:1px 4px;border:1px solid ${s.btnBorder};border-radius:${s.radius}px;background:${s.btnBg};color:${s.btnFg};box-shadow:${s.shadow};line-height:9px}`,
    `${r} .btn.ghost{background:transparent;border-color:${s.line};color:${s.fg};box-shadow:none}`,
    fills,
    `${r} .ibtn{display:inline-flex;align-items:center;justify-content:center;width:12px;height:12px;border-radius:${s.radius}px;color:${s.fg}}`,
    `${r} .ibtn.framed{border:1px solid ${s.line}}`,
    `${r} .ico{width:9px;height:9px;fill:currentColor}`,
    `${r} .link{color:${s.link};text-decoration:underline;white-space:nowrap}`,
    `${r} .lbl{white-space:nowrap}`,
    `${r} .lbl.w{width:36px}`,
    `${r} .field{display:inline-block;height:11px;min-width:60px;padding:0 2px;border:1px solid ${s.line};border-radius:${Math.min(2, s.radius)}px;background:${s.bg === '#181a1b' ? '#101213' : '#ffffff'};color:${s.muted};font-size:${Math.max(6, s.text - 1)}px;line-height:9px;white-space:nowrap}`,
    `${r} .field.wide{min-width:90px}`,
    `${r} .chk{display:inline-block;width:7px;height:7px;border:1px solid ${s.line};border-radius:${Math.min(1, s.radius)}px;background:${s.bg}}`,
    `${r} .chk.on{background:${s.accent};border-color:${s.accent}}`,
    `${r} .nav{display:flex;align-items:center;gap:5px;margin:-${s.pad}px -${s.pad}px 3px;padding:2px ${s.pad}px;background:${look === 'material' ? s.accent : s.panel};color:${look === 'material' ? '#ffffff' : s.fg};border-bottom:1px solid ${s.line}}`,
    `${r} .nav .link{color:inherit;text-decoration:none}`,
    `${r} .tabs{display:flex;gap:0;border-bottom:1px solid ${s.line};margin-bottom:3px}`,
    `${r} .tab{padding:2px 3px;white-space:nowrap;color:${s.muted};border-bottom:2px solid transparent}`,
    `${r} .tab.sel{color:${s.accent};border-bottom-color:${s.accent};font-weight:700}`,
    `${r} .card{display:inline-flex;flex-direction:column;gap:2px;padding:3px;border:1px solid ${s.line};border-radius:${s.radius}px;background:${s.panel};box-shadow:${s.shadow}}`,
    `${r} .cards{display:flex;gap:4px}`,
    `${r} .list{border-top:1px solid ${s.line}}`,
    `${r} .li{display:flex;align-items:center;gap:3px;padding:1px 2px;border-bottom:1px solid ${s.line};height:${look === 'dense' ? 12 : 14}px}`,
    `${r} .veil{position:absolute;left:0;top:0;right:0;bottom:0;background:rgba(0,0,0,0.45)}`,
    `${r} .dlg{position:absolute;left:30px;top:28px;width:140px;padding:4px;background:${s.panel === '#ffffff' ? '#ffffff' : s.panel};border:1px solid ${s.line};border-radius:${s.radius}px;box-shadow:0 2px 6px rgba(0,0,0,0.5)}`,
    `${r} .end{justify-content:flex-end}`,
    `${r} .between{justify-content:space-between}`,
    `${r} .toolbar{display:flex;align-items:center;gap:2px;padding:1px;border:1px solid ${s.line};border-radius:${s.radius}px;background:${s.panel};margin-bottom:3px}`,
    `${r} .sep{width:1px;height:10px;background:${s.line};margin:0 2px}`,
  ].join('\n');
}
