/** What test/unit/readme.test.ts checks README.md with: fenced blocks, npm commands in them, long lines. */

export interface Line {
  line: number;
  text: string;
}

/** Lines inside ``` fences (1-based line numbers), fences themselves left out. */
export function fencedBlocks(markdown: string): Line[] {
  const out: Line[] = [];
  let inside = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) inside = !inside;
    else if (inside) out.push({ line: i + 1, text });
  });
  return out;
}

/** npm's own commands a README may use (not scripts of package.json). */
const NPM_BUILTINS = new Set(['install', 'i', 'ci', 'exec', 'init', 'ls', 'outdated', 'update', 'audit', 'pack', 'publish', 'version', 'view', 'cache', 'config']);
/** npm commands that run the package.json script of the same name. */
const SCRIPT_ALIASES = new Set(['start', 'test', 'stop', 'restart']);

export interface NpmCommand {
  line: number;
  /** `npm run X` or `npm X`, as written. */
  text: string;
  /** The package.json script it runs; null for npm's own commands and unknown words. */
  script: string | null;
  builtin: boolean;
}

export function npmCommands(lines: readonly Line[]): NpmCommand[] {
  const out: NpmCommand[] = [];
  for (const { line, text } of lines) {
    const code = text.replace(/(^|\s)#.*$/, '');
    for (const m of code.matchAll(/(?:^|[\s;&|(])npm\s+(run(?:-script)?\s+)?([\w:.-]+)/g)) {
      const word = m[2];
      const run = m[1] !== undefined;
      const script = run || SCRIPT_ALIASES.has(word) ? word : null;
      out.push({ line, text: `npm ${run ? 'run ' : ''}${word}`, script, builtin: !run && NPM_BUILTINS.has(word) });
    }
  }
  return out;
}

/** Lines longer than `max` characters that are not table rows (a row starts with '|'). */
export function overlongLines(markdown: string, max: number): (Line & { chars: number })[] {
  return markdown
    .split('\n')
    .map((text, i) => ({ line: i + 1, text, chars: [...text].length }))
    .filter((l) => l.chars > max && !l.text.trimStart().startsWith('|'));
}
