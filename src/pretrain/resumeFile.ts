/**
 * A recipe's checkpoint as one file, and back: a safetensors file whose
 * tensors are the weights (`weights/<name>`) and the optimizer's state
 * (`optimizer/<name>`), and whose __metadata__ holds the run's key and the
 * loop's step and record as JSON. One file, so that writing it to a temp
 * name and renaming it replaces the previous checkpoint all at once.
 */
import { decodeSafetensors, encodeSafetensors, type TensorData } from '../models/safetensors';
import type { OptimizerState } from '../models/optimizerState';
import type { LoopCheckpoints, LoopState } from './loopState';
import type { RecipeOptions } from './recipeTypes';
import { readResumeHeader, RESUME_FILE_FORMAT, resumeMismatch, type ResumeHeader, type ResumeKey } from './resumeKey';

/** The loop state's JSON part: everything but the tensors. */
interface StateJson {
  step: number;
  record: unknown;
  optimizer: Omit<OptimizerState, 'tensors'> | null;
}

export function encodeResumeFile<R>(header: ResumeHeader, s: LoopState<R>): Uint8Array {
  const tensors: Record<string, TensorData> = {};
  for (const [k, t] of Object.entries(s.weights)) tensors[`weights/${k}`] = t;
  let optimizer: StateJson['optimizer'] = null;
  if (s.optimizer) {
    const { tensors: moments, ...rest } = s.optimizer;
    for (const [k, t] of Object.entries(moments)) tensors[`optimizer/${k}`] = t;
    optimizer = rest;
  }
  const state: StateJson = { step: s.step, record: s.record, optimizer };
  return encodeSafetensors(tensors, { format: RESUME_FILE_FORMAT, header: JSON.stringify(header), state: JSON.stringify(state) });
}

/** The header and state of a resume file. The record's type is the caller's to know: the key check says which recipe wrote it. */
export function decodeResumeFile<R>(bytes: Uint8Array): { header: ResumeHeader; state: LoopState<R> } {
  const header = readResumeHeader(bytes);
  const { tensors, metadata } = decodeSafetensors(bytes);
  const json = JSON.parse(metadata.state ?? 'null') as StateJson | null;
  if (!json) throw new Error('not a pretraining checkpoint (no loop state)');
  const weights: Record<string, TensorData> = {};
  const moments: Record<string, TensorData> = {};
  for (const [name, t] of Object.entries(tensors)) {
    if (name.startsWith('weights/')) weights[name.slice('weights/'.length)] = t;
    else if (name.startsWith('optimizer/')) moments[name.slice('optimizer/'.length)] = t;
  }
  return { header, state: { step: json.step, weights, optimizer: json.optimizer ? { ...json.optimizer, tensors: moments } : null, record: json.record as R } };
}

/** The state to resume from, when the file was made by a run with this key; otherwise an error that says what differs. */
export function resumedState<R>(bytes: Uint8Array | undefined, key: ResumeKey): LoopState<R> | undefined {
  if (!bytes) return undefined;
  const { header, state } = decodeResumeFile<R>(bytes);
  const differ = resumeMismatch(header.key, key);
  if (differ) throw new Error(`The ${key.model} checkpoint belongs to another run, so it cannot be continued (${differ}). Resume with that run's options, or start afresh without --resume.`);
  return state;
}

/** The loop's checkpoint hook that turns each state into a resume file for the recipe's caller, or undefined when none is asked for. */
export function recipeCheckpoints<R>(key: ResumeKey, sink: RecipeOptions['checkpoints'], where: (s: LoopState<R>) => Omit<ResumeHeader, 'key'>): LoopCheckpoints<R> | undefined {
  if (!sink || sink.every <= 0) return undefined;
  return {
    every: sink.every,
    save(s) {
      const at = where(s);
      sink.save({ ...at, bytes: encodeResumeFile({ key, ...at }, s) });
    },
  };
}
