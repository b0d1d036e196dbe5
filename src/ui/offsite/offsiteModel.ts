/**
 * What the Offsite view draws, read off one report: the rows as intervals
 * grouped by emulator scale, each emulator's units with their roles, ranks
 * and learned importance, the sizes that ship each way, and one sentence per
 * scale on the two claims (utility and privacy). Plain data, no DOM.
 */
import type { OffsiteRow, RowName } from '../../offsite/compare';
import type { EmulatorSummary } from '../../offsite/compare';
import type { OffsiteReport } from '../../offsite/report';
import type { Interval } from '../../learn/stats';

/** What a row stands for: the two references, the data owner's two views of the adapters, ScaleOT's emulator or Offsite-Tuning's. */
export type RowKind = 'reference' | 'plug-in' | 'emulator';

export interface ChartRow {
  label: string;
  /** The emulator scale the row belongs to, or '' for the references. */
  group: string;
  kind: RowKind;
  baseline: boolean;
  value: number;
  low: number;
  high: number;
  k: number;
  n: number;
  loss: number;
}

const ROW_LABEL: Record<RowName, string> = {
  'zero-shot': 'zero-shot (full model as is)',
  'full fine-tuning': 'full fine-tuning (upper bound)',
  'emulator fine-tuning': 'ScaleOT: adapters on the emulator',
  'plug-in': 'ScaleOT: adapters plugged into the full model',
  'offsite-tuning emulator fine-tuning': 'uniform drop: adapters on the emulator',
  'offsite-tuning plug-in': 'uniform drop: adapters plugged in',
};

const ROW_ORDER: RowName[] = ['plug-in', 'emulator fine-tuning', 'offsite-tuning plug-in', 'offsite-tuning emulator fine-tuning'];

export const scaleLabel = (s: { alpha: number; beta: number }): string => `α ${s.alpha} (replaced share), β ${s.beta} (rank kept)`;

export function chartRows(r: OffsiteReport): ChartRow[] {
  const row = (x: OffsiteRow, group: string): ChartRow => ({
    label: ROW_LABEL[x.name],
    group,
    kind: x.name === 'zero-shot' || x.name === 'full fine-tuning' ? 'reference' : x.name.endsWith('plug-in') ? 'plug-in' : 'emulator',
    baseline: x.name.startsWith('offsite-tuning'),
    value: x.exact,
    low: x.interval.low,
    high: x.interval.high,
    k: x.k,
    n: x.n,
    loss: x.loss,
  });
  const rows = r.comparison.rows;
  const refs = (['zero-shot', 'full fine-tuning'] as const).flatMap((name) => rows.filter((x) => x.name === name && !x.scale).map((x) => row(x, '')));
  const scaled = r.comparison.settings.scales.flatMap((s) =>
    ROW_ORDER.flatMap((name) => rows.filter((x) => x.name === name && x.scale?.alpha === s.alpha && x.scale?.beta === s.beta).map((x) => row(x, scaleLabel(s)))),
  );
  return [...refs, ...scaled];
}

export type UnitRoleLabel = 'adapter' | 'kept' | 'rank-reduced' | 'replaced';

export interface UnitBox {
  id: string;
  role: UnitRoleLabel;
  /** What the box says under its name. */
  detail: string;
  score: number | null;
}

/** Under LoRA the data owner tunes low-rank factors on every unit the emulator carries, the end units' weights staying frozen too. */
export function unitBoxes(e: EmulatorSummary): UnitBox[] {
  const lora = e.adapters.kind === 'lora';
  return e.units.map((u) => {
    const role: UnitRoleLabel = u.role === 'kept' && u.rank !== undefined ? 'rank-reduced' : u.role;
    const plus = lora && e.adapters.units.includes(u.id) ? ' + LoRA' : '';
    const detail =
      role === 'adapter'
        ? lora
          ? 'LoRA tuned by the data owner'
          : 'tuned by the data owner'
        : role === 'replaced'
          ? e.method === 'scaleot'
            ? 'harmonizer'
            : 'dropped'
          : role === 'rank-reduced'
            ? `rank ${u.rank}${plus}`
            : `shipped frozen${plus}`;
    return { id: u.id, role, detail, score: u.score ?? null };
  });
}

export const emulatorTitle = (e: EmulatorSummary): string => `${e.method === 'scaleot' ? 'ScaleOT (RL-chosen)' : 'Offsite-Tuning (uniform drop)'}, ${scaleLabel(e.scale)}`;

export interface SizeBar {
  label: string;
  values: number;
  share: number;
}

/** The full model, each emulator the owner ships, and what the data owner sends back, in values. */
export function sizeBars(r: OffsiteReport): SizeBar[] {
  const c = r.comparison;
  const bar = (label: string, values: number): SizeBar => ({ label, values, share: c.fullSize > 0 ? values / c.fullSize : 0 });
  return [
    bar('full model (never leaves the owner)', c.fullSize),
    ...c.emulators.map((e) => bar(`emulator shipped: ${e.method === 'scaleot' ? 'ScaleOT' : 'uniform drop'}, α ${e.scale.alpha}, β ${e.scale.beta}`, e.size)),
    bar('adapters sent back', c.adapterSize),
  ];
}

const pts = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;
const span = (i: Interval) => `[${pts(i.low)}, ${pts(i.high)}]`;

/** One sentence per scale on utility (plug-in's share of full fine-tuning's gain) and privacy (plug-in above emulator fine-tuning), with intervals. */
export function verdictLines(r: OffsiteReport): string[] {
  const metric = r.info.agent === 'grounder' ? 'click accuracy' : 'exact match';
  return r.summary.map((s) => {
    const share = Number.isFinite(s.gainShareExact) ? `plug-in recovers ${(100 * s.gainShareExact).toFixed(0)}% of full fine-tuning's ${metric} gain` : `full fine-tuning gained nothing in ${metric} here, so there is no share to recover`;
    const gap = s.privacyGap.interval.low > 0 ? 'above' : s.privacyGap.interval.high < 0 ? 'below' : 'not clearly above';
    const privacy = `plug-in is ${gap} emulator fine-tuning (${pts(s.privacyGap.value)} points ${span(s.privacyGap.interval)})`;
    const uniform = s.overUniformDrop ? `; against uniform drop ${pts(s.overUniformDrop.value)} points ${span(s.overUniformDrop.interval)}` : '';
    return `At α ${s.scale.alpha}, β ${s.scale.beta}: ${share}; ${privacy}${uniform}.`;
  });
}

/** The importance scores of the middle units after each RL update, one series per unit. */
export function scoreSeries(r: OffsiteReport): { id: string; x: number[]; y: number[] }[] {
  const h = r.comparison.scoreHistory;
  const scaleot = r.comparison.emulators.find((e) => e.method === 'scaleot');
  if (!scaleot || h.length === 0) return [];
  const middle = scaleot.units.slice(1, -1);
  return middle.map((u, i) => ({ id: u.id, x: h.map((_, t) => t + 1), y: h.map((row) => row[i]) }));
}
