/**
 * The distillation funnel as the Data view draws it: per step, its bar's
 * width as a share of the instructions sampled, what the step lost, and
 * which step lost the most (the bottleneck). Pure, from report.funnel.
 */
import type { DistillFunnel } from '../../coevo/funnel';

export interface FunnelRow {
  key: string;
  label: string;
  count: number;
  /** Width of its bar in [0, 1]: count over the instructions sampled (the states row: over itself). */
  width: number;
  /** Lost at this step: the previous step's count minus this one's (0 for the first two rows). */
  lost: number;
  off: boolean;
  bottleneck: boolean;
}

export interface FunnelChartData {
  iteration: number;
  rows: FunnelRow[];
  skipped?: string;
  /** Kept as a share of sampled; null when nothing was sampled. */
  yield: number | null;
}

export function funnelChart(f: DistillFunnel): FunnelChartData {
  const sampled = f.steps.find((s) => s.key === 'sampled')?.count ?? 0;
  const rows: FunnelRow[] = f.steps.map((s, i) => {
    // The first two rows count states and instructions, which differ in kind: nothing is lost between them.
    const lost = i < 2 ? 0 : Math.max(0, f.steps[i - 1].count - s.count);
    const width = s.key === 'states' ? (s.count > 0 ? 1 : 0) : sampled > 0 ? s.count / sampled : 0;
    return { key: s.key, label: s.label, count: s.count, width, lost, off: s.off === true, bottleneck: false };
  });
  const most = Math.max(0, ...rows.map((r) => r.lost));
  if (most > 0) rows.find((r) => r.lost === most)!.bottleneck = true;
  const kept = f.steps[f.steps.length - 1]?.count ?? 0;
  return { iteration: f.iteration, rows, ...(f.skipped ? { skipped: f.skipped } : {}), yield: sampled > 0 ? kept / sampled : null };
}
