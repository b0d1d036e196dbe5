/**
 * report.json and report.md of one offsite comparison (planner or grounder): what the headless
 * command (`npm run offsite`) and the slow tests write. Pure text from the
 * comparison's numbers, without tfjs (the command's Node side imports it).
 */
import type { OffsiteComparison } from './compare';
import { comparisonTable } from './table';
import { summarise, summaryLines, type ScaleSummary } from './summary';

export interface OffsiteRunInfo {
  agent: 'planner' | 'grounder';
  preset: string;
  backend: string;
  /** Where the private set came from, in words (e.g. "cross-site tasks, seed 77: 20 tuning tasks, 20 test tasks"). */
  privateSet: string;
  wallSeconds: number;
  /** The command line that made it (npm run offsite adds it; the slow tests have none). */
  command?: string;
}

export interface OffsiteReport {
  info: OffsiteRunInfo;
  comparison: OffsiteComparison;
  summary: ScaleSummary[];
}

/** What the data owner tuned, in words (report.md and the view). */
export function adaptersText(s: OffsiteComparison['settings'], detail = true): string {
  const lora = s.lora ? `LoRA rank ${s.lora.rank}${detail ? `, alpha ${s.lora.alpha}, lr ${s.lora.lr}` : ''}, on every unit the emulator keeps` : 'the end units';
  const rate = s.wholeLr !== undefined ? ` at lr ${s.wholeLr}` : '';
  const whole = s.tuneOutside ? `, with every weight outside the units${rate}` : s.tuneTable ? `, with the token table${rate}` : '';
  return lora + whole;
}

export function offsiteReport(info: OffsiteRunInfo, comparison: OffsiteComparison): OffsiteReport {
  return { info, comparison, summary: summarise(comparison) };
}

/** The rows as a Markdown table in the agent's own terms (exact match, or click-in-box accuracy and the grounder's SFT loss). */
export function reportTable(r: OffsiteReport): string {
  return r.info.agent === 'grounder' ? comparisonTable(r.comparison, 'click-in-box accuracy', 'grounder SFT loss') : comparisonTable(r.comparison);
}

export function offsiteMarkdown(r: OffsiteReport): string {
  const c = r.comparison;
  const emulatorLines = c.emulators.map((e) => {
    const units = e.units.map((u) => `${u.id}: ${u.role}${u.rank !== undefined ? ` (rank ${u.rank})` : ''}${u.score !== undefined ? `, score ${u.score.toFixed(3)}` : ''}`);
    const back = `Sent back: ${e.adapters.size.toLocaleString('en-US')} values in ${e.adapters.tensors.length} ${e.adapters.kind} tensors of ${e.adapters.units.join(', ')}`;
    return `- ${e.method}, α ${e.scale.alpha}, β ${e.scale.beta}: ${e.size.toLocaleString('en-US')} values shipped (${((100 * e.size) / c.fullSize).toFixed(1)}% of the model). ${units.join('; ')}. ${back}.`;
  });
  return [
    `# Offsite tuning: ${r.info.agent}, ${r.info.preset}`,
    '',
    `Private set: ${r.info.privateSet}. Backend ${r.info.backend}; wall ${r.info.wallSeconds.toFixed(0)} s.`,
    ...(r.info.command ? [`Command: \`${r.info.command}\`.`] : []),
    `Steps: harmonizers and importance ${c.settings.replaceSteps}, tuning ${c.settings.tuneSteps} (batch ${c.settings.batchSize}). ${c.settings.maskGroup ? `Mask groups of ${c.settings.maskGroup}. ` : ''}Adapters: ${adaptersText(c.settings)}.${c.settings.distill ? ` Harmonizers distilled to M (task loss + ${c.settings.distill} × the distance to M).` : ''}`,
    '',
    reportTable(r),
    '',
    '## Per emulator scale',
    '',
    ...(r.info.agent === 'grounder' ? summaryLines(r.summary, 'click-in-box accuracy') : summaryLines(r.summary)),
    '',
    '## Emulators',
    '',
    ...emulatorLines,
    `- adapters sent back: ${c.adapterSize.toLocaleString('en-US')} values; the full model has ${c.fullSize.toLocaleString('en-US')}.`,
    '',
    '## Seconds per phase',
    '',
    ...Object.entries(c.seconds).map(([phase, sec]) => `- ${phase}: ${sec.toFixed(1)}`),
    '',
  ].join('\n');
}
