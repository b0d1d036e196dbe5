/**
 * The lab's state and actions: what the URL says (view, run, iteration,
 * preset, seed, demo, explain), the device, and the commands every control
 * and shortcut sends. Components render it; only this file writes the URL.
 */
import { LabSession } from './session.svelte';
import { ExampleRun } from '../example/exampleRun.svelte';
import { listCoevoRuns } from '../runData';
import { labSearch, parseLabUrl, stringFromUrl, writeLabUrl, type PresetChoice, type StartChoice, type ViewName } from '../url';
import { SHIPPED_BASE_PRESETS } from '../../pretrain/baseTypes';
import type { CoevoControl, CoevoProgress, DeviceInfo } from '../../../workers/api';
import type { ConfigPath } from '../../coevo/config';
import { judge, type Edits, type FormVerdict, type RunBasics } from '../newrun/runForm';

const baseShipsFor = (p: PresetChoice) => (SHIPPED_BASE_PRESETS as readonly string[]).includes(p);

export type Drive = Exclude<CoevoControl, 'abort'>;

/** Iterations of a demo run (DESIGN.md: the demo preset runs three). */
export const DEMO_ITERATIONS = 3;

export class Lab {
  readonly session = new LabSession();
  /** The finished run that ships with the app, shown on a first visit and in Demo mode. */
  readonly example = new ExampleRun();
  /** The example stored for a first visit (its id), under way while the backend starts; null when this visit is no first one. */
  private firstVisit: Promise<string | null> | null = null;
  view = $state<ViewName>('loop');
  runId = $state<string | null>(null);
  iteration = $state<number | null>(null);
  preset = $state<PresetChoice | null>(null);
  seed = $state(1);
  start = $state<StartChoice | null>(null);
  iterations = $state(DEMO_ITERATIONS);
  demo = $state(false);
  explain = $state(false);
  device = $state<DeviceInfo | null>(null);
  /** Why the page started on this backend when a person might expect the other (set by the shell's backend plan). */
  backendWhy = $state<string | null>(null);
  /** The backends the badge's switch offers. */
  backendChoices = $state<('webgpu' | 'wasm')[]>([]);

  readonly progress: CoevoProgress | null = $derived(this.runId ? (this.session.progress[this.runId] ?? null) : null);
  /** The preset a new run gets: the URL's, else tiny where training is slow (CPU, software GPU), else demo. */
  readonly presetChoice: PresetChoice = $derived(this.preset ?? (this.device?.backend === 'webgpu' && !this.device.adapter?.software ? 'demo' : 'tiny'));
  /** Whether base models ship for the preset a new run gets. */
  readonly baseShips: boolean = $derived(baseShipsFor(this.presetChoice));
  /** Where a new run's weights come from. */
  readonly startChoice: StartChoice = $derived(this.startFor(this.presetChoice));

  /** The New-run form's edits: text per config field, judged by the validator (newrun/runForm.ts). */
  configEdits = $state<Edits>({});
  /** What the quick controls chose for the next run. */
  readonly basics: RunBasics = $derived({ preset: this.presetChoice, seed: this.seed, iterations: this.iterations, start: this.startChoice });
  /** The next run's config, name and refusals, as the form shows them. */
  readonly verdict: FormVerdict = $derived(judge(this.basics, this.configEdits));

  constructor(search: string = location.search) {
    this.readUrl(search);
  }

  /** Takes view, run and iteration from the URL (at start and on Back/Forward). */
  readUrl(search: string = location.search): void {
    const s = parseLabUrl(search);
    this.view = s.view;
    this.runId = s.run;
    this.iteration = s.it;
    this.preset = s.preset;
    this.seed = s.seed;
    this.start = s.start;
    this.demo = s.demo;
    this.explain = s.explain;
  }

  /**
   * On a visit with no run named and none stored, starts storing the shipped
   * example at once, while the backend starts (storing needs no backend): the
   * first view then has a finished run to show within seconds.
   */
  prepare(): void {
    if (this.runId !== null || stringFromUrl('example') === '0' || this.example.removed) return;
    this.firstVisit = listCoevoRuns().then(
      (runs) => (runs.length === 0 ? this.example.open([]) : null),
      () => null, // the store cannot be read here: ready() reports that through the session
    );
  }

  /** Called once the worker has a backend: starts watching runs and loads the run the URL names. */
  async ready(device: DeviceInfo): Promise<void> {
    this.device = device;
    void this.example.read();
    await this.session.connect();
    if (this.runId) {
      const p = await this.session.open(this.runId);
      if (!p) this.selectRun(null);
    } else if (this.session.runs.length > 0) {
      // A bare link opens on the newest stored run rather than an empty lab: most visits come back to see a run.
      this.runId = this.session.runs[0].id;
      writeLabUrl({ run: this.runId });
      await this.session.open(this.runId);
    } else if (this.firstVisit) {
      // A first visit opens on a finished run rather than an empty lab (example=0 keeps the lab empty, as tests want).
      const id = await this.firstVisit;
      // Storing the example takes seconds: a run the visitor started or picked meanwhile stays on show.
      if (id && this.runId === null) await this.showExample(id, false);
      else if (id) await this.session.refresh();
    }
  }

  /** Whether the run on show is the shipped example (finished, so read-only). */
  get onExample(): boolean {
    return this.runId !== null && this.runId === this.example.id;
  }

