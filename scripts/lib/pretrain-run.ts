/**
 * One headless pretraining job against a served app: open it, start the
 * job through window.coevo, follow it, write the safetensors files and the
 * manifest, and return the figures for the summary table.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RunFailure, unwritable } from './run-failure';
import { withServedApp, type AppEnvironment } from './served-app';
import { formatDuration, progressBar, type ProgressPrinter } from './progress';
import { trainsNothing, type PretrainArgs } from './pretrain-args';
import { soupCheckpoints } from '../../src/pretrain/soup';
import { crc32 } from '../../src/bytes/crc32';
import { checkpointIntervals, checkpointsReplaced, checkpointsToResume, keepCheckpoint, removeCheckpoints } from './pretrain-resume';
import type { BrowserApp } from './browser-app';
import { baseFileName, manifestFileName, mergeManifests, remeasuredManifest, soupManifest, tunedManifest, type BaseManifest, type SoupIngredient, type BaseModelName, type PretrainOptions, type PretrainStatus } from '../../src/pretrain/baseTypes';

export interface PretrainEnvironment extends AppEnvironment {
  pollMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function pretrainLine(s: PretrainStatus, elapsedMs: number): string {
  const parts = [`${s.model ?? '-'} · ${s.stage}`, `${progressBar(s.step, s.steps)} ${s.step}/${s.steps}`, `ETA ${s.etaMs === null ? '?' : formatDuration(s.etaMs)}`];
  if (s.loss !== null && Number.isFinite(s.loss)) parts.push(`loss ${+s.loss.toPrecision(4)}`);
  parts.push(`elapsed ${formatDuration(elapsedMs)}`);
  return parts.join(' · ');
}

/** One line per model that says what it trained on, by source (issue 30's mix); none for entries without a count. */
export function dataMixLines(m: BaseManifest): string[] {
  return m.models.flatMap((e) => {
    if (!e.data) return [];
    const { world, 'real-dom': real } = e.data.examples;
    const share = world + real > 0 ? ((100 * real) / (world + real)).toFixed(1) : '0.0';
    const weights = e.data.tuneStyles ? Object.entries(e.data.tuneStyles) : [];
    const styles = weights.length > 0 ? `; styles drawn by ${weights.map(([s, w]) => `${s}=${w}`).join(', ')} (others 1)` : '';
    return [`${e.model} data: ${world} world examples, ${real} real-dom examples (${share}%; asked ${e.data.realShare}) from ${e.data.realPages} real training pages${styles}`];
  });
}

