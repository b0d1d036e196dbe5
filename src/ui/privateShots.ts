/**
 * The person's marked screenshots (the data owner's private set for offsite
 * tuning): kept by the Playground, counted and cut into grounder tiles for
 * the Offsite view. They live in this browser's IndexedDB only; nothing here
 * sends them anywhere but the page's own worker, and they leave the browser
 * only as the file the person asks for (privateSetFile.ts).
 */
import { checkPrivateSetSize, readPrivateSet, writePrivateSet } from '../ownScreen/privateSetFile';
import { privateTile, type PrivateTile } from '../ownScreen/privateTile';
import type { ScaleChoice } from '../ownScreen/tiles';
import type { PrivateShotRecord } from '../store';
import type { Box } from '../world/types';
import { decodeScreenshot, imageSize, type Screenshot } from './decodeImage';
import { mainStore } from './shell/mainStore';

export async function keepPrivateShot(shot: Screenshot, scale: ScaleChoice, instruction: string, box: Box): Promise<void> {
  const createdAt = Date.now();
  const rec: PrivateShotRecord = {
    id: `shot-${createdAt.toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
    createdAt,
    name: shot.name,
    bytes: shot.bytes.slice().buffer,
    width: shot.sourceWidth,
    height: shot.sourceHeight,
    scale,
    instruction,
    box,
  };
  await (await mainStore()).putPrivateShot(rec);
}

export async function countPrivateShots(): Promise<number> {
  return (await mainStore()).countPrivateShots();
}

export async function deletePrivateShots(): Promise<void> {
  await (await mainStore()).clearPrivateShots();
}

/** Every kept screenshot decoded and cut to the tile that holds its target; a file that no longer decodes is named in the error. */
export async function privateTiles(): Promise<PrivateTile[]> {
  const out: PrivateTile[] = [];
  for (const r of await (await mainStore()).listPrivateShots()) {
    const shot = await decodeScreenshot(new Blob([r.bytes]), r.name);
    out.push(privateTile({ image: shot, source: { width: r.width, height: r.height }, scale: r.scale, instruction: r.instruction, box: r.box }));
  }
  return out;
}

/** The whole private set as the file a person asked to download. */
export async function privateSetText(): Promise<string> {
  return writePrivateSet(await (await mainStore()).listPrivateShots());
}

/**
 * A private-set file read back: every field checked, every image opened and
 * its size compared with the one its box was marked on (its pixels are not
 * read: that waits for a comparison), then all added in
 * one transaction (screenshots already here, by id, are skipped). Any fault
 * refuses the whole file and adds nothing.
 */
export async function addPrivateSetFile(file: Blob): Promise<{ added: number; skipped: number }> {
  checkPrivateSetSize(file.size);
  const shots = readPrivateSet(await file.text());
  for (const r of shots) {
    let size: { width: number; height: number };
    try {
      size = await imageSize(new Uint8Array(r.bytes), r.name);
    } catch (e) {
      throw new Error(`${e instanceof Error ? e.message : String(e)} Nothing was added.`);
    }
    if (size.width !== r.width || size.height !== r.height) {
      throw new Error(`“${r.name}” in this file is ${size.width}×${size.height} px, but its box was marked on a ${r.width}×${r.height} image. Nothing was added.`);
    }
  }
  return (await mainStore()).addPrivateShots(shots);
}
