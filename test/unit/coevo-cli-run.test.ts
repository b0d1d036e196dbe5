/**
 * The headless command's driver (scripts/lib/coevo-run.ts) against a stand-in
 * app in real headless Chromium: a page whose window.coevo follows the
 * automation contract with a scripted run, so the browser, the polling, the
 * exit statuses and the written report are checked without the engine.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoevoReport } from '../../src/coevo/records';
import { CHROMIUM_PATH } from '../../scripts/lib/browser-app';
import type { CoevoArgs } from '../../scripts/lib/coevo-args';
import { runCoevo } from '../../scripts/lib/coevo-run';
import { RunFailure } from '../../scripts/lib/run-failure';
import { ProgressPrinter } from '../../scripts/lib/progress';
import { profilePort } from '../../scripts/lib/served-app';

const REPORT: CoevoReport = {
  version: 1,
  runId: 'fake-run',
  config: { preset: 'tiny', seed: 1, iterations: 1 },
  device: { backend: 'wasm', adapter: 'stand-in' },
  timings: [{ iteration: 0, phase: 'seed-data', seconds: 1.5 }],
  iterations: [
    { k: 0, planner_reward_mean: null, metrics: { 'web/cross-task/step_success': 0.25 } },
    { k: 1, planner_reward_mean: 0.5, metrics: { 'web/cross-task/step_success': 0.375 } },
  ],
  datasets: [{ iteration: 0, size: 10, kept: 8, bySource: { 'writer:terse': 10 }, byStyle: { text: 10 } }],
  curation: [],
  informative_group_ratio: [{ iteration: 1, value: 0.75 }],
  curves: { 'grounder-sft/loss': { steps: [1, 2, 3], values: [2, 1, 0.5] } },
};

/** The stand-in app: ready() names the backend from the URL; the run takes four polls over two phases. */
const APP = `<!doctype html><html><body><script>
const report = ${JSON.stringify(REPORT)};
new Worker('/worker.js');
let polls = 0, failing = false;
window.coevo = {
  // Under /nogpu/ it behaves like a browser without a WebGPU adapter: the app falls back to wasm.
  ready: async () => ({ backend: new URLSearchParams(location.search).get('backend') === 'wasm' || location.pathname.startsWith('/nogpu') ? 'wasm' : 'webgpu', adapter: 'stand-in' }),
  startCoevo: async (o) => {
    const bad = o.set.find((s) => s.startsWith('lr='));
    if (bad && Number(bad.slice(3)) <= 0) throw new Error('lr: must be in (0, 1], got ' + bad.slice(3));
    failing = o.set.includes('fail=true');
    return { runId: 'fake-run' };
  },
  coevoStatus: async () => {
    polls++;
    if (failing && polls >= 2) return { state: 'failed', iteration: 0, phase: 'sft-planner', phaseIndex: 1, phaseCount: 2, done: 1, total: 4, etaMs: null, error: 'NaN loss at step 3' };
    const phase = polls <= 2 ? 0 : 1;
    return { state: polls >= 5 ? 'done' : 'running', iteration: 0, phase: ['seed-data', 'sft-planner'][phase], phaseIndex: phase, phaseCount: 2,
             done: polls, total: 4, etaMs: 1000 * (4 - polls), loss: 1 / polls };
  },
  coevoReport: async () => report,
  exportRun: async () => new Uint8Array([80, 75, 5, 6, 0, 255, 128]),
};
</script></body></html>`;

/**
 * A stand-in whose runs live in localStorage, so they outlast the browser
 * when it keeps a profile: a new run fails after its first poll (an
 * interruption); 'run' on a stored run resumes it, and it is done one poll later.
 */
