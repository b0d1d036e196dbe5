/**
 * The Python files of src/export/python/ as the app bundles them (Vite's
 * ?raw imports): the worker's export copies these, the command line reads
 * the same files from disk (scripts/export/python-files.ts), and a test
 * checks the two agree.
 */
import rewards from './python/rewards.py?raw';
import trainTrl from './python/train_trl.py?raw';
import accelerate from './python/accelerate_zero3.yaml?raw';
import type { PythonFiles } from './build';

export const BUNDLED_PYTHON: PythonFiles = { 'rewards.py': rewards, 'train_trl.py': trainTrl, 'accelerate_zero3.yaml': accelerate };
