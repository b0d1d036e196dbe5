/**
 * A run's datasets and rewards as one trainer export (METHOD.md §8): the
 * same files whether the command line writes them into a folder or the UI's
 * run list offers them as a zip, because both call buildTrainerExport on the
 * run as the archive holds it (src/coevo/archive.ts).
 *
 * Layout:
 *   manifest.json              what is here: datasets, row counts, reward columns, what was left out
 *   README.md                  how to use it
 *   datasets/<name>/*.jsonl    per data set (d0, e1, d1, planner-grpo-1, ...): grounder_grpo,
 *                              grounder_sft, planner_sft, or planner_grpo rows in the trainer's format
 *   images/<hash>.png          the screenshots the rows name: each sample's screen rebuilt from its
 *                              task and step and drawn by the app's renderer (the grounder's pixels)
 *   rewards.py, grammar.json   the rewards for the trainer (grammar.json: the instruction grammar)
 *   reward_checks.jsonl        answers with the TypeScript rewards, for `python3 rewards.py --check`
 *   launch_<trainer>.sh (+ train_trl.py, accelerate_zero3.yaml for TRL)
 *   models/<id>.safetensors, models/<id>.card.json   the run's checkpoints and their model cards
 */
import { zipSync, type Zippable } from 'fflate';
import type { StepSample } from '../coevo/records';
import type { RunBundle } from '../store/store';
import type { ScreenImage, ScreenRenderer } from '../world/render/screenImage';
import type { Screen } from '../world/types';
import { grammarSpec } from '../text/grammar';
import { checkLines, groundingChecks, groupChecks, planChecks, workedChecks, type RewardCheck } from './checks';
import { planDatasets } from './datasets';
import { launchScript } from './launch';
import { modelCard } from './modelCard';
import { PlannerViews, type PlannerView } from './prompts';
import { dataRows, jsonl, plannerColumns, grounderColumns, plannerGrpoRows, type StepContext } from './rows';
import type { Json, RewardColumns, TrainerFormat } from './types';

/** The files of src/export/python/ an export copies; the caller reads them (fs in Node, ?raw in the app). */
export const PYTHON_FILES = ['rewards.py', 'train_trl.py', 'accelerate_zero3.yaml'] as const;
export type PythonFiles = Record<(typeof PYTHON_FILES)[number], string>;

export interface ExportSummary {
  runId: string;
  trainer: TrainerFormat;
  datasets: { name: string; kind: string; iteration: number; rows: Record<string, number> }[];
  images: number;
  checks: number;
  /** Kept samples left out: their task no longer replays in this world (its screen cannot be rebuilt). */
  skipped: { noReplay: number };
}

export interface TrainerExport {
  files: Record<string, Uint8Array>;
  summary: ExportSummary;
}

const DOCS = {
  trl: ['https://huggingface.co/docs/trl/grpo_trainer', 'https://huggingface.co/docs/trl/dataset_formats#vision-datasets'],
  swift: [
    'https://swift.readthedocs.io/en/latest/Customization/Custom-dataset.html',
    'https://swift.readthedocs.io/en/latest/Instruction/GRPO/DeveloperGuide/reward_function.html',
  ],
};

const enc = new TextEncoder();
const text = (s: string) => enc.encode(s);
const json = (v: unknown) => text(`${JSON.stringify(v, null, 2)}\n`);
const imagePath = (hash: string) => `images/${encodeURIComponent(hash)}.png`;

