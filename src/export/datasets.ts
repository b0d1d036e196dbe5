/**
 * Which samples of a run make which exported dataset (METHOD.md §2's
 * algorithm box): D0 is the kept seed data, Ek what iteration k distilled and
 * kept, Dk = D(k-1) ∪ Ek, and the prompts of planner GRPO at iteration k are
 * the training states of D(k-1), once each. Dropped samples stay out: the
 * trainers should learn from what the loop trained on.
 */
import type { StepSample } from '../coevo/records';
import type { DatasetKind } from './types';

export interface DatasetPlan {
  name: string;
  kind: DatasetKind;
  iteration: number;
  samples: StepSample[];
}

export function planDatasets(samples: readonly StepSample[]): DatasetPlan[] {
  const kept = samples.filter((s) => s.kept);
  const iterations = [...new Set(kept.map((s) => s.iteration))].sort((a, b) => a - b);
  const upTo = (k: number) => kept.filter((s) => s.iteration <= k);
  const out: DatasetPlan[] = [];
  if (iterations.includes(0)) out.push({ name: 'd0', kind: 'seed', iteration: 0, samples: upTo(0) });
  const last = iterations.length > 0 ? iterations[iterations.length - 1] : 0;
  for (let k = 1; k <= last; k++) {
    // Planner GRPO of iteration k ran before Ek existed, on the states of D(k-1).
    out.push({ name: `planner-grpo-${k}`, kind: 'planner-grpo', iteration: k, samples: uniqueStates(upTo(k - 1)) });
    const ek = kept.filter((s) => s.iteration === k);
    if (ek.length > 0) out.push({ name: `e${k}`, kind: 'distilled', iteration: k, samples: ek });
    out.push({ name: `d${k}`, kind: 'curated', iteration: k, samples: upTo(k) });
  }
  return out.filter((d) => d.samples.length > 0);
}

/** One sample per (task, step): several writers' instructions for one state are one GRPO prompt. */
function uniqueStates(samples: readonly StepSample[]): StepSample[] {
  const seen = new Set<string>();
  return samples.filter((s) => {
    const key = `${s.task.id}\u0000${s.stepIndex}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
