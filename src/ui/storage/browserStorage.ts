/**
 * The browser's storage manager, where it exists (navigator.storage is
 * missing in insecure contexts and some embedded browsers: then nothing is
 * known, and nothing is refused for lack of room).
 */
import type { StorageFigures } from './storageBudget';

export interface StorageState extends StorageFigures {
  /** The browser promised not to evict this origin's data under storage pressure. */
  persisted: boolean;
}

function manager(): StorageManager | null {
  return typeof navigator !== 'undefined' && navigator.storage ? navigator.storage : null;
}

export async function readStorage(): Promise<StorageState | null> {
  const m = manager();
  if (!m?.estimate) return null;
  const [{ usage = 0, quota = 0 }, persisted] = await Promise.all([m.estimate(), m.persisted ? m.persisted() : Promise.resolve(false)]);
  return { usage, quota, persisted };
}

/**
 * Asks the browser to keep this origin's runs under storage pressure.
 * Chromium decides by itself (engagement, installed app) without asking the
 * person; Firefox asks. Resolves whether storage is persistent now.
 */
export async function requestPersistence(): Promise<boolean> {
  const m = manager();
  if (!m?.persist) return false;
  try {
    return (await m.persisted?.()) || (await m.persist());
  } catch {
    return false;
  }
}
