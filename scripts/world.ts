/**
 * World command line: `npx tsx scripts/world.ts <cmd>`.
 *   render --seed S --count N --out DIR [--scale K]   PNG + JSON annotation per screen
 *   fixtures --out DIR [--zoom Z]                     the renderer's fixtures at 1× (enlarged Z× nearest-neighbour), with their text-in-box checks
 *   rate [--count N]                                  screens/second rendered in the worker
 *   stats                                             what the world and renderer support, as JSON
 * Rendering happens in a real browser: a Vite dev server serves render.html
 * and headless Chromium renders in its Web Worker.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createServer, type ViteDevServer } from 'vite';
import { instructionsForScreen, sampleScreens, worldStats, type InstructionNote } from '../src/world/catalog';
import { SUPPORTED_ROLES } from '../src/world/render/draw';
import { FIXTURES } from '../src/world/render/fixtures';
import { FONT_FAMILIES, FONT_WEIGHTS } from '../src/world/render/font-faces';
import { COLOR_NAMES } from '../src/world/render/palette';
import type { RenderedScreen } from '../src/world/render/render-api';
import { visibleText } from '../src/world/render/text';
import type { RefStyle, Screen, Theme } from '../src/world/types';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The screens to render for a seed: real tasks, at a random point along their oracle path. */
export function screensFor(seed: number, count: number): Screen[] {
  return sampleScreens(seed, count).map((s) => s.screen);
}

/** The instructions for a screen's interactive elements in every reference style. */
export function annotate(screen: Screen, seed: number): InstructionNote[] {
  return instructionsForScreen(screen, seed);
}

function annotation(screen: Screen, index: number, seed: number, rendered: RenderedScreen, scale: number) {
  return {
    index,
    seed,
    scale,
    hash: rendered.hash,
    platform: screen.platform,
    width: screen.width,
    height: screen.height,
    appId: screen.appId,
    screenId: screen.screenId,
    variant: screen.variant,
    title: screen.title,
    theme: screen.theme,
    elements: screen.elements.map((e) => ({
      id: e.id,
      role: e.role,
      box: e.box,
      text: visibleText(e) ?? null,
      icon: e.icon ?? null,
      color: e.color ?? null,
      purpose: e.purpose ?? null,
      state: e.state,
      interactive: e.interactive,
      parent: e.parent ?? null,
    })),
    instructions: annotate(screen, seed + index),
  };
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createNetServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

interface Session {
  server: ViteDevServer;
  browser: Browser;
  page: Page;
}

async function openHarness(): Promise<Session> {
  const port = await freePort();
  const server = await createServer({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'error',
    clearScreen: false,
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false },
  });
  await server.listen();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`http://127.0.0.1:${port}/render.html`);
  await page.waitForFunction(() => window.coevoRender !== undefined);
  await page.evaluate(() => window.coevoRender!.ready);
  return { server, browser, page };
}

async function closeHarness(s: Session): Promise<void> {
  await s.browser.close();
  await s.server.close();
}

function flag(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

async function render(args: string[]): Promise<void> {
  const seed = Number(flag(args, 'seed', '1'));
  const count = Number(flag(args, 'count', '8'));
  const scale = Number(flag(args, 'scale', '1'));
  const out = resolve(flag(args, 'out', 'out/world'));
  mkdirSync(out, { recursive: true });
  const screens = screensFor(seed, count);
  const session = await openHarness();
  try {
    const digits = String(Math.max(0, count - 1)).length;
    for (let start = 0; start < screens.length; start += 64) {
      const batch = screens.slice(start, start + 64);
      const rendered = await session.page.evaluate(([b, k]) => window.coevoRender!.renderScreens(b, k), [batch, scale] as const);
      rendered.forEach((r, j) => {
        const i = start + j;
        const name = String(i).padStart(digits, '0');
        writeFileSync(join(out, `${name}.png`), Buffer.from(r.png, 'base64'));
        writeFileSync(join(out, `${name}.json`), JSON.stringify(annotation(batch[j], i, seed, r, scale), null, 1));
      });
    }
    console.log(JSON.stringify({ out, screens: screens.length, seed, scale }));
  } finally {
    await closeHarness(session);
  }
}

async function fixtures(args: string[]): Promise<void> {
  const out = resolve(flag(args, 'out', 'out/fixtures'));
  const zoom = Number(flag(args, 'zoom', '1'));
  mkdirSync(out, { recursive: true });
  const session = await openHarness();
  try {
    const checked = await session.page.evaluate(() => window.coevoRender!.renderFixtures());
    for (const f of checked) {
      const png = zoom === 1 ? f.png : await session.page.evaluate(([p, z]) => window.coevoRender!.zoomPng(p, z), [f.png, zoom] as const);
      writeFileSync(join(out, `${f.name}.png`), Buffer.from(png, 'base64'));
    }
    console.log(JSON.stringify(checked.map(({ png: _png, ...rest }) => rest), null, 1));
  } finally {
    await closeHarness(session);
  }
}

async function rate(args: string[]): Promise<void> {
  const n = Number(flag(args, 'count', '2000'));
  // Real world screens, cycled, so the figure is the world's and not only the fixtures'.
  const screens = screensFor(Number(flag(args, 'seed', '1')), 64);
  const session = await openHarness();
  try {
    const r = await session.page.evaluate(([k, s]) => window.coevoRender!.measureRenderRate(k, s), [n, screens] as const);
    console.log(JSON.stringify({ ...r, distinctScreens: screens.length }));
  } finally {
    await closeHarness(session);
  }
}

function stats(): void {
  const summary = {
    ...worldStats(),
    fonts: { families: FONT_FAMILIES.length, faces: FONT_FAMILIES.length * FONT_WEIGHTS.length, names: FONT_FAMILIES },
    colors: COLOR_NAMES.length,
    rendererRoles: SUPPORTED_ROLES.length,
  };
  console.log(JSON.stringify(summary, null, 2));
}

async function main(): Promise<void> {
  const [cmd, ...args] = process.argv.slice(2);
  if (cmd === 'render') await render(args);
  else if (cmd === 'fixtures') await fixtures(args);
  else if (cmd === 'rate') await rate(args);
  else if (cmd === 'stats') stats();
  else {
    console.error('usage: world.ts render --seed S --count N --out DIR [--scale K] | fixtures --out DIR [--zoom Z] | rate [--count N] | stats');
    process.exit(2);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
