/**
 * Lays a View out into the Screen's elements and keeps, per element id, the
 * handlers the world applies when that element is acted on. Sizes come from
 * the theme's metrics and textWidth.ts, never from a canvas, so this runs in
 * Node and gives the same boxes everywhere.
 */
import type { AppVariant, Update, View, Widget } from './app';
import { fitText, textWidth, wrapText } from './textWidth';
import { metricsFor, textStyle, type Metrics, type TextTone } from './theme';
import type { Box, Platform, Screen, TextStyle, Theme, UIElement } from './types';
import { SCREEN_SIZE } from './types';

/** Interaction state that belongs to the world, not to the app. */
export interface UiState {
  scroll: number; // body scroll offset in px
  focus?: string; // id of the focused field
  expanded?: string; // id of the open dropdown
}

export interface Handlers<S> {
  click?: Update<S>;
  type?: (s: S, text: string) => S;
  select?: (s: S, option: string) => S;
  level?: (s: S, level: number) => S;
}

export interface Layout<S> {
  screen: Screen;
  handlers: Record<string, Handlers<S>>;
  /** Body elements scrolled out of view, and on which side. */
  offscreen: Record<string, 'above' | 'below'>;
  scroll: number; // the offset actually used (clamped)
  maxScroll: number;
  scrollStep: number;
  back?: Update<S>;
  dismiss?: Update<S>; // closes the open dialog or menu
  overlay?: 'dialog' | 'menu';
}

interface Ctx<S> {
  platform: Platform;
  theme: Theme;
  m: Metrics;
  labels: 'left' | 'above';
  ui: UiState;
  out: UIElement[];
  handlers: Record<string, Handlers<S>>;
  parents: string[];
  textCount: number;
}

const lineHeight = (style: TextStyle) => style.size + 3;

function styleOf<S>(c: Ctx<S>, tone: TextTone): TextStyle {
  return textStyle(c.theme, c.m, tone);
}

function emit<S>(c: Ctx<S>, el: Omit<UIElement, 'parent'>, handlers?: Handlers<S>): UIElement {
  const parent = c.parents[c.parents.length - 1];
  const full: UIElement = parent ? { ...el, parent } : { ...el };
  c.out.push(full);
  if (handlers) c.handlers[el.id] = handlers;
  return full;
}

function textId<S>(c: Ctx<S>): string {
  return `text-${++c.textCount}`;
}

/** Width of the label column when labels sit left of their fields. */
function labelWidth(platform: Platform): number {
  return platform === 'web' ? 34 : 36;
}

interface Size {
  w: number;
  h: number;
  fill: boolean; // takes the whole width it is given
}

