/**
 * The lab's state and actions: what the URL says (view, run, iteration,
 * preset, seed, demo, explain), the device, and the commands every control
 * and shortcut sends. Components render it; only this file writes the URL.
 */
import { LabSession } from './session.svelte';
import { parseLabUrl, writeLabUrl, type PresetChoice, type StartChoice, type ViewName } from '../url';
import { SHIPPED_BASE_PRESETS } from '../../pretrain/baseTypes';
import type { CoevoControl, CoevoProgress, DeviceInfo } from '../../../workers/api';

const baseShipsFor = (p: PresetChoice) => (SHIPPED_BASE_PRESETS as readonly string[]).includes(p);

export type Drive = Exclude<CoevoControl, 'abort'>;

/** Iterations of a demo run (DESIGN.md: the demo preset runs three). */
export const DEMO_ITERATIONS = 3;

export class Lab {
  readonly session = new LabSession();
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

  readonly progress: CoevoProgress | null = $derived(this.runId ? (this.session.progress[this.runId] ?? null) : null);
  /** The preset a new run gets: the URL's, else tiny where training is slow (CPU, software GPU), else demo. */
  readonly presetChoice: PresetChoice = $derived(this.preset ?? (this.device?.backend === 'webgpu' && !this.device.adapter?.software ? 'demo' : 'tiny'));
  /** Whether base models ship for the preset a new run gets. */
  readonly baseShips: boolean = $derived(baseShipsFor(this.presetChoice));
  /** Where a new run's weights come from. */
  readonly startChoice: StartChoice = $derived(this.startFor(this.presetChoice));

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

  /** Called once the worker has a backend: starts watching runs and loads the run the URL names. */
  async ready(device: DeviceInfo): Promise<void> {
    this.device = device;
    await this.session.connect();
    if (this.runId) {
      const p = await this.session.load(this.runId);
      if (!p) this.selectRun(null);
    }
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

  /** The base models where they ship for `preset`, unless the URL chose scratch. */
  startFor(preset: PresetChoice): StartChoice {
    return this.start !== 'scratch' && baseShipsFor(preset) ? 'base' : 'scratch';
  }

  setStart(start: StartChoice): void {
    this.start = start;
    writeLabUrl({ start });
  }

  setExplain(on: boolean): void {
    this.explain = on;
    writeLabUrl({ explain: on });
  }

  /** Starts a new run with the chosen preset and seed; the run on show, if running, is paused first. */
  async newRun(paused = true, preset: PresetChoice = this.presetChoice): Promise<string | null> {
    const current = this.progress;
    if (current?.state === 'running') await this.session.control(current.runId, 'pause');
    const runId = await this.session.start({ preset, seed: this.seed, iterations: this.iterations, paused, config: { start: this.startFor(preset) } });
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
    const state = this.session.progress[id]?.state;
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
    if (ok && this.runId === id) this.selectRun(null);
  }

  /** Demo mode: shows the demo layout and plays a run, the one on show if it can go on, else a new demo run. */
  async startDemo(): Promise<void> {
    this.demo = true;
    writeLabUrl({ demo: true });
    const p = this.progress;
    if (p && p.state !== 'done' && p.state !== 'failed') {
      if (p.state !== 'running') await this.session.control(p.runId, 'run');
      return;
    }
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
