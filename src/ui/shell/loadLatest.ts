/**
 * The read-from-the-store pattern of the views that follow a run: start a
 * read, apply its result only if no newer read has started since (the run
 * or the committed phase changed while it was in flight), and turn a failure
 * into the view's error text. Call it inside an $effect and return what it
 * returns, so that the effect's next run marks this read stale.
 */
export function loadLatest<T>(read: () => Promise<T>, apply: (value: T) => void, fail: (message: string) => void): () => void {
  let stale = false;
  read().then(
    (value) => {
      if (!stale) apply(value);
    },
    (e: unknown) => {
      if (!stale) fail(e instanceof Error ? e.message : String(e));
    },
  );
  return () => {
    stale = true;
  };
}
