/** The Python files an export copies, read from the repository (the app imports the same files with ?raw). */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PYTHON_FILES, type PythonFiles } from '../../src/export/build';

const ROOT = resolve(dirname(__filename), '..', '..');

export function pythonFiles(root: string = ROOT): PythonFiles {
  return Object.fromEntries(PYTHON_FILES.map((f) => [f, readFileSync(join(root, 'src/export/python', f), 'utf8')])) as PythonFiles;
}
