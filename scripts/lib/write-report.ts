/** Writes a run's report.json, report.md and its charts into one directory. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CoevoReport } from '../../src/coevo/records';
import { reportMarkdown } from '../../src/coevo/reportMarkdown';

export interface WrittenReport {
  json: string;
  markdown: string;
  charts: string[];
}

export function writeReport(dir: string, report: CoevoReport, wallSeconds?: number): WrittenReport {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'report.json');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  const rendered = reportMarkdown(report, { chartDir: 'charts', wallSeconds });
  // Charts of an earlier report in the same directory would linger unreferenced.
  rmSync(join(dir, 'charts'), { recursive: true, force: true });
  const charts = rendered.charts.map((c) => {
    const path = join(dir, c.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, c.svg);
    return path;
  });
  const markdown = join(dir, 'report.md');
  writeFileSync(markdown, rendered.markdown);
  return { json, markdown, charts };
}