function measure<S>(c: Ctx<S>, w: Widget<S>, maxW: number): Size {
  const m = c.m;
  switch (w.kind) {
    case 'column': {
      const gap = w.gap ?? m.gap;
      const hs = w.children.map((ch) => measure(c, ch, maxW).h);
      return { w: maxW, h: hs.reduce((a, b) => a + b, 0) + gap * Math.max(0, hs.length - 1), fill: true };
    }
    case 'row': {
      const widths = rowWidths(c, w.children, maxW, w.gap ?? m.gap);
      const h = Math.max(0, ...w.children.map((ch, i) => measure(c, ch, widths[i]).h));
      return { w: maxW, h, fill: true };
    }
    case 'text': {
      const st = styleOf(c, w.heading ? 'title' : (w.tone ?? 'body'));
      if (w.wrap) {
        const lines = wrapText(w.text, maxW, st);
        return { w: maxW, h: lines.length * lineHeight(st), fill: true };
      }
      return { w: Math.min(maxW, textWidth(w.text, st)), h: lineHeight(st), fill: !!w.grow };
    }
    case 'button':
      return { w: Math.min(maxW, textWidth(w.text, styleOf(c, 'strong')) + 2 * m.pad + 4), h: m.control, fill: !!w.grow };
    case 'icon-button':
      return { w: m.icon, h: m.icon, fill: false };
    case 'link':
      return { w: Math.min(maxW, textWidth(w.text, styleOf(c, 'body')) + 2), h: lineHeight(styleOf(c, 'body')) + 1, fill: false };
    case 'text-field':
    case 'dropdown': {
      const fieldH = w.kind === 'text-field' && w.multiline ? m.control * 2 + 4 : m.control;
      const labelH = lineHeight(styleOf(c, 'small'));
      return { w: maxW, h: c.labels === 'above' ? labelH + 1 + fieldH : fieldH, fill: true };
    }
    case 'search-box':
      return { w: Math.min(maxW, 60), h: m.control, fill: !!w.grow };
    case 'checkbox':
      return { w: Math.min(maxW, m.control - 3 + m.gap + textWidth(w.text, styleOf(c, 'body')) + 2), h: m.control, fill: false };
    case 'switch':
      return { w: maxW, h: m.row, fill: true };
    case 'radio-group': {
      const labelH = lineHeight(styleOf(c, 'strong'));
      return { w: maxW, h: labelH + w.options.length * (m.control - 1), fill: true };
    }
    case 'tabs':
      return { w: maxW, h: m.control + 2, fill: true };
    case 'list-item': {
      const two = c.platform === 'mobile' && w.secondary !== undefined;
      return { w: maxW, h: two ? m.row + m.small : m.row, fill: true };
    }
    case 'slider':
      return { w: maxW, h: lineHeight(styleOf(c, 'body')) + 10, fill: true };
    case 'card': {
      const inner = measure(c, { kind: 'column', children: w.children }, maxW - 2 * m.pad);
      return { w: maxW, h: inner.h + 2 * m.pad, fill: true };
    }
    case 'image':
      return { w: w.size ?? m.icon, h: w.size ?? m.icon, fill: false };
    case 'spacer':
      return { w: 0, h: w.h, fill: false };
  }
}

/** Natural widths for fixed children, the rest shared by the ones that fill. */
function rowWidths<S>(c: Ctx<S>, children: Widget<S>[], maxW: number, gap: number): number[] {
  const sizes = children.map((ch) => measure(c, ch, maxW));
  const fixed = sizes.reduce((a, s) => a + (s.fill ? 0 : s.w), 0) + gap * Math.max(0, children.length - 1);
  const fills = sizes.filter((s) => s.fill).length;
  const share = fills ? Math.max(0, Math.floor((maxW - fixed) / fills)) : 0;
  return sizes.map((s) => (s.fill ? share : s.w));
}