const STORED_APP = `<!doctype html><html><body><script>
const report = ${JSON.stringify(REPORT)};
const get = (id) => JSON.parse(localStorage.getItem(id) ?? 'null');
const put = (id, run) => localStorage.setItem(id, JSON.stringify(run));
const status = (run, state) => ({ state, iteration: 0, phase: state === 'done' ? null : 'sft-planner', phaseIndex: 1, phaseCount: 2, done: 0, total: 4, etaMs: null, error: state === 'failed' ? 'the browser went away' : undefined });
window.coevo = {
  ready: async () => ({ backend: 'wasm', adapter: 'stand-in' }),
  startCoevo: async () => {
    const n = Number(localStorage.getItem('starts') ?? 0) + 1;
    localStorage.setItem('starts', String(n));
    put('run-' + n, { state: 'new' });
    return { runId: 'run-' + n };
  },
  coevoStatus: async (id) => {
    const run = get(id);
    if (!run) throw new Error('No run ' + id + ' is stored here.');
    if (run.state === 'new') { put(id, { state: 'failed' }); return status(run, 'running'); }
    if (run.state === 'resumed') { put(id, { state: 'done' }); return status(run, 'running'); }
    return status(run, run.state);
  },
  controlCoevo: async (id, action) => {
    if (action === 'run') put(id, { state: 'resumed' });
    return status(get(id), 'running');
  },
  coevoReport: async () => report,
  exportRun: async () => new Uint8Array([80, 75, 5, 6, 0, 255, 128]),
};
</script></body></html>`;

/** An app whose engine never comes up. */
const STUCK_APP = `<!doctype html><html><body><script>window.coevo = { ready: () => new Promise(() => {}) };</script></body></html>`;

/** An app from before the co-evolution API: window.coevo exists, ready() does not. */
const OLD_APP = `<!doctype html><html><body><script>window.coevo = { stepCheck: async () => ({}) };</script></body></html>`;

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

let server: Server;
let base = '';
let outRoot = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/worker.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript', ...ISOLATION });
      res.end("console.error('worker says hello');");
    } else if (path === '/' || path === '/nogpu/' || path === '/old/' || path === '/stuck/' || path === '/stored/') {
      res.writeHead(200, { 'Content-Type': 'text/html', ...ISOLATION });
      res.end(path === '/old/' ? OLD_APP : path === '/stuck/' ? STUCK_APP : path === '/stored/' ? STORED_APP : APP);
    } else if (path === '/favicon.ico') {
      res.writeHead(204, ISOLATION);
      res.end();
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  outRoot = mkdtempSync(join(tmpdir(), 'coevo-cli-run-'));
});

afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  rmSync(outRoot, { recursive: true, force: true });
});

function args(over: Partial<CoevoArgs>): CoevoArgs {
  return { preset: 'tiny', iterations: 1, seed: 1, out: join(outRoot, 'x'), backend: 'wasm', backendExplicit: true, set: [], ...over };
}

function harness(path = '') {
  const lines: string[] = [];
  const printer = new ProgressPrinter({ write: (t) => lines.push(...t.split('\n').filter(Boolean)), isTTY: false }, 0);
  const env = { printer, pollMs: 20, serve: async () => ({ url: `${base}${path}`, isolated: true, close: async () => undefined }) };
  return { lines, env };
}

async function failure(p: Promise<unknown>): Promise<RunFailure | Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the run to fail');
}

