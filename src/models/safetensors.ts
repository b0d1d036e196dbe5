/**
 * Safetensors (https://github.com/huggingface/safetensors), written here:
 * 8-byte little-endian header length N, N bytes of JSON header {name:
 * {dtype: "F32", shape, data_offsets: [begin, end]}, …, "__metadata__"}
 * padded with spaces to a multiple of 8, then the raw little-endian float32
 * data. Python's safetensors, PyTorch and others load these files. A round
 * trip is bit-exact: values are copied as bytes, never reformatted. No tfjs
 * here, so Node scripts can read and write weights without a backend.
 */
export interface TensorData {
  shape: number[];
  data: Float32Array;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function f32Bytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  if (LITTLE_ENDIAN) return bytes;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 4) for (let j = 0; j < 4; j++) out[i + j] = bytes[i + 3 - j];
  return out;
}

export function encodeSafetensors(tensors: Record<string, TensorData>, metadata: Record<string, string> = {}): Uint8Array {
  const names = Object.keys(tensors).sort();
  const header: Record<string, HeaderEntry | Record<string, string>> = { __metadata__: metadata };
  let offset = 0;
  for (const name of names) {
    const t = tensors[name];
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.data.length) throw new Error(`encodeSafetensors: ${name} has ${t.data.length} values for shape [${t.shape}]`);
    header[name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + 4 * n] };
    offset += 4 * n;
  }
  let json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8;
  if (padded !== json.length) {
    const p = new Uint8Array(padded).fill(0x20);
    p.set(json);
    json = p;
  }
  const out = new Uint8Array(8 + json.length + offset);
  const view = new DataView(out.buffer);
  view.setUint32(0, json.length, true);
  view.setUint32(4, 0, true);
  out.set(json, 8);
  let at = 8 + json.length;
  for (const name of names) {
    out.set(f32Bytes(tensors[name].data), at);
    at += tensors[name].data.byteLength;
  }
  return out;
}

export function decodeSafetensors(bytes: Uint8Array): { tensors: Record<string, TensorData>; metadata: Record<string, string> } {
  if (bytes.length < 8) throw new Error('decodeSafetensors: shorter than the 8-byte header length');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  if (8 + n > bytes.length) throw new Error(`decodeSafetensors: header of ${n} bytes does not fit in ${bytes.length}`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as Record<string, unknown>;
  const base = 8 + n;
  const tensors: Record<string, TensorData> = {};
  let metadata: Record<string, string> = {};
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      metadata = entry as Record<string, string>;
      continue;
    }
    const e = entry as HeaderEntry;
    if (e.dtype !== 'F32') throw new Error(`decodeSafetensors: ${name} has dtype ${e.dtype}; only F32 is supported`);
    const [begin, end] = e.data_offsets;
    const raw = bytes.slice(base + begin, base + end); // a copy, aligned for Float32Array
    if (!LITTLE_ENDIAN) for (let i = 0; i < raw.length; i += 4) raw.subarray(i, i + 4).reverse();
    const data = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    if (data.length !== e.shape.reduce((a, b) => a * b, 1)) throw new Error(`decodeSafetensors: ${name} size does not match shape`);
    tensors[name] = { shape: e.shape, data };
  }
  return { tensors, metadata };
}
