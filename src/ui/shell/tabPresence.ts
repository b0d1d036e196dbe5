/**
 * Answers "which tab drives this run?" for the runs this tab's worker drives.
 * The worker answers too, but only between two of its batches, which can
 * take seconds; the page answers at once. So a question nobody answers means
 * the driving page is gone (a reload still tearing down its worker), which
 * is how a reloaded page tells its own run from another tab's
 * (workers/coevoHost.ts, open).
 */
import { LOCK_CHANNEL, type LockMessage } from '../../../workers/runLocks';

export function answerForTab(tab: { id: string; openedAt: string }, drives: (runId: string) => boolean): () => void {
  const channel = new BroadcastChannel(LOCK_CHANNEL);
  channel.onmessage = (e: MessageEvent<LockMessage>) => {
    if (e.data.type === 'who' && drives(e.data.runId)) channel.postMessage({ type: 'holder', runId: e.data.runId, tab } satisfies LockMessage);
  };
  return () => channel.close();
}
