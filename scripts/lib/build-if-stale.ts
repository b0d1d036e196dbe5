/** Builds the app with Vite when dist/ is missing or older than what it is built from. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the build reads, relative to the repository root. */
export const BUILD_INPUTS = ['src', 'workers', 'public', 'index.html', 'render.html', 'vite.config.ts', 'svelte.config.js'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs; // a deleted file shows only as the directory's change
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Why a build is needed, or null when dist/ is up to date. */
export function staleReason(root: string): string | null {
  const built = join(root, 'dist', 'index.html');
  if (!existsSync(built)) return 'dist/index.html is missing';
  const builtAt = statSync(built).mtimeMs;
  const newer = BUILD_INPUTS.filter((p) => newestMtime(join(root, p)) > builtAt);
  return newer.length ? `${newer.join(', ')} changed since the last build` : null;
}

/** Runs `npx vite build`; its output is shown only when it fails. */
export function viteBuild(root: string): Promise<void> {
  return new Promise((ok, fail) => {
    // Vite builds for development when NODE_ENV says anything but production (vitest sets it to "test"), and
    // such a dist runs WASM on one thread (backend.ts defaultThreads): the app is always built for production.
    const child = spawn('npx', ['vite', 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
    const output: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => output.push(d));
    child.stderr.on('data', (d: Buffer) => output.push(d));
    child.on('error', (e) => fail(new Error(`could not run npx vite build: ${e.message}`)));
    child.on('close', (code) => {
      if (code === 0) ok();
      else fail(new Error(`vite build failed (exit ${code}); its output:\n${Buffer.concat(output).toString('utf8')}\nFix the build and rerun.`));
    });
  });
}
