/** The page's one read connection to the run store (the worker writes; views read). */
import { Store } from '../../store/store';

let opened: Promise<Store> | null = null;

export function mainStore(): Promise<Store> {
  if (!opened) {
    opened = Store.open().catch((e: unknown) => {
      opened = null; // let a later call try again
      throw new Error(`The run store could not be opened (${e instanceof Error ? e.message : String(e)}). Reload the page; if it persists, this browser may block IndexedDB (private mode).`);
    });
  }
  return opened;
}
