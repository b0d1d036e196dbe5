/** The command line of `npm run export`: parsed without side effects, so it can be tested. */
import { readFlags, UsageError } from '../lib/flags';
import { TRAINER_FORMATS, type TrainerFormat } from '../../src/export/types';

export interface ExportArgs {
  format: TrainerFormat;
  out: string;
  /** An exported run zip (the app's run list → Export, or window.coevo.exportRun). */
  archive?: string;
  /** A run stored in a browser profile of `npm run coevo -- --profile DIR`. */
  run?: string;
  profile?: string;
  /** Also write the same files as one zip (what the UI's "Export for TRL" downloads). */
  zip?: string;
}

export const EXPORT_HELP = `Exports a run's data sets and rewards for an existing GRPO trainer (TRL or ms-swift).

usage: npm run export -- --format trl|swift --out DIR (--archive RUN.zip | --run ID --profile DIR) [--zip FILE]

  --format F       trl (Hugging Face TRL: GRPOTrainer / SFTTrainer) or ms-swift's swift
  --out DIR        the folder to write (datasets/, images/, rewards.py, launch script, ...)
  --archive FILE   a run exported from the app as a zip
  --run ID         a run stored in the browser profile given by --profile (npm run coevo -- --profile DIR)
  --profile DIR    that profile; the app is built if stale and opened headless to read the run
  --zip FILE       also write the export as one zip, as the app's run list offers it
  -h, --help       show this help

A run stores no screenshots: each kept sample's screen is rebuilt from its task and drawn by the
app's renderer in headless Chromium (the app is built if stale), the pixels its grounder saw.

Then, in DIR: python3 rewards.py --check reward_checks.jsonl (parity with the app's rewards), and
bash launch_trl.sh or bash launch_swift.sh on a machine with GPUs.
Exit status: 0 written, 1 the run could not be read, 2 bad arguments.`;

const FLAGS = ['format', 'out', 'archive', 'run', 'profile', 'zip'] as const;

export function parseExportArgs(argv: readonly string[]): { help: true } | { help: false; args: ExportArgs } {
  if (argv.includes('-h') || argv.includes('--help')) return { help: true };
  const { given } = readFlags(argv, FLAGS);
  const format = given.get('format');
  if (format === undefined) throw new UsageError('--format is required: trl or swift.');
  if (!(TRAINER_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be trl or swift, got "${format}".`);
  const out = given.get('out');
  if (out === undefined) throw new UsageError('--out DIR is required.');
  const archive = given.get('archive');
  const run = given.get('run');
  const profile = given.get('profile');
  if ((archive === undefined) === (run === undefined)) throw new UsageError('give exactly one of --archive FILE.zip and --run ID.');
  if (run !== undefined && profile === undefined) throw new UsageError('--run needs --profile DIR, the browser profile that stores the run (npm run coevo -- --profile DIR).');
  if (archive !== undefined && profile !== undefined) throw new UsageError('--profile goes with --run, not with --archive.');
  return {
    help: false,
    args: {
      format: format as TrainerFormat,
      out,
      ...(archive !== undefined ? { archive } : {}),
      ...(run !== undefined ? { run, profile } : {}),
      ...(given.has('zip') ? { zip: given.get('zip')! } : {}),
    },
  };
}
