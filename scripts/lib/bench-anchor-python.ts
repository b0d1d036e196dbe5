/**
 * The python side of the PyTorch anchor: finding a python3 that imports
 * torch (installing Debian's python3-torch when none does) and running
 * bench/anchor/anchor.py on a spec in the scrubbed environment.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AnchorSpec } from '../../src/bench/types';
import { anchorEnv, parseAnchorRun, type AnchorRun } from './bench-anchor';
import { ROOT } from './cli';
import { RunFailure } from './run-failure';

export const ANCHOR_SCRIPT = join(ROOT, 'bench', 'anchor', 'anchor.py');
/** Where Debian's python3-torch is importable: the system interpreter (a pyenv or venv python3 on PATH may lack it). */
const SYSTEM_PYTHON = '/usr/bin/python3';
const APT_PACKAGES = ['python3-torch', 'libopenblas0-pthread'];

/** Interpreters to try, in order: $COEVO_PYTHON alone when set, else the system one, then python3 on PATH. */
export function pythonCandidates(env: Readonly<Record<string, string | undefined>>, systemExists = existsSync(SYSTEM_PYTHON)): string[] {
  if (env.COEVO_PYTHON) return [env.COEVO_PYTHON];
  return [...(systemExists ? [SYSTEM_PYTHON] : []), 'python3'];
}

/** The torch version `python` imports, or null. */
export function torchVersion(python: string): string | null {
  const r = spawnSync(python, ['-c', 'import torch; print(torch.__version__)'], { encoding: 'utf8', env: anchorEnv(process.env, 1), timeout: 120_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}

function aptGet(args: string[]): number {
  // apt's chatter goes to stderr: stdout carries the bench's table.
  return spawnSync('apt-get', args, { stdio: ['ignore', 2, 2], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status ?? 1;
}

/** A python3 with torch, installing python3-torch with apt-get when none has it. */
export function ensureTorchPython(say: (line: string) => void): { python: string; torch: string } {
  const candidates = pythonCandidates(process.env);
  for (const python of candidates) {
    const torch = torchVersion(python);
    if (torch) return { python, torch };
  }
  const tried = candidates.join(', ');
  if (process.env.COEVO_PYTHON) throw new RunFailure(1, `--anchor: ${process.env.COEVO_PYTHON} (COEVO_PYTHON) cannot import torch.`);
  if (process.getuid?.() !== 0) {
    throw new RunFailure(1, `--anchor needs PyTorch and none of ${tried} imports torch; installing it needs root: sudo apt-get install -y ${APT_PACKAGES.join(' ')} (or set COEVO_PYTHON to a python3 that has torch).`);
  }
  say(`--anchor: no python3 imports torch (tried ${tried}); installing ${APT_PACKAGES.join(' ')} with apt-get`);
  // A fresh machine's package lists may be missing or stale: update once, then retry.
  if (aptGet(['install', '-y', ...APT_PACKAGES]) !== 0 && (aptGet(['update']) !== 0 || aptGet(['install', '-y', ...APT_PACKAGES]) !== 0)) {
    throw new RunFailure(1, `--anchor: apt-get install -y ${APT_PACKAGES.join(' ')} failed (its output is above).`);
  }
  for (const python of pythonCandidates(process.env)) {
    const torch = torchVersion(python);
    if (torch) return { python, torch };
  }
  throw new RunFailure(1, `--anchor: ${APT_PACKAGES.join(' ')} installed, but still no python3 imports torch (tried ${tried}).`);
}

/** Runs anchor.py on `spec` with `threads` threads; its stderr is passed through, its stdout parsed. */
export function runAnchorScript(python: string, spec: AnchorSpec, o: { threads: number; steps: number; seed: number }): Promise<AnchorRun> {
  const args = [ANCHOR_SCRIPT, '--spec', '-', '--threads', String(o.threads), '--steps', String(o.steps), '--seed', String(o.seed)];
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { env: anchorEnv(process.env, o.threads), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => reject(new RunFailure(1, `--anchor: could not start ${python}: ${e.message}`)));
    child.on('close', (code) => {
      if (code !== 0) return reject(new RunFailure(1, `--anchor: ${python} ${ANCHOR_SCRIPT} exited with ${code}: ${err.trim().slice(-2000)}`));
      try {
        resolve(parseAnchorRun(out));
      } catch (e) {
        reject(new RunFailure(1, `--anchor: ${e instanceof Error ? e.message : String(e)}`));
      }
    });
    child.stdin.end(JSON.stringify(spec));
  });
}
