/**
 * A uniform weight soup (Wortsman et al., 2022, "Model soups"): the mean of
 * several models' weights, each tensor averaged element by element. It only
 * makes sense for models tuned from one start, whose weights stay in one
 * basin; then the mean often generalises better than any one of them. No
 * tfjs here: `npm run pretrain -- --soup` makes it in Node.
 */
import { decodeSafetensors, encodeSafetensors, type TensorData } from '../models/safetensors';

/** The mean of checkpoints with the same config and tensors, as safetensors with the first one's metadata. */
export function soupCheckpoints(files: readonly Uint8Array[], names: readonly string[] = files.map((_, i) => `checkpoint ${i + 1}`)): Uint8Array {
  if (files.length < 2) throw new Error(`a soup needs at least two checkpoints, got ${files.length}.`);
  const read = files.map((f, i) => {
    try {
      return decodeSafetensors(f);
    } catch (e) {
      throw new Error(`${names[i]} is not a safetensors file: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  const [first] = read;
  const keys = Object.keys(first.tensors).sort();
  read.forEach((r, i) => {
    if ((r.metadata.config ?? '') !== (first.metadata.config ?? '')) throw new Error(`${names[i]} has another model config than ${names[0]}; a soup averages models of one shape, tuned from one start.`);
    const own = Object.keys(r.tensors).sort();
    if (own.join('\n') !== keys.join('\n')) throw new Error(`${names[i]} has other tensors than ${names[0]}.`);
    for (const k of keys) {
      if (r.tensors[k].shape.join('x') !== first.tensors[k].shape.join('x')) throw new Error(`${names[i]}'s ${k} is [${r.tensors[k].shape}], ${names[0]}'s [${first.tensors[k].shape}].`);
    }
  });
  const mean: Record<string, TensorData> = {};
  for (const k of keys) {
    const sum = new Float64Array(first.tensors[k].data.length);
    for (const r of read) {
      const d = r.tensors[k].data;
      for (let j = 0; j < sum.length; j++) sum[j] += d[j];
    }
    mean[k] = { shape: [...first.tensors[k].shape], data: Float32Array.from(sum, (s) => s / read.length) };
  }
  return encodeSafetensors(mean, first.metadata);
}
