/**
 * The lifecycle every command that drives the app shares: serve it, launch
 * headless Chromium, open the app on the asked backend, wait for its engine,
 * run the command's work, and close browser and server again, also on
 * Ctrl-C (no chromium or server is left behind).
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Browser, BrowserContext } from '@playwright/test';
import { launchBrowser, launchProfile, openApp, type BrowserApp } from './browser-app';
import type { CoevoDevice } from './coevo-api';
import type { Backend } from './coevo-args';
import { RunFailure } from './run-failure';
import type { ProgressPrinter } from './progress';

export interface Served {
  url: string;
  isolated: boolean;
  close(): Promise<void>;
}

export interface AppEnvironment {
  /** Makes the app reachable and says where; called once, after the cheap checks. On `port` when given. */
  serve(port?: number): Promise<Served>;
  printer: ProgressPrinter;
  /** How long the engine may take to start its backend (default 180 s: SwiftShader and WASM compile slowly). */
  readyTimeoutMs?: number;
}

export interface ServedApp {
  url: string;
  /** Chromium's version, e.g. `150.0.7000.0`. */
  browserVersion: string;
  app: BrowserApp;
  device: CoevoDevice;
}

/**
 * The port a profile's app is served on: the same for the same directory,
 * because stored runs belong to the page's origin (host and port).
 */
export function profilePort(dir: string): number {
  const h = createHash('sha256').update(resolve(dir)).digest();
  return 20_000 + (h.readUInt32BE(0) % 20_000);
}

function withTimeout<T>(p: Promise<T>, ms: number, message: (seconds: number) => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new RunFailure(1, message(Math.round(ms / 1000)))), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * Runs `work` against the app opened on `want.backend`. A backend other than
 * the one asked for fails when it was asked for explicitly, and is a warning
 * when it was the default. `lost` says what Ctrl-C loses.
 */
export async function withServedApp<T>(
  env: AppEnvironment,
  /** appChooses: without an explicit backend, open the app without one and let it choose as it does for a person (npm run coevo). */
  want: { backend: Backend; backendExplicit: boolean; lost: string; profile?: string; appChooses?: boolean; threads?: number },
  work: (s: ServedApp) => Promise<T>,
): Promise<T> {
  const { printer } = env;
  let server: Served | undefined;
  let browser: Browser | BrowserContext | undefined;
  const release = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
  };
  const onSignal = (): void => {
    printer.end();
    printer.log(`interrupted: closing the browser and the server (${want.lost}).`);
    void release().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  try {
    server = await env.serve(want.profile === undefined ? undefined : profilePort(want.profile));
    if (!server.isolated) printer.log('warning: the server did not send COOP/COEP headers, so the WASM backend runs single-threaded; check vite.config.ts preview.headers.');
    browser = want.profile === undefined ? await launchBrowser() : await launchProfile(want.profile);
    const auto = want.appChooses === true && !want.backendExplicit;
    const app = await openApp(browser, server.url, { backend: auto ? 'auto' : want.backend, threads: want.threads, onBrowserError: (m) => printer.log(m) });
    const browserVersion = 'version' in browser ? browser.version() : ((await app.page.evaluate(() => navigator.userAgent)).match(/Chrome\/(\S+)/)?.[1] ?? 'unknown');
    const device = await withTimeout(app.call('ready'), env.readyTimeoutMs ?? 180_000, (s) => `the app's engine worker did not report its backend within ${s} s (see the browser errors above, if any).`);
    printer.log(`app ready at ${server.url}: backend ${device.backend}, adapter ${device.adapter}`);
    if (device.backend !== want.backend) {
      const why = `asked for ${want.backend} but the app runs on ${device.backend}`;
      if (want.backendExplicit) throw new RunFailure(1, `${why} (no WebGPU adapter in this chromium?); pass --backend wasm to run on the CPU.`);
      if (auto) printer.log(`note: the app chose ${device.backend} (it prefers WASM over a software WebGPU adapter, and without one); pass --backend ${want.backend} to insist.`);
      else printer.log(`warning: ${why}.`);
    }
    return await work({ url: server.url, browserVersion, app, device });
  } finally {
    printer.end();
    process.off('SIGINT', onSignal);
    await release();
  }
}
