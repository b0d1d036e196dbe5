/**
 * The real app in headless Chromium, driven through window.coevo. Calls come
 * back as plain outcomes so that an app error (a refused config, a failed
 * run) reads as the app's own message, not as a Playwright stack.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { CoevoApi } from './coevo-api';
import type { Backend } from './coevo-args';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Debian's chromium with WebGPU on (SwiftShader when there is no GPU) and nothing phoning home. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** The app answered a call with an error (its message is for the person running the command). */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly method: string,
    message: string,
    /** The app lacks the method altogether (an old build), rather than refusing the call. */
    readonly missing = false,
  ) {
    super(message);
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; missing: boolean; message: string };

export function missingApiMessage(method: string): string {
  return `the app does not expose window.coevo.${method}; rebuild (npx vite build), and if it is still missing, the app predates the co-evolution automation API.`;
}

export interface BrowserApp {
  page: Page;
  call<K extends keyof CoevoApi>(method: K, ...args: Parameters<CoevoApi[K]>): Promise<Awaited<ReturnType<CoevoApi[K]>>>;
  close(): Promise<void>;
}

function checkChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: run \`node scripts/ensure-chromium.mjs\` (or \`apt-get install -y chromium\`) and rerun.`);
  }
}

export async function launchBrowser(): Promise<Browser> {
  checkChromium();
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** Chromium whose storage (IndexedDB included) lives in `dir` and outlasts the process. */
export async function launchProfile(dir: string): Promise<BrowserContext> {
  checkChromium();
  mkdirSync(dir, { recursive: true });
  return chromium.launchPersistentContext(dir, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface OpenOptions {
  /** 'auto': the app's own choice (WebGPU on a hardware adapter, WASM on a software one or without WebGPU; src/ui/backendChoice.ts). */
  backend: Backend | 'auto';
  /** The WASM backend's thread count (?threads=N); absent: one per core. */
  threads?: number;
  /** Console errors and uncaught exceptions of the page and its workers. */
  onBrowserError(message: string): void;
  /** How long to wait for the app to install window.coevo (default 60 s). */
  installTimeoutMs?: number;
}

/** Opens the app at `baseUrl` and waits until it has installed window.coevo. */
export async function openApp(browser: Pick<Browser, 'newPage'>, baseUrl: string, options: OpenOptions): Promise<BrowserApp> {
  const page = await browser.newPage();
  let crashed = false;
  // The page's console events include its workers' (checked in test/unit/coevo-cli-run.test.ts).
  page.on('console', (m) => {
    if (m.type() === 'error') options.onBrowserError(`browser console: ${m.text()}`);
  });
  page.on('pageerror', (e) => options.onBrowserError(`browser page error: ${e.message}`));
  page.on('crash', () => {
    crashed = true;
    options.onBrowserError('the browser page crashed (out of memory?)');
  });

  // example=0: the profile holds only the runs this command makes (a first visit would store the shipped example run).
  const path = `/?${options.backend === 'auto' ? '' : `backend=${options.backend}&`}example=0${options.threads ? `&threads=${options.threads}` : ''}`;
  await page.goto(`${baseUrl}${path}`);
  const timeout = options.installTimeoutMs ?? 60_000;
  try {
    await page.waitForFunction(() => (window as unknown as { coevo?: unknown }).coevo !== undefined, undefined, { timeout });
  } catch {
    throw new Error(`the app did not install window.coevo within ${Math.round(timeout / 1000)} s (see the browser errors above, if any); rebuild (npx vite build) and rerun.`);
  }

  async function call<K extends keyof CoevoApi>(method: K, ...args: Parameters<CoevoApi[K]>): Promise<Awaited<ReturnType<CoevoApi[K]>>> {
    if (crashed) throw new Error(`the browser page crashed before window.coevo.${method}`);
    const outcome: Outcome = await page.evaluate(
      async ({ method, args }) => {
        const api = (window as unknown as { coevo?: Record<string, unknown> }).coevo;
        const fn = api?.[method];
        if (typeof fn !== 'function') return { ok: false, missing: true, message: '' } as const;
        try {
          return { ok: true, value: (await (fn as (...a: unknown[]) => unknown).apply(api, args)) as unknown } as const;
        } catch (e) {
          return { ok: false, missing: false, message: e instanceof Error ? e.message : String(e) } as const;
        }
      },
      { method: method as string, args: args as unknown[] },
    );
    if (outcome.ok) return outcome.value as Awaited<ReturnType<CoevoApi[K]>>;
    throw new AppError(method, outcome.missing ? missingApiMessage(method) : outcome.message, outcome.missing);
  }
  return { page, call, close: () => page.close() };
}