export async function buildTrainerExport(bundle: RunBundle, format: TrainerFormat, python: PythonFiles, render: ScreenRenderer): Promise<TrainerExport> {
  const views = new PlannerViews();
  const files: Record<string, Uint8Array> = {};
  const skipped = { noReplay: 0 };
  const contexts = new Map<string, StepContext | null>();
  const contextOf = (id: string): StepContext | null => contexts.get(id) ?? null;

  // A run stores no pixels (records.ts): each kept sample's screen is rebuilt
  // from its task and step and rendered, once per distinct state.
  const kept: { sample: StepSample; view: PlannerView; state: string }[] = [];
  const states = new Map<string, Screen>();
  for (const s of bundle.samples) {
    if (!s.kept) continue;
    let view = null;
    try {
      view = views.get(s.task, s.stepIndex);
    } catch {
      view = null; // a task this world's templates no longer know
    }
    if (!view) {
      skipped.noReplay++;
      continue;
    }
    const state = `${s.task.id}\u0000${s.stepIndex}`;
    if (!states.has(state)) states.set(state, view.shown);
    kept.push({ sample: s, view, state });
  }
  const shots = await renderAll(render, [...states.values()]);
  const shotOf = new Map([...states.keys()].map((k, i) => [k, shots[i]]));
  for (const { sample, view, state } of kept) {
    const shot = shotOf.get(state)!;
    contexts.set(sample.id, { sample, image: imagePath(shot.hash), width: shot.width, height: shot.height, view });
  }

  const summary: ExportSummary = { runId: bundle.run.id, trainer: format, datasets: [], images: 0, checks: 0, skipped };
  const checks: RewardCheck[] = [];
  const checked = new Set<string>();
  const used = new Set<string>();
  for (const d of planDatasets(bundle.samples)) {
    const steps = d.samples.map((s) => contextOf(s.id)).filter((c): c is StepContext => c !== null);
    if (steps.length === 0) continue;
    const byFile = d.kind === 'planner-grpo' ? plannerGrpoRows(format, steps) : dataRows(format, steps);
    const rows: Record<string, number> = {};
    for (const [file, list] of Object.entries(byFile)) {
      const path = `datasets/${d.name}/${file}`;
      files[path] = text(jsonl(list));
      rows[file] = list.length;
    }
    summary.datasets.push({ name: d.name, kind: d.kind, iteration: d.iteration, rows });
    for (const c of steps) used.add(c.image);
    // Each distinct row once: D0's rows reappear unchanged in every Dk.
    if (d.kind === 'planner-grpo') {
      steps.forEach((c, i) => addChecks(checks, checked, `p:${c.sample.id}`, () => planChecks(`datasets/${d.name}/planner_grpo.jsonl`, i, plannerColumns(c))));
    } else {
      steps
        .map((c) => grounderColumns(c))
        .filter((g): g is RewardColumns => g !== null)
        .forEach((g, i) => addChecks(checks, checked, `g:${g.coevo_id}`, () => groundingChecks(`datasets/${d.name}/grounder_grpo.jsonl`, i, g)));
    }
  }
  checks.push(...groupChecks(bundle.groups ?? []), ...workedChecks());
  summary.checks = checks.length;

  const byPath = new Map(shots.map((shot) => [imagePath(shot.hash), shot]));
  for (const path of [...used].sort()) files[path] = byPath.get(path)!.png;
  summary.images = used.size;

  for (const { weights, ...record } of bundle.checkpoints) {
    const bytes = new Uint8Array(weights);
    files[`models/${encodeURIComponent(record.id)}.safetensors`] = bytes;
    files[`models/${encodeURIComponent(record.id)}.card.json`] = json(modelCard(record, bytes, bundle.run));
  }

  files['rewards.py'] = text(python['rewards.py']);
  files['grammar.json'] = json(grammarSpec());
  files['reward_checks.jsonl'] = text(jsonl(checkLines(checks)));
  const last = (kind: string, file: string) => {
    const d = [...summary.datasets].reverse().find((x) => x.kind === kind && (x.rows[file] ?? 0) > 0);
    return d ? `datasets/${d.name}/${file}` : null;
  };
  const targets = { grounderGrpo: last('curated', 'grounder_grpo.jsonl') ?? last('seed', 'grounder_grpo.jsonl'), plannerGrpo: last('planner-grpo', 'planner_grpo.jsonl') };
  files[`launch_${format}.sh`] = text(launchScript(format, targets));
  if (format === 'trl') {
    files['train_trl.py'] = text(python['train_trl.py']);
    files['accelerate_zero3.yaml'] = text(python['accelerate_zero3.yaml']);
  }
  files['manifest.json'] = json(manifestOf(summary, bundle));
  files['README.md'] = text(readme(summary));
  return { files, summary };
}

/** Every screen's screenshot, checked to be one per screen at the screen's own size (boxes are in those pixels). */
async function renderAll(render: ScreenRenderer, screens: readonly Screen[]): Promise<ScreenImage[]> {
  if (screens.length === 0) return [];
  const shots = await render(screens);
  if (shots.length !== screens.length) throw new Error(`the renderer returned ${shots.length} screenshots for ${screens.length} screens`);
  shots.forEach((shot, i) => {
    const { width, height } = screens[i];
    if (shot.width !== width || shot.height !== height) throw new Error(`a ${width}×${height} screen was rendered at ${shot.width}×${shot.height}`);
  });
  return shots;
}

