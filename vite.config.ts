/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { wasmThreads } from './scripts/lib/vite-wasm-threads.ts';

// Every response carries the headers of public/_headers (the file static hosts read): cross-origin
// isolation for the tfjs WASM backend's threads, and a strict Content-Security-Policy (docs/deploying.md).
const CSP = 'Content-Security-Policy';
const headers = readHeaders(new URL('./public/_headers', import.meta.url));
// The dev server's hot reload injects component styles as <style> elements and talks over a WebSocket.
const devHeaders = { ...headers, [CSP]: headers[CSP].replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws:") };

/** The headers of the `/*` rule of a _headers file (Netlify / Cloudflare Pages format). */
function readHeaders(file: URL): Record<string, string> {
  const out: Record<string, string> = {};
  let inRule = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) inRule = line.trim() === '/*';
    else if (inRule) {
      const colon = line.indexOf(':');
      out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
  }
  if (!out[CSP] || !out['Cross-Origin-Embedder-Policy']) throw new Error(`${file.pathname} has no CSP or COEP under /*`);
  return out;
}

/**
 * The CSP also as a <meta> tag in the built pages, for hosts that cannot send
 * headers (GitHub Pages). A meta policy cannot carry frame-ancestors, and
 * COOP/COEP have no meta form at all: such a host runs without threads.
 */
const metaCsp = (): Plugin => ({
  name: 'coevo-meta-csp',
  apply: 'build',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': CSP, content: headers[CSP].replace(/;\s*frame-ancestors[^;]*/, '') }, injectTo: 'head-prepend' },
  ],
});

export default defineConfig({
  plugins: [svelte(), metaCsp(), wasmThreads()],
  server: { host: '127.0.0.1', port: 5173, strictPort: true, headers: devHeaders },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true, headers },
  // The engine worker imports tfjs-backend-wasm, so its bundle needs the threads fix too.
  worker: { format: 'es', plugins: () => [wasmThreads()] },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 4096,
    // render.html is the world's rendering harness, used by `npm run world -- render` and e2e tests.
    rollupOptions: { input: { main: 'index.html', render: 'render.html' } },
  },
  test: {
    // Long learning runs (minutes each on a 2-core CPU) live in test/slow: `npm run test:slow`.
    include: process.env.COEVO_SLOW === '1' ? ['test/slow/**/*.test.ts'] : ['test/unit/**/*.test.ts'],
    environment: 'node',
    // tfjs's WASM backend runs single-threaded under Node, so vitest's default (cores − 1 workers) leaves
    // half of a 2-core machine idle; the unit files share no ports or paths.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