describe.skipIf(!existsSync(CHROMIUM_PATH))('coevo run driver against a stand-in app', () => {
  it('follows the run, forwards worker errors and writes report.json, report.md and the charts', async () => {
    const out = join(outRoot, 'ok');
    const { lines, env } = harness();
    const r = await runCoevo(args({ out }), env);
    expect(r.runId).toBe('fake-run');
    expect(r.device).toEqual({ backend: 'wasm', adapter: 'stand-in' });
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toEqual(REPORT);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('0.375');
    expect(readdirSync(join(out, 'charts')).sort()).toEqual(r.written.charts.map((c) => c.split('/').pop()).sort());
    for (const c of r.written.charts) expect(md).toContain(`charts/${c.split('/').pop()}`);
    // The run's archive crosses from the page as bytes, unchanged.
    expect(r.written.archive).toBe(join(out, 'run.zip'));
    expect([...readFileSync(r.written.archive)]).toEqual([80, 75, 5, 6, 0, 255, 128]);
    const text = lines.join('\n');
    expect(text).toContain('backend wasm, adapter stand-in');
    expect(text).toMatch(/phase 1\/2 seed-data · iter 0 · \[#+\.*\] 1\/4/);
    expect(text).toMatch(/phase 2\/2 sft-planner/);
    expect(text).toContain('finished iteration 0 seed-data');
    expect(text).toContain('finished iteration 0 sft-planner');
    expect(text).toContain('worker says hello');
    expect(lines.filter((l) => l.includes('worker says hello'))).toEqual(['browser console: worker says hello']);
  });

  it('exits 2 with the app’s message when it refuses the config, and writes nothing', async () => {
    const out = join(outRoot, 'refused');
    const e = await failure(runCoevo(args({ out, set: ['lr=-1'] }), harness().env));
    expect(e).toBeInstanceOf(RunFailure);
    expect((e as RunFailure).exitCode).toBe(2);
    expect(e.message).toContain('lr: must be in (0, 1], got -1');
    expect(existsSync(out)).toBe(false);
  });

  it('exits 1 with the run’s error when the run fails', async () => {
    const e = await failure(runCoevo(args({ out: join(outRoot, 'failed'), set: ['fail=true'] }), harness().env));
    expect((e as RunFailure).exitCode).toBe(1);
    expect(e.message).toContain('phase sft-planner: NaN loss at step 3');
  });

  it('refuses a fallback to wasm when --backend webgpu was given, and without --backend lets the app choose and says so', async () => {
    const e = await failure(runCoevo(args({ backend: 'webgpu', backendExplicit: true, out: join(outRoot, 'nogpu') }), harness('/nogpu').env));
    expect((e as RunFailure).exitCode).toBe(1);
    expect(e.message).toContain('asked for webgpu but the app runs on wasm');
    const { lines, env } = harness('/nogpu');
    const ok = await runCoevo(args({ backend: 'webgpu', backendExplicit: false, out: join(outRoot, 'fallback') }), env);
    expect(ok.device.backend).toBe('wasm');
    expect(lines.join('\n')).toContain('note: the app chose wasm (it prefers WASM over a software WebGPU adapter, and without one); pass --backend webgpu to insist.');
  });

  it('says to rebuild when the app lacks window.coevo.ready', async () => {
    const e = await failure(runCoevo(args({ out: join(outRoot, 'old') }), harness('/old').env));
    expect(e.message).toBe('the app does not expose window.coevo.ready; rebuild (npx vite build), and if it is still missing, the app predates the co-evolution automation API.');
  });

  it('with --profile, the same command resumes the interrupted run; other options start a new one', async () => {
    const profile = join(outRoot, 'profile');
    const first = harness('/stored');
    const e = await failure(runCoevo(args({ out: join(outRoot, 'p1'), profile }), first.env));
    expect(e.message).toContain('the browser went away');
    expect(first.lines.join('\n')).toContain('run run-1: preset tiny');
    expect(existsSync(join(profile, 'coevo-cli-run.json'))).toBe(true);

    // A new chromium on the same profile directory finds the run and resumes it instead of starting another.
    const second = harness('/stored');
    const resumed = await runCoevo(args({ out: join(outRoot, 'p2'), profile }), second.env);
    expect(resumed.runId).toBe('run-1');
    const text = second.lines.join('\n');
    expect(text).toContain('resuming run run-1 from the profile at iteration 0, phase sft-planner (phase 2/2)');
    expect(text).not.toContain('run run-2');
    expect(existsSync(join(outRoot, 'p2', 'report.json'))).toBe(true);

    const third = harness('/stored');
    expect((await runCoevo(args({ out: join(outRoot, 'p3'), profile }), third.env)).runId).toBe('run-1');
    expect(third.lines.join('\n')).toContain('run run-1 already finished in this profile; writing its report.');

    const other = harness('/stored');
    await failure(runCoevo(args({ out: join(outRoot, 'p4'), profile, seed: 2 }), other.env));
    expect(other.lines.join('\n')).toContain('started with other options');
    expect(other.lines.join('\n')).toContain('run run-2: preset tiny, seed 2');
  });

  it('gives up when the engine never reports its backend', async () => {
    const { env } = harness('/stuck');
    const e = await failure(runCoevo(args({ out: join(outRoot, 'stuck') }), { ...env, readyTimeoutMs: 2000 }));
    expect((e as RunFailure).exitCode).toBe(1);
    expect(e.message).toBe("the app's engine worker did not report its backend within 2 s (see the browser errors above, if any).");
  });
});

describe('profilePort', () => {
  it('gives a directory the same port every time, and another directory (almost surely) another', () => {
    const a = profilePort('/tmp/some-profile');
    expect(profilePort('/tmp/some-profile')).toBe(a);
    expect(a).toBeGreaterThanOrEqual(20_000);
    expect(a).toBeLessThan(40_000);
    expect(profilePort('/tmp/another-profile')).not.toBe(a);
  });
});
