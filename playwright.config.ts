import { defineConfig } from '@playwright/test';

/** Flags for Debian's chromium: WebGPU on (SwiftShader when there is no GPU), nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const PORT = 4173;

export default defineConfig({
  testDir: 'test/e2e',
  timeout: 240_000,
  expect: { timeout: 120_000 },
  fullyParallel: false,
  // Files run two at a time: each page's WASM engine is single-threaded (threads are off, README Notes).
  workers: 2,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    viewport: { width: 1280, height: 720 },
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
