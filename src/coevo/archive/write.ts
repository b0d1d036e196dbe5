/** Export: a stored run as the zip that import reads (layout in src/coevo/archive.ts). */
import { zipSync, type Zippable } from 'fflate';
import type { Store } from '../../store/store';
import type { ScreenRecord } from '../../store/schema';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, MANIFEST, checkpointPath, crc32, json, jsonl, screenPath, type ArchiveManifest } from './format';

/** The whole run as zip bytes. Screens a sample names but the store lacks are left out (the world can redraw them). */
export async function exportRun(store: Store, runId: string, now: number = Date.now()): Promise<Uint8Array> {
  const run = await store.getRun(runId);
  if (!run) throw new Error(`No run with id ${runId} to export.`);
  const [samples, trajectories, phases, metrics, checkpoints, groups] = await Promise.all([
    store.getSamples(runId),
    store.getTrajectories(runId),
    store.listPhases(runId),
    store.getMetrics(runId),
    store.listCheckpoints(runId),
    store.getGroups(runId),
  ]);
  const hashes = new Set<string>();
  for (const s of samples) if (s.screenHash !== undefined) hashes.add(s.screenHash);
  for (const t of trajectories) for (const h of t.screenHashes ?? []) hashes.add(h);
  const screens = (await Promise.all([...hashes].map((h) => store.getScreen(h)))).filter((s): s is ScreenRecord => s !== undefined);

  const files: Record<string, Uint8Array> = {
    'run.json': json(run),
    'samples.jsonl': jsonl(samples),
    'trajectories.jsonl': jsonl(trajectories),
    'phases.json': json(phases),
    'metrics.json': json(metrics.map(({ name, steps, values }) => ({ name, steps, values }))),
  };
  // Only runs that have groups carry the file, so a run without them exports as before.
  if (groups.length > 0) files['groups.jsonl'] = jsonl(groups);
  for (const s of screens) files[screenPath(s.hash)] = new Uint8Array(await s.png.arrayBuffer());
  for (const { weights, ...record } of checkpoints) {
    files[checkpointPath(record.id, 'safetensors')] = new Uint8Array(weights);
    files[checkpointPath(record.id, 'json')] = json(record);
  }
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    runId,
    createdAt: now,
    counts: { samples: samples.length, trajectories: trajectories.length, phases: phases.length, metrics: metrics.length, screens: screens.length, checkpoints: checkpoints.length, groups: groups.length },
    files: Object.fromEntries(Object.entries(files).map(([path, bytes]) => [path, { bytes: bytes.length, crc32: crc32(bytes) }])),
  };
  const zippable: Zippable = { [MANIFEST]: json(manifest) };
  // PNGs are deflated already; storing them saves time and nothing else.
  for (const [path, bytes] of Object.entries(files)) zippable[path] = path.endsWith('.png') ? [bytes, { level: 0 }] : bytes;
  return zipSync(zippable, { level: 6 });
}
