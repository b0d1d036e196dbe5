/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Cross-origin isolation lets the tfjs WASM backend use threads (SharedArrayBuffer).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [svelte()],
  server: { host: '127.0.0.1', port: 5173, strictPort: true, headers: isolation },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true, headers: isolation },
  worker: { format: 'es' },
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