function place<S>(c: Ctx<S>, w: Widget<S>, box: Box): void {
  const m = c.m;
  switch (w.kind) {
    case 'column': {
      const gap = w.gap ?? m.gap;
      let y = box.y;
      for (const ch of w.children) {
        const s = measure(c, ch, box.w);
        place(c, ch, { x: box.x, y, w: s.fill ? box.w : s.w, h: s.h });
        y += s.h + gap;
      }
      return;
    }
    case 'row': {
      const gap = w.gap ?? m.gap;
      const widths = rowWidths(c, w.children, box.w, gap);
      const used = widths.reduce((a, b) => a + b, 0) + gap * Math.max(0, widths.length - 1);
      const free = Math.max(0, box.w - used);
      const between = w.justify === 'between' && widths.length > 1 ? free / (widths.length - 1) : 0;
      let x = box.x + (w.justify === 'end' ? free : 0);
      w.children.forEach((ch, i) => {
        const h = measure(c, ch, widths[i]).h;
        place(c, ch, { x: Math.round(x), y: box.y + Math.floor((box.h - h) / 2), w: widths[i], h });
        x += widths[i] + gap + between;
      });
      return;
    }
    case 'text': {
      const tone: TextTone = w.heading ? 'title' : (w.tone ?? 'body');
      const st = styleOf(c, tone);
      const lh = lineHeight(st);
      const lines = w.wrap ? wrapText(w.text, box.w, st) : [fitText(w.text, box.w, st)];
      lines.forEach((line, i) => {
        if (!line) return;
        emit(c, {
          id: textId(c),
          role: w.heading ? 'heading' : 'text',
          box: { x: box.x, y: box.y + i * lh, w: Math.min(box.w, textWidth(line, st)), h: lh },
          text: line,
          color: w.color,
          state: {},
          interactive: false,
          style: st,
        });
      });
      return;
    }
    case 'button': {
      const st = styleOf(c, 'strong');
      emit(
        c,
        {
          id: w.id,
          role: 'button',
          box,
          text: fitText(w.text, box.w - 2 * m.pad, st),
          color: w.color ?? (w.primary ? c.theme.accent : undefined),
          purpose: w.purpose,
          state: {},
          interactive: true,
          style: st,
        },
        { click: w.onClick },
      );
      return;
    }
    case 'icon-button':
      emit(
        c,
        { id: w.id, role: 'icon-button', box, icon: w.icon, color: w.color, purpose: w.purpose, state: w.selected ? { selected: true } : {}, interactive: true },
        { click: w.onClick },
      );
      return;
    case 'link': {
      const st = styleOf(c, 'body');
      emit(
        c,
        { id: w.id, role: 'link', box, text: fitText(w.text, box.w, st), purpose: w.purpose, color: c.theme.accent, state: w.selected ? { selected: true } : {}, interactive: true, style: st },
        { click: w.onClick },
      );
      return;
    }
    case 'text-field':
    case 'dropdown': {
      const lst = styleOf(c, 'small');
      const fieldH = w.kind === 'text-field' && w.multiline ? m.control * 2 + 4 : m.control;
      let field: Box;
      if (c.labels === 'above') {
        emit(c, labelEl(c, `${w.id}.label`, w.label, { x: box.x, y: box.y, w: box.w, h: lineHeight(lst) }, lst));
        field = { x: box.x, y: box.y + lineHeight(lst) + 1, w: box.w, h: fieldH };
      } else {
        const lw = labelWidth(c.platform);
        emit(c, labelEl(c, `${w.id}.label`, w.label, { x: box.x, y: box.y + Math.floor((m.control - lineHeight(lst)) / 2), w: lw - 2, h: lineHeight(lst) }, lst));
        field = { x: box.x + lw, y: box.y, w: box.w - lw, h: fieldH };
      }
      const st = styleOf(c, 'body');
      if (w.kind === 'text-field') {
        const shown = w.multiline ? wrapText(w.value, field.w - 4, st).slice(0, 2).join(' ') : fitText(w.value, field.w - 4, st);
        emit(
          c,
          { id: w.id, role: 'text-field', box: field, text: shown || undefined, label: w.label, state: { value: w.value, focused: c.ui.focus === w.id }, interactive: true, style: st },
          { type: w.onType },
        );
      } else {
        emit(
          c,
          { id: w.id, role: 'dropdown', box: field, text: fitText(w.value, field.w - 12, st), label: w.label, options: w.options, state: { value: w.value, expanded: c.ui.expanded === w.id }, interactive: true, style: st },
          { select: w.onSelect },
        );
      }
      return;
    }
    case 'search-box': {
      const st = styleOf(c, 'body');
      emit(
        c,
        { id: w.id, role: 'search-box', box, text: w.value ? fitText(w.value, box.w - 12, st) : undefined, label: w.label, icon: 'search', state: { value: w.value, focused: c.ui.focus === w.id }, interactive: true, style: st },
        { type: w.onType },
      );
      return;
    }
    case 'checkbox': {
      const st = styleOf(c, 'body');
      emit(
        c,
        { id: w.id, role: 'checkbox', box, text: fitText(w.text, box.w - m.control, st), state: { checked: w.checked }, interactive: true, style: st },
        { click: w.onToggle },
      );
      return;
    }
    case 'switch': {
      const st = styleOf(c, 'body');
      const sw = { w: Math.round(m.control * 1.6), h: m.control - 3 };
      let x = box.x;
      if (w.icon) {
        const s = m.icon;
        emit(c, { id: `${w.id}.icon`, role: 'image', box: { x, y: box.y + Math.floor((box.h - s) / 2), w: s, h: s }, icon: w.icon, state: {}, interactive: false });
        x += s + m.gap + 1;
      }
      const textW = box.x + box.w - sw.w - m.gap - x;
      emit(c, labelEl(c, `${w.id}.label`, w.text, { x, y: box.y + Math.floor((box.h - lineHeight(st)) / 2), w: textW, h: lineHeight(st) }, st));
      emit(
        c,
        { id: w.id, role: 'switch', box: { x: box.x + box.w - sw.w, y: box.y + Math.floor((box.h - sw.h) / 2), w: sw.w, h: sw.h }, label: w.text, purpose: w.purpose, color: w.checked ? c.theme.accent : undefined, state: { checked: w.checked }, interactive: true },
        { click: w.onToggle },
      );
      return;
    }
    case 'radio-group': {
      const lst = styleOf(c, 'strong');
      const st = styleOf(c, 'body');
      emit(c, labelEl(c, `${w.id}.label`, w.label, { x: box.x, y: box.y, w: box.w, h: lineHeight(lst) }, lst));
      let y = box.y + lineHeight(lst);
      w.options.forEach((opt, i) => {
        const rw = Math.min(box.w, m.control + textWidth(opt, st) + 2);
        emit(
          c,
          { id: `${w.id}.${i}`, role: 'radio', box: { x: box.x, y, w: rw, h: m.control - 1 }, text: fitText(opt, rw - m.control, st), label: w.label, state: { checked: opt === w.value }, interactive: true, style: st },
          { click: (s) => w.onSelect(s, opt) },
        );
        y += m.control - 1;
      });
      return;
    }
    case 'tabs': {
      const st = styleOf(c, 'strong');
      const n = w.tabs.length;
      const tw = Math.floor(box.w / n);
      w.tabs.forEach((tab, i) => {
        emit(
          c,
          { id: `${w.id}.${i}`, role: 'tab', box: { x: box.x + i * tw, y: box.y, w: tw, h: box.h }, text: fitText(tab, tw - 2, st), state: { selected: tab === w.value }, interactive: true, style: st },
          { click: (s) => w.onSelect(s, tab) },
        );
      });
      return;
    }
    case 'list-item':
      placeListItem(c, w, box);
      return;
    case 'slider': {
      const st = styleOf(c, 'body');
      const lh = lineHeight(st);
      let x = box.x;
      if (w.icon) {
        emit(c, { id: `${w.id}.icon`, role: 'image', box: { x, y: box.y, w: lh, h: lh }, icon: w.icon, state: {}, interactive: false });
        x += lh + m.gap;
      }
      const pct = `${Math.round(w.level * 100)}%`;
      const pw = textWidth('100%', st);
      emit(c, labelEl(c, `${w.id}.label`, w.label, { x, y: box.y, w: box.x + box.w - pw - m.gap - x, h: lh }, st));
      emit(c, { id: `${w.id}.value`, role: 'text', box: { x: box.x + box.w - pw, y: box.y, w: pw, h: lh }, text: pct, state: {}, interactive: false, style: st });
      emit(
        c,
        { id: w.id, role: 'slider', box: { x: box.x, y: box.y + lh + 1, w: box.w, h: 8 }, label: w.label, color: c.theme.accent, state: { level: w.level, value: pct }, interactive: true },
        { level: w.onSet },
      );
      return;
    }
    case 'card': {
      emit(c, { id: w.id, role: 'card', box, state: {}, interactive: !!w.onClick }, w.onClick ? { click: w.onClick } : undefined);
      c.parents.push(w.id);
      place(c, { kind: 'column', children: w.children }, { x: box.x + m.pad, y: box.y + m.pad, w: box.w - 2 * m.pad, h: box.h - 2 * m.pad });
      c.parents.pop();
      return;
    }
    case 'image':
      emit(c, { id: w.id, role: 'image', box, icon: w.icon, state: {}, interactive: false });
      return;
    case 'spacer':
      return;
  }
}

