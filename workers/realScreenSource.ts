/**
 * Where the loop's evaluations get the held-out real-screen suite: the page
 * draws it (its DOM lays the fixture pages out; a worker has no DOM) when
 * asked, through the provider it registers as soon as it creates this
 * worker, so every run this worker starts or resumes (a reload included:
 * the new page registers again) finds it. Asked for lazily, when an
 * evaluation first needs it, and kept: a page that only browses runs never
 * draws the suite, and a run draws it once.
 */
import type { RealScreenSource } from '../src/coevo/phases/context';
import type { RealScreenInput } from '../src/realScreens/suiteInput';

export type RealScreenProvider = () => Promise<RealScreenInput[]>;

export function createRealScreenSource(): { provide(p: RealScreenProvider): void; get: RealScreenSource } {
  let provider: RealScreenProvider | null = null;
  let suite: Promise<RealScreenInput[]> | null = null;
  return {
    provide(p) {
      provider = p;
      suite = null;
    },
    get() {
      if (!provider) return Promise.resolve(null);
      // A failed drawing is not kept: the next evaluation asks again.
      suite ??= provider().catch((e: unknown) => {
        suite = null;
        throw e;
      });
      return suite;
    },
  };
}
