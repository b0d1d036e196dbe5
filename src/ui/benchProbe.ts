/**
 * The page's side of the benchmark: how long the main thread was blocked
 * while the worker trained. 'longtask' entries report every task of 50 ms
 * or more; a 10 ms timer chain sees shorter stalls too (its lateness is the
 * longest task that delayed it, give or take a timer tick).
 */
import type { MainThreadBench } from '../bench/types';

const TICK_MS = 10;

export interface BenchProbe {
  /** Stops observing and returns what was seen; later calls return the same figures. */
  stop(): MainThreadBench;
}

export function startBenchProbe(): BenchProbe {
  const supported = typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes ?? []).includes('longtask');
  const started = performance.now();
  let longTasks = 0;
  let longest = 0;
  let maxLag = 0;
  let observer: PerformanceObserver | null = null;
  if (supported) {
    observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.startTime < started) continue;
        longTasks++;
        longest = Math.max(longest, e.duration);
      }
    });
    observer.observe({ type: 'longtask' });
  }
  let expected = performance.now() + TICK_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = (): void => {
    const now = performance.now();
    maxLag = Math.max(maxLag, now - expected);
    expected = now + TICK_MS;
    timer = setTimeout(tick, TICK_MS);
  };
  timer = setTimeout(tick, TICK_MS);

  let result: MainThreadBench | null = null;
  return {
    stop() {
      if (result) return result;
      if (observer) {
        // Entries still queued for the callback.
        for (const e of observer.takeRecords()) {
          if (e.startTime < started) continue;
          longTasks++;
          longest = Math.max(longest, e.duration);
        }
        observer.disconnect();
      }
      if (timer !== null) clearTimeout(timer);
      result = {
        longtaskSupported: supported,
        longTasks,
        longestTaskMs: longest,
        maxTimerLagMs: Math.max(0, maxLag),
        observedSeconds: (performance.now() - started) / 1000,
      };
      return result;
    },
  };
}
