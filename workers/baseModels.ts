/**
 * The shipped base checkpoints, served with the app from public/base/ (see
 * `npm run pretrain`). They are part of the app, like its fonts: nothing is
 * fetched from anywhere else.
 */
import type { BaseLoader } from '../src/coevo/phases/context';
import { baseFileName } from '../src/pretrain/baseTypes';

type Fetch = (url: string) => Promise<Pick<Response, 'ok' | 'status' | 'arrayBuffer'>>;

export function shippedBaseLoader(fetchFn: Fetch = (u) => fetch(u), root: string = import.meta.env.BASE_URL): BaseLoader {
  return async (model, preset) => {
    const url = `${root}base/${baseFileName(preset, model)}`;
    let res: Awaited<ReturnType<Fetch>>;
    try {
      res = await fetchFn(url);
    } catch (e) {
      throw new Error(`The base ${model} of preset '${preset}' could not be read from ${url} (${e instanceof Error ? e.message : String(e)}); set start=scratch to train from random weights.`);
    }
    if (!res.ok) {
      throw new Error(`No base ${model} ships for preset '${preset}' (${url} answered ${res.status}); run \`npm run pretrain -- --preset ${preset}\` to make one, or set start=scratch.`);
    }
    return new Uint8Array(await res.arrayBuffer());
  };
}
