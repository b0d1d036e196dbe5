/**
 * One tab drives a run at a time. The worker that drives a run holds a Web
 * Lock named after it; another tab's attempt fails at once and asks, over a
 * BroadcastChannel, which tab holds it, so its message can say so. A tab
 * that only watches a run can learn whether another tab holds it now
 * (heldElsewhere) and be told when that tab has let go (whenFree).
 */
export interface TabInfo {
  id: string;
  openedAt: string;
}

export class RunLockedError extends Error {
  constructor(
    readonly runId: string,
    readonly holder: TabInfo | null,
  ) {
    super(
      holder
        ? `Run ${runId} is being driven by another tab (tab ${holder.id}, opened at ${holder.openedAt}). Close that tab, or pause the run there, to drive it here.`
        : `Run ${runId} is being driven by another tab. Close that tab to drive it here.`,
    );
    this.name = 'RunLockedError';
  }
}

export type LockMessage = { type: 'who'; runId: string } | { type: 'holder'; runId: string; tab: TabInfo };

/** Where 'who holds this run' is asked and answered: by the driving worker between its batches, and by its page at once (ui/shell/tabPresence.ts). */
export const LOCK_CHANNEL = 'coevo-run-locks';

const lockName = (runId: string) => `coevo-run:${runId}`;

/** The tab id the page put in its worker's name (the same across the tab's reloads), else a new one. */
function tabIdOfWorker(): string {
  const name = typeof self !== 'undefined' && 'name' in self ? String((self as { name?: unknown }).name ?? '') : '';
  return /^coevo-engine:(\w{1,16})$/.exec(name)?.[1] ?? crypto.randomUUID().slice(0, 4);
}

export function createRunLocks(tab: TabInfo = { id: tabIdOfWorker(), openedAt: new Date().toLocaleTimeString() }) {
  const held = new Map<string, () => void>();
  const channel = new BroadcastChannel(LOCK_CHANNEL);
  channel.onmessage = (e: MessageEvent<LockMessage>) => {
    if (e.data.type === 'who' && held.has(e.data.runId)) channel.postMessage({ type: 'holder', runId: e.data.runId, tab } satisfies LockMessage);
  };

  function whoHolds(runId: string, waitMs = 500): Promise<TabInfo | null> {
    const ask = new BroadcastChannel(LOCK_CHANNEL);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(null), waitMs);
      function finish(t: TabInfo | null) {
        clearTimeout(timer);
        ask.close();
        resolve(t);
      }
      ask.onmessage = (e: MessageEvent<LockMessage>) => {
        if (e.data.type === 'holder' && e.data.runId === runId) finish(e.data.tab);
      };
      ask.postMessage({ type: 'who', runId } satisfies LockMessage);
    });
  }

  return {
    tab,
    /** Takes the run's lock or throws RunLockedError; holding it twice in one worker is a no-op. */
    async acquire(runId: string): Promise<void> {
      if (held.has(runId)) return;
      await new Promise<void>((resolve, reject) => {
        void navigator.locks.request(lockName(runId), { ifAvailable: true }, async (lock) => {
          if (!lock) {
            reject(new RunLockedError(runId, await whoHolds(runId)));
            return;
          }
          await new Promise<void>((release) => {
            held.set(runId, release);
            resolve();
          });
        });
      });
    },
    release(runId: string): void {
      held.get(runId)?.();
      held.delete(runId);
    },
    holds: (runId: string) => held.has(runId),
    /** Whether another tab holds the run's lock, and which one if it answers (null: nobody else holds it). */
    async heldElsewhere(runId: string): Promise<{ holder: TabInfo | null } | null> {
      if (held.has(runId)) return null;
      const state = await navigator.locks.query();
      if (!(state.held ?? []).some((l) => l.name === lockName(runId))) return null;
      return { holder: await whoHolds(runId) };
    },
    /** Resolves once nobody holds the run's lock (the tab driving it closed or let it go); it takes and drops the lock to know. */
    async whenFree(runId: string): Promise<void> {
      await navigator.locks.request(lockName(runId), async () => undefined);
    },
  };
}

export type RunLocks = ReturnType<typeof createRunLocks>;
