/**
 * The lab's hold on the engine's co-evolution runs: the stored runs, the
 * latest progress of each run this tab drives, and the commands the Loop view
 * and the keyboard send. It is the only place the shell calls the engine's
 * co-evolution methods, so every control goes through the same checks.
 */
import { Comlink, getEngine, tabId } from '../engine';
import { answerForTab } from './tabPresence';
import { readStorage, requestPersistence } from '../storage/browserStorage';
import { noRoomMessage, runBytes } from '../storage/storageBudget';
import type { CoevoControl, CoevoProgress, CoevoStartOptions, RunRecord } from '../../../workers/api';

export type Command = CoevoControl | 'start' | 'delete';

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class LabSession {
  /** Stored co-evolution runs, newest first. */
  runs = $state<RunRecord[]>([]);
  /** Latest progress per run id: from the worker's stream, or a status query for stored runs. */
  progress = $state<Record<string, CoevoProgress>>({});
  /** The command in flight, so its button can say so and others wait. */
  busy = $state<Command | null>(null);
  /** A pause was asked for and the run has not reached a boundary yet. */
  pausing = $state<string | null>(null);
  error = $state<string | null>(null);
  private watching = false;

  /** Starts listening to the worker; call once the backend is chosen. */
  async connect(): Promise<void> {
    if (this.watching) return;
    this.watching = true;
    answerForTab({ id: tabId(), openedAt: new Date().toLocaleTimeString() }, (runId) => {
      const p = this.progress[runId];
      return p?.drivenHere === true && p.state !== 'done' && p.state !== 'failed';
    });
    await getEngine().watchCoevo(Comlink.proxy((p: CoevoProgress) => this.onProgress(p)));
    await this.refresh();
  }

  private onProgress(p: CoevoProgress): void {
    const before = this.progress[p.runId];
    this.progress[p.runId] = p;
    if (p.state !== 'running' && this.pausing === p.runId) this.pausing = null;
    // A run's record changes status when it finishes or fails: show that in the list.
    if (before?.state !== p.state && (p.state === 'done' || p.state === 'failed')) void this.refresh();
  }

  async refresh(): Promise<void> {
    try {
      this.runs = (await getEngine().listRuns()).filter((r) => r.kind === 'coevo');
    } catch (e) {
      this.error = `The stored runs could not be listed: ${message(e)}`;
    }
  }

  /** Fetches a run's progress (once, when it is first shown), without loading its models. */
  async load(runId: string): Promise<CoevoProgress | null> {
    try {
      const p = await getEngine().coevoStatus(runId);
      // The stream may have sent something newer meanwhile.
      if (!this.progress[runId] || this.progress[runId].state === p.state) this.progress[runId] = p;
      return this.progress[runId];
    } catch (e) {
      this.error = message(e);
      return null;
    }
  }

  /** Like load, for the run a page opens on: a run a reload cut off while it ran is taken up here and runs on. */
  async open(runId: string): Promise<CoevoProgress | null> {
    try {
      const p = await getEngine().openCoevo(runId);
      if (!this.progress[runId] || this.progress[runId].state === p.state || p.state === 'running') this.progress[runId] = p;
      return this.progress[runId];
    } catch (e) {
      this.error = message(e);
      return null;
    }
  }

  async start(options: CoevoStartOptions): Promise<string | null> {
    return this.guard('start', async () => {
      // A run that cannot fit is refused before it starts, not when the quota runs out mid-phase.
      const figures = await readStorage();
      const noRoom = figures && noRoomMessage(runBytes(options), figures);
      if (noRoom) throw new Error(noRoom);
      // Runs are hours of compute: ask the browser not to evict them (it may say no; the run list shows which).
      void requestPersistence();
      const { runId } = await getEngine().startCoevo(options);
      // Progress streams in through watchCoevo; the list and status catch up without holding the caller.
      void this.refresh();
      void this.load(runId);
      return runId;
    });
  }

  async control(runId: string, action: CoevoControl): Promise<void> {
    if (action === 'pause') this.pausing = runId;
    await this.guard(action, async () => {
      const p = await getEngine().controlCoevo(runId, action);
      if (!this.progress[runId] || this.progress[runId].state !== p.state) this.progress[runId] = p;
      if (action === 'pause' && p.state !== 'running') this.pausing = null;
    });
  }

  /** Deletes a stored run; a run this tab has loaded is stopped first, since the worker refuses to delete it. */
  async remove(runId: string): Promise<boolean> {
    const ok = await this.guard('delete', async () => {
      const engine = getEngine();
      const loaded = this.progress[runId];
      if (loaded && loaded.state !== 'done' && loaded.state !== 'failed') {
        await engine.controlCoevo(runId, 'abort');
        await this.untilUnloaded(runId);
      }
      await engine.deleteRun(runId);
      delete this.progress[runId];
      await this.refresh();
      return true;
    });
    return ok === true;
  }

  /** A stopped run is unloaded once the worker has seen its failure (at the next batch boundary); delete asks until it is. */
  private async untilUnloaded(runId: string): Promise<void> {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const p = await getEngine().coevoStatus(runId);
      if (p.state === 'failed' || p.state === 'done') return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`Run ${runId} did not stop within a minute, so it was not deleted; try deleting it again.`);
  }

  private async guard<T>(what: Command, f: () => Promise<T>): Promise<T | null> {
    this.busy = what;
    this.error = null;
    try {
      return await f();
    } catch (e) {
      if (what === 'pause') this.pausing = null;
      this.error = message(e);
      return null;
    } finally {
      this.busy = null;
    }
  }
}