function addChecks(out: RewardCheck[], seen: Set<string>, key: string, make: () => RewardCheck[]): void {
  if (seen.has(key)) return;
  seen.add(key);
  out.push(...make());
}

function manifestOf(summary: ExportSummary, bundle: RunBundle): Json {
  const columns: Record<keyof RewardColumns, string> = {
    coevo_id: 'the sample id in the run',
    task_kind: "'grounding' (answer: a point \"(x, y)\" in pixels) or 'planning' (answer: one instruction)",
    action_type: 'the true action: CLICK, TYPE, SELECT, SCROLL, BACK, OPEN_APP or DONE',
    action_value: 'its typed text, option, scroll direction or app; null if none',
    target_box: 'the true element [x, y, w, h] in screenshot pixels, (x, y) its top-left corner; null if none',
    screen_width: 'the screenshot width in pixels',
    screen_height: 'the screenshot height in pixels',
    instruction: 'the instruction to ground (grounding) or the canonical next instruction (planning)',
  };
  return JSON.parse(
    JSON.stringify({
      format: 'coevo-trainer-export',
      version: 1,
      trainer: summary.trainer,
      run: { id: bundle.run.id, name: bundle.run.name, preset: bundle.run.config.preset ?? null, seed: bundle.run.seed, status: bundle.run.status },
      datasets: summary.datasets,
      images: summary.images,
      rewardChecks: summary.checks,
      skipped: summary.skipped,
      rewardColumns: columns,
      docs: DOCS[summary.trainer],
    }),
  ) as Json;
}

function readme(s: ExportSummary): string {
  const sets = s.datasets.map((d) => `- \`datasets/${d.name}/\` (${d.kind}, iteration ${d.iteration}): ${Object.entries(d.rows).map(([f, n]) => `${f} ${n} rows`).join(', ')}`);
  const how =
    s.trainer === 'trl'
      ? '`bash launch_trl.sh` (accelerate + DeepSpeed ZeRO-3, TRL GRPOTrainer; `train_trl.py` loads a .jsonl and turns its image paths into images).'
      : '`bash launch_swift.sh` (`swift rlhf --rlhf_type grpo` with `--external_plugins rewards.py`).';
  return [
    `# Coevo run ${s.runId}: datasets and rewards for ${s.trainer === 'trl' ? 'TRL' : 'ms-swift'}`,
    '',
    'The data sets of the co-evolution loop (METHOD.md §2): D0 (seed data), each distilled Ek, each curated Dk = D(k-1) ∪ Ek, and the prompts of planner GRPO at iteration k, in the trainer\'s own format, with the reward columns beside them (manifest.json lists them).',
    '',
    ...sets,
    '',
    `\`images/\` (${s.images} files): each sample's screen, rebuilt from its task and step and drawn by the app's renderer at the screen's own size, the RGB pixels the grounder trained on. Points and boxes are in these pixels; a model that resizes images must answer in the original size.`,
    '',
    `Train: ${how} Formats and flags follow ${DOCS[s.trainer].join(' and ')}.`,
    '',
    '`rewards.py` needs only Python\'s standard library. `python3 rewards.py --check reward_checks.jsonl` recomputes the rewards the TypeScript code gave to answers of these rows and prints the largest difference.',
    '',
    'The plan reward grounds each sampled instruction with a pool of grounders you provide (`rewards.PoolGrounder`); set `COEVO_GROUNDER_POOL=module:function`.',
    '',
  ].join('\n');
}

/** The export as one zip: entries in path order with a fixed time, so equal files give equal bytes. */
export function zipTrainerExport(files: Record<string, Uint8Array>): Uint8Array {
  const zippable: Zippable = {};
  const mtime = new Date(Date.UTC(2000, 0, 1));
  for (const path of Object.keys(files).sort()) zippable[path] = [files[path], { level: path.endsWith('.png') || path.endsWith('.safetensors') ? 0 : 6, mtime }];
  return zipSync(zippable);
}
