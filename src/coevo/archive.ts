/**
 * A run as one zip file, to move it between browsers or to read it with
 * other tools. Layout:
 *
 *   manifest.json             { format: 'coevo-run', version: 1, runId, createdAt (export time, ms),
 *                               counts: {samples, trajectories, phases, metrics, screens, checkpoints, groups},
 *                               files: { <path>: { bytes, crc32 } } for every other entry }
 *   run.json                  the RunRecord, config and cursor included
 *   samples.jsonl             one step sample per line (schema below)
 *   trajectories.jsonl        one TrajectoryRecord per line
 *   phases.json               the finished phases, in plan order
 *   metrics.json              [{ name, steps, values }], one per training curve
 *   groups.jsonl              planner GRPO groups kept for the inspector, one GroupRecord per line
 *                             (src/coevo/groupRecords.ts; absent when the run has none)
 *   screens/<hash>.png        every stored screen a sample or trajectory shows
 *   checkpoints/<id>.safetensors  the weights (loads in Python's safetensors, PyTorch, ...)
 *   checkpoints/<id>.json     the checkpoint's record without its bytes
 * (<hash> and <id> are URI-encoded, so an id with '/' stays one file name.)
 *
 * samples.jsonl, one JSON object per line. Names follow AndroidControl and
 * Mind2Web where they overlap: a line is one step of one episode with its
 * goal, its step instruction and the action's type, target and value.
 *   id           string  unique id, `<runId>/<iteration>/<n>`
 *   runId        string  the run it belongs to
 *   iteration    int     0 for the seed dataset D0, k for data distilled in iteration k
 *   phase        string  the phase that wrote it: 'seed-data' or 'distill'
 *   origin       string  'seed' (instruction writer pool) or 'distilled' (a trained planner)
 *   source       string  who wrote the instruction, e.g. 'writer:terse', 'planner@1'
 *   task         object  the episode: { id, templateId, appId, domain, platform, variant, seed,
 *                        params: {string: string}, goal } (Mind2Web's annotation_id / website / domain)
 *   stepIndex    int     0-based step in the episode (AndroidControl's step index)
 *   platform     string  'web' (landscape page) or 'mobile' (portrait app)
 *   goal         string  the high-level goal (AndroidControl's goal, Mind2Web's confirmed_task)
 *   instruction  string  the low-level step instruction (AndroidControl's step_instruction)
 *   style        string|null  how it refers to its target: text, icon, position, relation, color, function
 *   actionType   string  CLICK, TYPE, SELECT, SCROLL, BACK, OPEN_APP or DONE (Mind2Web's operation.op)
 *   value        string? the typed text or chosen option (Mind2Web's operation.value)
 *   targetId     string? the target element's id on its screen
 *   box          object? the target's box in screen pixels { x, y, w, h }, (x, y) its top-left corner
 *   screenHash   string? the screenshot before the step: screens/<screenHash>.png
 *   kept         bool    whether the sample is in the training set; dropped ones keep their reasons
 *   curation     array   [{ stage: 'verifier'|'too-easy'|'misaligned'|'diversity', decision: 'keep'|'drop', reason }]
 *
 * JSON has no NaN or Infinity: such numbers (a diverged loss) are written as
 * {"$nonfinite": "NaN" | "Infinity" | "-Infinity"} and read back as numbers.
 *
 * Import refuses, before writing anything: a file or entry past the size
 * limits (archive/limits.ts) or that inflates past what its zip directory
 * declares (a zip bomb stops there), a damaged or unlisted entry, and any
 * record outside its schema (archive/records.ts, archive/groups.ts: types,
 * ranges shared with the config validator, finite numbers, bounded ids and
 * texts). Then it writes the whole run in one transaction.
 *
 * The code lives in src/coevo/archive/: format (shared shapes and messages),
 * unzip (the bounded zip reader), fields + records + groups + entries (the
 * schema), read (import) and write (export). This module is their public face.
 */
export { ARCHIVE_FORMAT, ARCHIVE_VERSION, ImportError, crc32, type ArchiveCounts, type ArchiveManifest } from './archive/format';
export { exportRun } from './archive/write';
export { importRun, readArchive } from './archive/read';
export { ARCHIVE_LIMITS } from './archive/limits';
