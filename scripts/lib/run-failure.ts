/** How a command that drives the app fails, and the check that runs before it starts. */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** A failure with the exit status it deserves: 1 the run or the browser failed, 2 the input was refused. */
export class RunFailure extends Error {
  override name = 'RunFailure';
  constructor(
    readonly exitCode: 1 | 2,
    message: string,
  ) {
    super(message);
  }
}

/** Why `dir` could not be created or written (checked before the run, so a long run does not end in a failed write), or null. */
export function unwritable(dir: string): string | null {
  let p = dir;
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) return 'no part of the path exists';
    p = up;
  }
  if (!statSync(p).isDirectory()) return `${p} is not a directory`;
  try {
    accessSync(p, constants.W_OK);
    return null;
  } catch {
    return `${p} is not writable`;
  }
}