  /** Stores the shipped example if needed and shows it; false when it cannot (example.error says why). */
  async openExample(push = true): Promise<boolean> {
    const id = await this.example.open(this.session.runs.map((r) => r.id));
    if (!id) return false;
    await this.showExample(id, push);
    return true;
  }

  private async showExample(id: string, push: boolean): Promise<void> {
    await this.session.refresh();
    if (push) this.selectRun(id);
    else {
      this.runId = id;
      this.iteration = null;
      writeLabUrl({ run: id });
    }
    await this.session.load(id);
  }

  show(view: ViewName): void {
    if (view === this.view) return;
    this.view = view;
    writeLabUrl({ view }, true);
  }

  selectRun(id: string | null): void {
    this.runId = id;
    this.iteration = null;
    writeLabUrl({ run: id, it: null }, true);
    if (id && !this.session.progress[id]) void this.session.load(id);
  }

  selectIteration(k: number | null): void {
    this.iteration = k;
    writeLabUrl({ it: k });
  }

  setPreset(p: PresetChoice): void {
    this.preset = p;
    writeLabUrl({ preset: p });
  }

  setSeed(seed: number): void {
    this.seed = seed;
    writeLabUrl({ seed });
  }

  editConfig(path: ConfigPath, text: string): void {
    this.configEdits = { ...this.configEdits, [path]: text };
  }

  resetConfig(): void {
    this.configEdits = {};
  }

  /** The base models where they ship for `preset`, unless the URL chose scratch. */
  startFor(preset: PresetChoice): StartChoice {
    return this.start !== 'scratch' && baseShipsFor(preset) ? 'base' : 'scratch';
  }

  setStart(start: StartChoice): void {
    this.start = start;
    writeLabUrl({ start });
  }

  /** Why the backend switch is off now: switching reloads the page, which would cut a training run short. */
  get switchBlocked(): string | null {
    return this.progress?.state === 'running' ? 'Pause the run first: switching backends reloads the page.' : null;
  }

  /** Reloads the page on `backend`, kept in the URL (see BackendSwitch.svelte for why a reload). */
  switchBackend(backend: 'webgpu' | 'wasm'): void {
    if (this.switchBlocked) return;
    location.search = labSearch(location.search, { backend });
  }

  setExplain(on: boolean): void {
    this.explain = on;
    writeLabUrl({ explain: on });
  }

  /** Starts a new run with the chosen preset and seed; the run on show, if running, is paused first. */
  async newRun(paused = true, preset: PresetChoice = this.presetChoice): Promise<string | null> {
    const current = this.progress;
    if (current?.state === 'running') await this.session.control(current.runId, 'pause');
    const basics: RunBasics = { preset, seed: this.seed, iterations: this.iterations, start: this.startFor(preset) };
    const verdict = judge(basics, this.configEdits);
    const refused = Object.values(verdict.errors)[0];
    if (refused !== undefined) {
      this.session.error = `The run was not started: ${refused}`;
      return null;
    }
    // The edits travel as --set assignments, so the worker applies and checks them exactly as the command line does.
    const runId = await this.session.start({ preset, seed: this.seed, iterations: this.iterations, paused, config: { start: basics.start }, set: verdict.set, name: verdict.name });
    if (runId) this.selectRun(runId);
    return runId;
  }

  /** Runs, pauses or steps the run on show; with no run yet, starts one first. */
  async drive(action: Drive): Promise<void> {
    if (this.session.busy && action !== 'pause') return;
    let id = this.runId;
    if (!id) {
      if (action === 'pause') return;
      id = await this.newRun(action !== 'run');
      if (!id || action === 'run') return;
    }
    const shown = this.session.progress[id];
    // Another tab drives it: only that tab's controls move it (until it closes and this one takes over).
    if (shown?.drivenElsewhere) return;
    const state = shown?.state;
    if (state === 'done') return;
    if (action !== 'pause' && action !== 'run' && state === 'running') return; // steps wait for a pause
    await this.session.control(id, action);
  }

  /** Space: pause a running run, otherwise run it. */
  toggle(): Promise<void> {
    return this.drive(this.progress?.state === 'running' ? 'pause' : 'run');
  }

  async deleteRun(id: string): Promise<void> {
    const ok = await this.session.remove(id);
    if (ok && id === this.example.id) this.example.forget();
    if (ok && this.runId === id) this.selectRun(null);
  }

  /**
   * Demo mode: shows the demo layout and plays a run: the one on show if it
   * can go on; a finished one as it is (Demo walks its views); with none, the
   * shipped example. Training a new run waits for trainDemoRun (a click).
   */
  async startDemo(): Promise<void> {
    this.demo = true;
    writeLabUrl({ demo: true });
    const p = this.progress;
    if (p && p.state !== 'done' && p.state !== 'failed') {
      if (p.state !== 'running') await this.session.control(p.runId, 'run');
      return;
    }
    if (p?.state === 'done') return;
    await this.openExample();
  }

  /** Demo mode's "Train a new run": a run of DEMO_ITERATIONS with the demo preset where a real GPU runs it. */
  async trainDemoRun(): Promise<void> {
    const saved = this.iterations;
    this.iterations = DEMO_ITERATIONS;
    try {
      // The demo preset needs a real GPU; on a CPU or a software GPU the demo plays the tiny one.
      await this.newRun(false, this.preset ?? (this.presetChoice === 'tiny' ? 'tiny' : 'demo'));
    } finally {
      this.iterations = saved;
    }
  }

  stopDemo(): void {
    this.demo = false;
    writeLabUrl({ demo: false });
  }
}
