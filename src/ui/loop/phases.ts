/** How the lab names each phase of the loop, and which view shows what that phase made. */
import type { PhaseName } from '../../coevo/records';
import type { ViewName } from '../url';

export interface PhaseInfo {
  /** Short label for the diagram. */
  label: string;
  /** The model or dataset the phase produces, in the method's notation. */
  makes: string;
  /** The view where its output is best seen. */
  view: ViewName;
}

export const PHASE_INFO: Record<PhaseName, PhaseInfo> = {
  'seed-data': { label: 'Seed data', makes: 'D₀', view: 'data' },
  'sft-planner': { label: 'Planner SFT', makes: 'π₀', view: 'metrics' },
  'sft-grounder': { label: 'Grounder SFT', makes: 'φ₀', view: 'grounder' },
  'planner-grpo': { label: 'Planner GRPO', makes: 'πₖ', view: 'grpo' },
  distill: { label: 'Distil', makes: 'Eₖ, Dₖ', view: 'data' },
  'grounder-train': { label: 'Grounder train', makes: 'φₖ', view: 'grounder' },
  evaluate: { label: 'Evaluate', makes: 'metrics', view: 'metrics' },
};

export function phaseLabel(phase: PhaseName | null): string {
  return phase ? PHASE_INFO[phase].label : 'finished';
}

/** "about 2 min 5 s left", or a plain word before the phase has a pace. */
export function formatEta(etaMs: number | null): string {
  if (etaMs === null || !Number.isFinite(etaMs)) return 'estimating time left…';
  const s = Math.max(0, Math.round(etaMs / 1000));
  if (s < 1) return 'almost done';
  if (s < 60) return `about ${s} s left`;
  const m = Math.floor(s / 60);
  if (m < 60) return `about ${m} min ${s % 60} s left`;
  return `about ${Math.floor(m / 60)} h ${m % 60} min left`;
}
