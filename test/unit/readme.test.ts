/**
 * README.md is a user guide (issue 29, acceptance 5): at most 14,000 bytes,
 * no line over 300 characters outside tables, and every npm command in its
 * fenced code blocks names something that exists: `npm run X` a script of
 * package.json, `npm start` / `npm test` theirs, anything else one of npm's
 * own commands.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, npmCommands, overlongLines } from './readme-lint';

const ROOT = join(__dirname, '../..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

describe('README.md', () => {
  it('is at most 14,000 bytes', () => {
    expect(Buffer.byteLength(readme, 'utf8')).toBeLessThanOrEqual(14_000);
  });

  it('has no line over 300 characters outside tables', () => {
    expect(overlongLines(readme, 300).map((l) => `line ${l.line}: ${l.chars} characters, "${l.text.slice(0, 60)}…"`)).toEqual([]);
  });

  it('names only npm scripts that exist in its fenced commands', () => {
    const commands = npmCommands(fencedBlocks(readme));
    // The quick start's commands at least: a check that found none would check nothing.
    expect(commands.map((c) => c.text)).toEqual(expect.arrayContaining(['npm install', 'npm start', 'npm test']));
    expect(commands.filter((c) => c.script !== null && !scripts.includes(c.script)).map((c) => `line ${c.line}: ${c.text}`)).toEqual([]);
    expect(commands.filter((c) => c.script === null && !c.builtin).map((c) => `line ${c.line}: ${c.text}`)).toEqual([]);
  });
});

describe('the README checks', () => {
  const sample = ['# T', 'x'.repeat(301), '| a | ' + 'y'.repeat(400) + ' |', '```bash', 'npm run nope -- --x 1   # note', 'npm ci && npm test', 'npm frobnicate', '```', 'npm run outside-a-fence'].join('\n');

  it('finds long lines but not table rows', () => {
    expect(overlongLines(sample, 300).map((l) => l.line)).toEqual([2]);
  });

  it('reads npm commands inside fences only, with the script each names', () => {
    const commands = npmCommands(fencedBlocks(sample));
    expect(commands.map((c) => [c.line, c.text, c.script, c.builtin])).toEqual([
      [5, 'npm run nope', 'nope', false],
      [6, 'npm ci', null, true],
      [6, 'npm test', 'test', false],
      [7, 'npm frobnicate', null, false],
    ]);
  });
});
