/** What the render harness page offers on window.coevoRender (used by scripts/world.ts and the e2e tests). */
import type { Screen } from '../types';
import type { ScreenImage } from './screenImage';

export interface RenderedScreen {
  png: string; // base64
  hash: string; // pixelHash of the RGBA pixels
}

export interface RenderedFixture extends RenderedScreen {
  name: string;
  width: number;
  height: number;
  textPixelsInsideBoxes: boolean; // every visible text painted, legible, and only inside its element's box
  textFailures: string[]; // why not, element by element
  textElements: number; // how many elements with text were checked
  distinctColors: number;
  inWorker: boolean; // rendered on an OffscreenCanvas inside a Web Worker
}

export interface RenderRate {
  screens: number;
  ms: number;
  screensPerSecond: number; // render + getImageData, 1× scale, in the worker
  inWorker: boolean;
}

export interface CoevoRenderApi {
  ready: Promise<{ fontsInWindow: number; fontsInWorker: number; inWorker: boolean }>;
  renderFixtures(): Promise<RenderedFixture[]>;
  /** Like renderFixtures, for any screens (the e2e tests pass real world screens). */
  checkScreens(named: { name: string; screen: Screen }[]): Promise<RenderedFixture[]>;
  renderScreens(screens: Screen[], scale: number): Promise<RenderedScreen[]>;
  /** Screenshots of the trainer export (src/world/render/screenImage.ts): PNG bytes named by their RGB pixels' hash. */
  screenImages(screens: Screen[]): Promise<ScreenImage[]>;
  measureRenderRate(n: number, screens?: Screen[]): Promise<RenderRate>;
  /** Enlarges a PNG by an integer factor with nearest-neighbour sampling, to look at 1× pixels. */
  zoomPng(png: string, zoom: number): Promise<string>;
}

declare global {
  interface Window {
    coevoRender?: CoevoRenderApi;
  }
}
