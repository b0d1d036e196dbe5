/**
 * The real-screen suite's contract: fixture pages this project writes as
 * HTML/CSS (not drawn by the world's Canvas renderer), the controls and
 * texts on them, and the instructions that name a control. A page is pure
 * data here; the browser lays it out and rasterises it (rasterize.ts), and
 * the boxes come from the DOM, not from these files.
 */
import type { ColorName, IconName, Instruction, RefStyle, Role } from '../world/types';

/** Visual looks of the fixture pages: how the same patterns are styled. */
export type Look = 'plain' | 'material' | 'bordered' | 'dark' | 'dense';
export const LOOKS: readonly Look[] = ['plain', 'material', 'bordered', 'dark', 'dense'];

/** Component patterns a page is made of. */
export type Pattern = 'button-row' | 'form' | 'tabs' | 'dialog' | 'list' | 'toolbar' | 'cards';
export const PATTERNS: readonly Pattern[] = ['button-row', 'form', 'tabs', 'dialog', 'list', 'toolbar', 'cards'];

/** Held-out pages are never trained on (the world's rule: seeds at or above TEST_SEED_BASE). */
export type RealSplit = 'train' | 'held-out';

/**
 * One thing on a page the suite knows about, marked in the markup by
 * `data-rs="<id>"`. The fields mean what they mean on a world element
 * (types.ts UIElement), so the world's verifier can resolve instructions
 * against a page once the DOM has given the boxes.
 */
export interface RealElement {
  id: string;
  role: Role;
  text?: string;
  icon?: IconName;
  label?: string;
  color?: ColorName;
  purpose?: string;
  interactive: boolean;
  /**
   * Set on text that repeats a target's words outside the target (a heading,
   * a printed hint such as "Press Save to keep your changes"): the id of the
   * control it echoes. The grounder must click the control, not this.
   */
  distractorOf?: string;
}

/** One instruction of a page: the world's instruction value, its printed words and its target. */
export interface RealInstruction {
  style: RefStyle;
  targetId: string;
  instruction: Instruction;
  text: string;
}

export interface RealPage {
  /** Stable, e.g. "rs-held-out-1000003"; names the page in reports. */
  id: string;
  seed: number;
  split: RealSplit;
  look: Look;
  pattern: Pattern;
  /** CSS font-family list the look uses (system or generic families: the SVG image cannot reach the app's web fonts). */
  font: string;
  width: number;
  height: number;
  /** The page's stylesheet; every rule is scoped under `.rs-page`. */
  css: string;
  /** Well-formed XHTML of the page's root element (`<div class="rs-page ...">…</div>`). */
  html: string;
  elements: RealElement[];
  instructions: RealInstruction[];
}

/** An axis-aligned box in screen pixels, as getBoundingClientRect gives it relative to the page. */
export interface RealBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A page the browser has drawn: its pixels and every marked element's box. */
export interface RenderedPage {
  pageId: string;
  width: number;
  height: number;
  /** RGBA bytes, width × height × 4, as a world screen's pixels. */
  rgba: Uint8Array;
  boxes: Record<string, RealBox>;
}
