/**
 * The lab's views: tab labels and icons, and where each view's component
 * lives. Views other than the Loop and the World are loaded lazily, so the
 * first paint does not wait for their code.
 */
import type { Component } from 'svelte';
import { mdiChartLine, mdiCrosshairsGps, mdiDatabaseOutline, mdiEarth, mdiGamepadVariantOutline, mdiScaleBalance, mdiShieldLockOutline, mdiSync } from '@mdi/js';
import type { CoevoProgress } from '../../../workers/api';
import type { ViewName } from '../url';

/** What the shell passes every view (the UI contract of issue 6). */
export interface ViewProps {
  runId: string | null;
  iteration: number | null;
  progress: CoevoProgress | null;
  onSelectIteration: (k: number) => void;
}

export interface ViewTab {
  id: ViewName;
  label: string;
  /** An @mdi/js path. */
  icon: string;
}

export const VIEW_TABS: readonly ViewTab[] = [
  { id: 'loop', label: 'Loop', icon: mdiSync },
  { id: 'grpo', label: 'GRPO', icon: mdiScaleBalance },
  { id: 'grounder', label: 'Grounder', icon: mdiCrosshairsGps },
  { id: 'data', label: 'Data', icon: mdiDatabaseOutline },
  { id: 'metrics', label: 'Metrics', icon: mdiChartLine },
  { id: 'playground', label: 'Playground', icon: mdiGamepadVariantOutline },
  { id: 'offsite', label: 'Offsite', icon: mdiShieldLockOutline },
  { id: 'world', label: 'World', icon: mdiEarth },
];

type ViewModule = { default: Component<ViewProps> };

// A glob rather than plain import()s: it tolerates a view whose file does not exist yet (it is simply absent from the map).
const MODULES = import.meta.glob<ViewModule>([
  '../grpo/GrpoView.svelte',
  '../grounder/GrounderView.svelte',
  '../data/DataView.svelte',
  '../metrics/MetricsView.svelte',
  '../playground/PlaygroundView.svelte',
  '../offsite/OffsiteView.svelte',
]);

const PATHS: Partial<Record<ViewName, string>> = {
  grpo: '../grpo/GrpoView.svelte',
  grounder: '../grounder/GrounderView.svelte',
  data: '../data/DataView.svelte',
  metrics: '../metrics/MetricsView.svelte',
  playground: '../playground/PlaygroundView.svelte',
  offsite: '../offsite/OffsiteView.svelte',
};

/** The lazily loaded component of a view, or null when this build has none for it. */
export function loadView(view: ViewName): Promise<Component<ViewProps>> | null {
  const path = PATHS[view];
  const load = path ? MODULES[path] : undefined;
  return load ? load().then((m) => m.default) : null;
}
