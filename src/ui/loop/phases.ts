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