function labelEl<S>(c: Ctx<S>, id: string, text: string, box: Box, st: TextStyle): Omit<UIElement, 'parent'> {
  const shown = fitText(text, box.w, st);
  return { id, role: 'text', box: { ...box, w: Math.min(box.w, textWidth(shown, st)) }, text: shown, state: {}, interactive: false, style: st };
}

function placeListItem<S>(c: Ctx<S>, w: Extract<Widget<S>, { kind: 'list-item' }>, box: Box): void {
  const m = c.m;
  const st = styleOf(c, w.strong ? 'strong' : 'body');
  const sub = styleOf(c, 'muted');
  const trailing = w.trailing ?? [];
  const trailW = trailing.reduce((a, t) => a + measure(c, t, box.w).w + m.gap, 0);
  const iconS = c.platform === 'mobile' ? m.icon : 0;
  const textX = box.x + m.pad + (w.icon && iconS ? iconS + m.gap + 1 : 0);
  const textW = box.x + box.w - m.pad - trailW - textX;
  const two = c.platform === 'mobile' && w.secondary !== undefined;
  const mainW = w.secondary !== undefined && !two ? Math.floor(textW * 0.42) : textW;
  const text = fitText(w.text, mainW, st);
  emit(c, { id: w.id, role: 'list-item', box, text, state: w.selected ? { selected: true } : {}, interactive: true, style: st }, { click: w.onClick });
  c.parents.push(w.id);
  if (w.icon && iconS) {
    emit(c, { id: `${w.id}.icon`, role: 'image', box: { x: box.x + m.pad, y: box.y + Math.floor((box.h - iconS) / 2), w: iconS, h: iconS }, icon: w.icon, state: {}, interactive: false });
  }
  if (w.secondary !== undefined) {
    const lh = lineHeight(sub);
    const sb: Box = two
      ? { x: textX, y: box.y + Math.floor(box.h / 2), w: textW, h: lh }
      : { x: textX + mainW + m.gap, y: box.y + Math.floor((box.h - lh) / 2), w: textW - mainW - m.gap, h: lh };
    const shown = fitText(w.secondary, sb.w, sub);
    if (shown) emit(c, { id: `${w.id}.sub`, role: 'text', box: { ...sb, w: Math.min(sb.w, textWidth(shown, sub)) }, text: shown, state: {}, interactive: false, style: sub });
  }
  let x = box.x + box.w - m.pad;
  for (const t of [...trailing].reverse()) {
    const s = measure(c, t, box.w);
    x -= s.w;
    place(c, t, { x, y: box.y + Math.floor((box.h - s.h) / 2), w: s.w, h: s.h });
    x -= m.gap;
  }
  c.parents.pop();
}