/** The figures of a manifest as an aligned text table. */
export function figureTable(m: BaseManifest): string {
  const pc = (x: number) => (100 * x).toFixed(1);
  const rows = m.figures.map((f) => [
    f.model,
    f.name,
    pc(f.value) + '%',
    f.low === undefined || f.high === undefined ? '' : `${pc(f.low)}–${pc(f.high)}%`,
    f.chance === undefined ? '' : pc(f.chance) + '%',
    f.n === undefined ? '' : String(f.n),
  ]);
  const head = ['model', 'held-out figure', 'value', '95% interval', 'chance', 'n'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The manifest already at `path`, or null (none, or not one: then it is replaced, and the log says so). */
function readManifest(path: string, printer: ProgressPrinter): BaseManifest | null {
  if (!existsSync(path)) return null;
  try {
    const m = JSON.parse(readFileSync(path, 'utf8')) as BaseManifest;
    if (Array.isArray(m.models) && Array.isArray(m.figures)) return m;
  } catch {
    // falls through to the message below
  }
  printer.log(`${path} is not a base manifest; it is replaced.`);
  return null;
}

/** The models `--soup DIR,DIR,…` averages (the one model --only names), each with the manifest beside it, and their mean. */
function soupToMeasure(args: PretrainArgs, printer: ProgressPrinter): { ingredients: SoupIngredient[]; mean: Uint8Array } | null {
  const dirs = args.soup;
  if (dirs === null) return null;
  const model = args.models[0];
  const paths = dirs.map((d) => join(resolve(d), baseFileName(args.preset, model)));
  const missing = paths.find((p) => !existsSync(p));
  if (missing) throw new RunFailure(2, `there is no base ${model} to average at ${missing}; each --soup folder must hold ${baseFileName(args.preset, model)}.`);
  const files = paths.map((p) => new Uint8Array(readFileSync(p)));
  let mean: Uint8Array;
  try {
    mean = soupCheckpoints(files, paths);
  } catch (e) {
    throw new RunFailure(2, `cannot average the ${model}s: ${e instanceof Error ? e.message : String(e)}`);
  }
  const ingredients = files.map((f, i) => ({ bytes: f.length, crc32: crc32(f), beside: readManifest(join(resolve(dirs[i]), manifestFileName(args.preset)), printer) }));
  return { ingredients, mean };
}

/** The weights `--measure DIR` hands the recipes, base64 as they cross page.evaluate. */
function weightsToMeasure(args: PretrainArgs): PretrainOptions['measure'] {
  if (args.measure === null) return undefined;
  const dir = resolve(args.measure);
  const out: NonNullable<PretrainOptions['measure']> = {};
  for (const model of args.models) {
    const path = join(dir, baseFileName(args.preset, model));
    if (!existsSync(path)) throw new RunFailure(2, `there is no base ${model} to measure at ${path}; pretrain it first, or pass --only with the models that are there.`);
    out[model] = readFileSync(path).toString('base64');
  }
  return out;
}

/** The base model `--tune DIR` starts from (the one model --only names), base64 as it crosses page.evaluate. */
function weightsToTune(args: PretrainArgs): PretrainOptions['tune'] {
  if (args.tune === null) return undefined;
  const model = args.models[0];
  const from = args.growFrom ?? args.preset;
  const path = join(resolve(args.tune), baseFileName(from, model));
  if (!existsSync(path)) throw new RunFailure(2, `there is no base ${model} to tune at ${path}; pass the folder that holds ${baseFileName(from, model)}.`);
  return { [model]: readFileSync(path).toString('base64') };
}

/** Fetches the app's checkpoints whenever its count grows and keeps the newer ones in `dir`. */
function checkpointKeeper(app: BrowserApp, dir: string, preset: string) {
  let seen = 0;
  const kept = new Map<BaseModelName, number>();
  return {
    async update(handed: number): Promise<void> {
      if (handed <= seen) return;
      seen = handed;
      for (const f of await app.call('pretrainCheckpoints')) {
        if (f.seq <= (kept.get(f.model) ?? 0)) continue;
        keepCheckpoint(dir, preset, f);
        kept.set(f.model, f.seq);
      }
    },
    any: () => kept.size > 0,
  };
}

export async function runPretrain(args: PretrainArgs, env: PretrainEnvironment): Promise<{ manifest: BaseManifest; written: string[]; wallSeconds: number }> {
  const startedAt = performance.now();
  const { printer } = env;
  const outDir = resolve(args.out);
  const blocked = unwritable(outDir);
  if (blocked) throw new RunFailure(2, `cannot write the base models to ${outDir}: ${blocked}. Pass another --out.`);
  const soup = soupToMeasure(args, printer);
  const measure = soup ? { [args.models[0]]: Buffer.from(soup.mean).toString('base64') } : weightsToMeasure(args);
  const tune = weightsToTune(args);
  const resumption = checkpointsToResume(args);
  for (const note of resumption?.notes ?? []) printer.log(note);
  for (const path of checkpointsReplaced(args, outDir)) printer.log(`${path} is replaced by this run's checkpoints (to continue that run instead, pass --resume ${args.out}).`);
  const every = checkpointIntervals(args);
  const lost = Object.values(every).some((n) => n > 0) ? `the models are not written; continue with --resume ${args.out}` : 'nothing is written';
  return withServedApp(env, { backend: args.backend, backendExplicit: args.backendExplicit, lost }, async ({ app }) => {
    await app.call('startPretrain', {
      preset: args.preset,
      seed: args.seed,
      models: args.models,
      scale: args.scale,
      checkpointEvery: every,
      ...(args.realShare > 0 ? { realShare: args.realShare } : {}),
      ...(args.tuneStyles ? { tuneStyles: args.tuneStyles } : {}),
      ...(args.trainAdded ? { trainAdded: true } : {}),
      ...(measure ? { measure } : {}),
      ...(tune ? { tune } : {}),
      ...(resumption ? { resume: resumption.files } : {}),
    });
    const kept = checkpointKeeper(app, outDir, args.preset);
    let key = '';
    for (;;) {
      const s = await app.call('pretrainStatus');
      await kept.update(s.checkpoints ?? 0);
      if (s.state === 'failed') {
        const again = kept.any() ? `; its checkpoints are in ${outDir}: continue with --resume ${args.out}` : '';
        throw new RunFailure(1, `pretraining failed (${s.model ?? 'no model'}, ${s.stage}): ${s.error ?? 'no message'}${again}`);
      }
      if (s.state === 'done') break;
      const k = `${s.model}/${s.stage}`;
      printer.update(pretrainLine(s, performance.now() - startedAt), performance.now(), k !== key);
      key = k;
      await sleep(env.pollMs ?? 2000);
    }
    printer.end();
    const result = await app.call('pretrainResult');
    const { files } = result;
    mkdirSync(outDir, { recursive: true });
    const mpath = join(outDir, manifestFileName(args.preset));
    const made = soup ? soupManifest(result.manifest, soup.ingredients) : args.measure !== null ? remeasuredManifest(readManifest(join(resolve(args.measure), manifestFileName(args.preset)), printer), result.manifest) : args.tune !== null ? tunedManifest(result.manifest, readManifest(join(resolve(args.tune), manifestFileName(args.growFrom ?? args.preset)), printer)) : result.manifest;
    const manifest = mergeManifests(readManifest(mpath, printer), made);
    const written: string[] = [];
    for (const f of files) {
      const path = join(outDir, f.name);
      writeFileSync(path, Buffer.from(f.base64, 'base64'));
      written.push(path);
    }
    writeFileSync(mpath, JSON.stringify(manifest, null, 2) + '\n');
    written.push(mpath);
    if (!trainsNothing(args)) removeCheckpoints(outDir, args.preset, args.models);
    return { manifest, written, wallSeconds: (performance.now() - startedAt) / 1000 };
  });
}
