/**
 * Progress of a co-evolution run in the terminal: one line rewritten in
 * place on a TTY, plain lines (at most every few seconds) when the output is
 * a file or a CI log, so both stay readable.
 */
import type { CoevoStatus } from './coevo-api';

/** `42s`, `3m05s`, `1h02m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function progressBar(done: number, total: number, width = 20): string {
  const f = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const full = Math.round(f * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}

const num = (v: number | undefined): string | null => (v === undefined || !Number.isFinite(v) ? null : String(+v.toPrecision(4)));

/** The one-line summary of a status, e.g. `phase 3/7 sft-grounder · iter 0 · [####....] 120/300 · ETA 1m20s · loss 0.532`. */
export function progressLine(s: CoevoStatus, elapsedMs: number): string {
  const parts = [`phase ${s.phaseIndex + 1}/${s.phaseCount} ${s.phase}`, `iter ${s.iteration}`];
  parts.push(s.total > 0 ? `${progressBar(s.done, s.total)} ${s.done}/${s.total}` : `${s.done} done`);
  parts.push(`ETA ${s.etaMs === null ? '?' : formatDuration(s.etaMs)}`);
  const loss = num(s.loss);
  const reward = num(s.reward);
  if (loss !== null) parts.push(`loss ${loss}`);
  if (reward !== null) parts.push(`reward ${reward}`);
  if (s.state === 'paused') parts.push('paused');
  parts.push(`elapsed ${formatDuration(elapsedMs)}`);
  return parts.join(' · ');
}

export interface ProgressOutput {
  write(text: string): void;
  isTTY: boolean;
  columns?: number;
}

/** Keeps the live line and lets other messages print above it without garbling it. */
export class ProgressPrinter {
  private live = '';
  private lastPlain = -Infinity;

  constructor(
    private readonly out: ProgressOutput,
    private readonly plainEveryMs = 5000,
  ) {}

  /** A status line: rewritten in place on a TTY; otherwise printed when `force` or every plainEveryMs. */
  update(line: string, nowMs: number, force = false): void {
    if (this.out.isTTY) {
      const cols = this.out.columns ?? 120;
      this.live = line.length >= cols ? `${line.slice(0, cols - 2)}…` : line;
      this.out.write(`\r\x1b[2K${this.live}`);
    } else if (force || nowMs - this.lastPlain >= this.plainEveryMs) {
      this.lastPlain = nowMs;
      this.out.write(`${line}\n`);
    }
  }

  /** A permanent message (phase finished, browser error): above the live line. */
  log(message: string): void {
    if (this.out.isTTY && this.live) this.out.write(`\r\x1b[2K${message}\n${this.live}`);
    else this.out.write(`${message}\n`);
  }

  /** Ends the live line so that later output starts on a fresh line. */
  end(): void {
    if (this.out.isTTY && this.live) this.out.write('\n');
    this.live = '';
  }
}
