/** Markdown tables for report.md and study.md. */

/** A cell's text with the characters that would break a table row escaped; non-strings as JSON. */
export function markdownCell(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A table whose columns for which `rightAligned(i)` holds are right-aligned (numbers, so digits line up). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: (column: number) => boolean): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(markdownCell).join(' | ')} |`;
  const align = header.map((_, i) => (rightAligned(i) ? '---:' : '---'));
  return [line(header), `| ${align.join(' | ')} |`, ...rows.map(line)].join('\n');
}
