/**
 * Async work done at most once at a time per key: a call while the same
 * key's work is under way gets that work's promise instead of starting its
 * own. The co-evolution host loads a run's runner this way, because a page
 * that opens a run and a command that resumes it can ask at the same moment,
 * and two runners of one run would each train it and refuse the other's saves.
 */
export function onePerKey<T>(work: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const underWay = new Map<string, Promise<T>>();
  return (key) => {
    const have = underWay.get(key);
    if (have) return have;
    const p = work(key).finally(() => underWay.delete(key));
    underWay.set(key, p);
    return p;
  };
}
