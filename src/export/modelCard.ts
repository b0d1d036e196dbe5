/**
 * A model card (JSON) for each checkpoint of a run: what the safetensors file
 * holds, which architecture and preset, and where it came from, so that the
 * weights mean something outside the app. The tensor list is read from the
 * file's own header, so the card cannot disagree with the weights (only the
 * header: src/models/checkpoint.ts would pull tfjs in).
 */
import type { CheckpointRecord, RunRecord } from '../store/schema';
import type { Json } from './types';

export function modelCard(record: Omit<CheckpointRecord, 'weights'>, weights: Uint8Array, run: RunRecord): Json {
  const header = safetensorsHeader(weights);
  const tensors = Object.entries(header)
    .filter(([name]) => name !== '__metadata__')
    .map(([name, t]) => ({ name, dtype: String((t as { dtype?: unknown }).dtype), shape: (t as { shape?: number[] }).shape ?? [] }));
  const parameters = tensors.reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);
  return JSON.parse(
    JSON.stringify({
      format: 'coevo-model-card',
      version: 1,
      id: record.id,
      model: record.model,
      architecture:
        record.model === 'planner'
          ? 'decoder-only transformer over goal, screen description and history tokens; writes one instruction (src/models/planner.ts)'
          : record.model === 'grounder'
            ? 'screenshot-to-heat-map transformer: convolutional stem, self-attention, cross-attention to the instruction; answers a point (src/models/grounder.ts)'
            : record.model,
      preset: run.config.preset ?? null,
      config: record.config,
      parameters,
      tensors,
      metadata: header.__metadata__ ?? {},
      provenance: {
        app: 'Coevo (co-evolution of a GUI planner and grounder, trained in the browser with tfjs)',
        run: { id: run.id, name: run.name, seed: run.seed, backend: run.backend, createdAt: new Date(run.createdAt).toISOString() },
        iteration: record.iteration,
        createdAt: new Date(record.createdAt).toISOString(),
        method: 'Co-EPG (arXiv 2511.10705) planner/grounder co-evolution with SE-GUI (arXiv 2505.12370) rewards; METHOD.md',
      },
      weights: `${encodeURIComponent(record.id)}.safetensors`,
    }),
  ) as Json;
}

/** The JSON header of a safetensors file: an 8-byte little-endian length, then that many bytes of JSON. */
function safetensorsHeader(bytes: Uint8Array): Record<string, unknown> {
  if (bytes.length < 8) throw new Error('model card: the weights are shorter than a safetensors header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  if (8 + n > bytes.length) throw new Error('model card: the safetensors header does not fit in the file');
  return JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as Record<string, unknown>;
}