const inside = (a: Box, b: Box) => a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
export const intersects = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Lay out one view of an app. */
export function layoutView<S>(view: View<S>, platform: Platform, variant: AppVariant, ui: UiState, appId: string, variantIndex: number): Layout<S> {
  const { width: W, height: H } = SCREEN_SIZE[platform];
  const theme = variant.theme;
  const m = metricsFor(platform, theme);
  const c: Ctx<S> = { platform, theme, m, labels: variant.labels, ui, out: [], handlers: {}, parents: [], textCount: 0 };
  let top = 0;
  if (view.nav) {
    const nav = view.nav;
    emit(c, { id: 'nav', role: 'nav-bar', box: { x: 0, y: 0, w: W, h: m.nav }, text: nav.title, state: {}, interactive: false });
    c.parents.push('nav');
    const kids: Widget<S>[] = [];
    if (nav.onBack) kids.push({ kind: 'icon-button', id: 'nav.back', icon: 'back', onClick: nav.onBack, purpose: 'go back' });
    kids.push({ kind: 'text', text: nav.title, heading: true, grow: !nav.center });
    if (nav.center) kids.push(nav.center);
    kids.push(...(nav.actions ?? []));
    place(c, { kind: 'row', children: kids, gap: m.gap + 1 }, { x: m.pad, y: 0, w: W - 2 * m.pad, h: m.nav });
    c.parents.pop();
    const back = c.out.find((e) => e.id === 'nav.back');
    if (back) back.role = 'back-button';
    top = m.nav;
  }
  let bottom = H;
  if (view.footer?.length) {
    const col: Widget<S> = { kind: 'column', children: view.footer };
    const h = measure(c, col, W - 2 * m.pad).h + 2 * m.gap;
    bottom = H - h;
    place(c, col, { x: m.pad, y: bottom + m.gap, w: W - 2 * m.pad, h: h - 2 * m.gap });
  }
  let left = 0;
  if (view.side?.length) {
    const sw = view.sideWidth ?? 40;
    place(c, { kind: 'column', children: view.side }, { x: m.pad, y: top + m.pad, w: sw - m.pad, h: bottom - top - 2 * m.pad });
    left = sw;
  }
  // The body scrolls; only elements fully inside its viewport stay on screen.
  const fixedCount = c.out.length;
  const body: Widget<S> = { kind: 'column', children: view.body };
  const bw = W - left - 2 * m.pad;
  const contentH = measure(c, body, bw).h + 2 * m.pad;
  const viewH = bottom - top;
  const maxScroll = Math.max(0, contentH - viewH);
  const scroll = Math.min(Math.max(0, ui.scroll), maxScroll);
  place(c, body, { x: left + m.pad, y: top + m.pad - scroll, w: bw, h: contentH - 2 * m.pad });
  const offscreen: Record<string, 'above' | 'below'> = {};
  const kept = c.out.slice(0, fixedCount);
  const tooTall = new Set<string>();
  for (const el of c.out.slice(fixedCount)) {
    // A row or card cut by the viewport edge goes with everything inside it, so
    // no orphaned icon or button stays clickable; one taller than the viewport
    // could never be shown whole, so its children stand alone. Parents come first.
    const parentSide = el.parent !== undefined && tooTall.has(el.parent) ? undefined : el.parent !== undefined ? offscreen[el.parent] : undefined;
    if (el.box.h > viewH) tooTall.add(el.id);
    if (parentSide) offscreen[el.id] = parentSide;
    else if (el.box.y >= top && el.box.y + el.box.h <= bottom) kept.push(el);
    else offscreen[el.id] = el.box.y < top ? 'above' : 'below';
  }
  let elements = reparent(kept);

  let dismiss: Update<S> | undefined;
  let overlayKind: 'dialog' | 'menu' | undefined;
  const ov = view.overlay;
  if (ov?.kind === 'dialog') {
    overlayKind = 'dialog';
    dismiss = ov.onDismiss;
    const dw = platform === 'web' ? Math.min(W - 24, 150) : W - 12;
    const inner: Widget<S> = {
      kind: 'column',
      children: [{ kind: 'text', text: ov.title, heading: true }, ...ov.body, { kind: 'row', justify: 'end', children: ov.actions }],
      gap: m.gap + 1,
    };
    const dh = measure(c, inner, dw - 2 * m.pad - 2).h + 2 * m.pad + 2;
    const dbox: Box = { x: Math.floor((W - dw) / 2), y: Math.max(2, Math.floor((H - dh) / 2)), w: dw, h: dh };
    // Modal: what the dialog covers is hidden, the rest stays visible but inert.
    elements = reparent(elements.filter((e) => !intersects(e.box, dbox))).map((e) => ({ ...e, interactive: false }));
    c.out = [];
    c.handlers = {};
    emit(c, { id: ov.id, role: 'dialog', box: dbox, text: ov.title, state: {}, interactive: false });
    c.parents.push(ov.id);
    place(c, inner, { x: dbox.x + m.pad + 1, y: dbox.y + m.pad + 1, w: dw - 2 * m.pad - 2, h: dh - 2 * m.pad - 2 });
    c.parents.pop();
    elements = elements.concat(c.out);
  } else if (ov?.kind === 'menu') {
    overlayKind = 'menu';
    dismiss = ov.onDismiss;
    const anchor = elements.find((e) => e.id === ov.anchor);
    const st = styleOf(c, 'body');
    const mw = Math.max(...ov.items.map((it) => textWidth(it.text, st))) + 2 * m.pad + 2;
    const mh = ov.items.length * m.option;
    const ab = anchor?.box ?? { x: W - m.pad, y: top, w: 0, h: 0 };
    const x = Math.max(1, Math.min(W - mw - 1, ab.x + ab.w - mw));
    const y = ab.y + ab.h + 1 + mh <= H ? ab.y + ab.h + 1 : Math.max(1, ab.y - mh - 1);
    const mbox: Box = { x, y, w: mw, h: mh };
    if (anchor) anchor.state = { ...anchor.state, expanded: true };
    elements = reparent(elements.filter((e) => e.id === ov.anchor || !intersects(e.box, mbox)));
    c.out = [];
    ov.items.forEach((it, i) => {
      emit(c, { id: it.id, role: 'menu-item', box: { x, y: y + i * m.option, w: mw, h: m.option }, text: it.text, icon: it.icon, state: {}, interactive: true, style: st }, { click: it.onClick });
    });
    elements = elements.concat(c.out.map((e) => ({ ...e, parent: anchor ? ov.anchor : undefined })));
  }

  // An open dropdown lists its options below (or above) itself, on top of everything.
  const dd = ui.expanded ? elements.find((e) => e.id === ui.expanded && e.role === 'dropdown' && e.interactive) : undefined;
  const ddh = dd ? c.handlers[dd.id] : undefined;
  if (dd?.options && ddh?.select) {
    const st = styleOf(c, 'body');
    const opts = dd.options;
    const ow = Math.min(W - 2, Math.max(dd.box.w, Math.max(...opts.map((o) => textWidth(o, st))) + 2 * m.pad));
    const oh = opts.length * m.option;
    const below = dd.box.y + dd.box.h + 1;
    const y = below + oh <= H ? below : dd.box.y - oh - 1 >= 0 ? dd.box.y - oh - 1 : Math.max(0, H - oh);
    const x = Math.max(0, Math.min(W - ow, dd.box.x));
    const pbox: Box = { x, y, w: ow, h: oh };
    const keep = new Set(ancestors(elements, dd.id));
    elements = reparent(elements.filter((e) => keep.has(e.id) || !intersects(e.box, pbox)));
    const select = ddh.select;
    opts.forEach((opt, i) => {
      const el: UIElement = { id: `${dd.id}.opt${i}`, role: 'option', box: { x, y: y + i * m.option, w: ow, h: m.option }, text: fitText(opt, ow - 2 * m.pad, st), parent: elements.some((e) => e.id === dd.id) ? dd.id : undefined, state: { selected: opt === dd.state.value }, interactive: true, style: st };
      elements.push(el);
      c.handlers[el.id] = { click: (s) => select(s, opt) };
    });
  }

  const handlers: Record<string, Handlers<S>> = {};
  for (const e of elements) if (e.interactive && c.handlers[e.id]) handlers[e.id] = c.handlers[e.id];
  const nav = view.nav;
  return {
    screen: { platform, width: W, height: H, appId, variant: variantIndex, screenId: view.screenId, title: view.title, theme, elements },
    handlers,
    offscreen,
    scroll,
    maxScroll,
    scrollStep: Math.max(8, Math.floor(viewH / 2)),
    back: nav?.onBack,
    dismiss,
    overlay: overlayKind,
  };
}

function ancestors(elements: UIElement[], id: string): string[] {
  const byId = new Map(elements.map((e) => [e.id, e]));
  const out: string[] = [];
  let cur = byId.get(id);
  while (cur) {
    out.push(cur.id);
    cur = cur.parent ? byId.get(cur.parent) : undefined;
  }
  return out;
}

/** Drop parent links to elements that are no longer on screen, so every parent id names a visible element. */
function reparent(elements: UIElement[]): UIElement[] {
  const all = new Map(elements.map((e) => [e.id, e]));
  return elements.map((e) => {
    if (!e.parent || all.has(e.parent)) return e;
    const { parent: _gone, ...rest } = e;
    return rest;
  });
}

export { inside as boxInside };
