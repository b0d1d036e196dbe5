/**
 * Asking the engine worker to ground an instruction on a person's
 * screenshot (groundImage), as the Playground needs it: typing asks after a
 * pause, and only the newest question's answer is kept.
 */
import { deviceReady, getEngine } from '../engine';
import type { GroundImageAnswer, GroundImageRequest } from '../../../workers/api';

export class ImageGrounding {
  answer = $state.raw<GroundImageAnswer | null>(null);
  busy = $state(false);
  error = $state<string | null>(null);
  private asked = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** Asks for `req` after `delayMs` (a newer ask replaces a waiting one); null clears the answer. */
  ask(req: GroundImageRequest | null, delayMs = 0): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const n = ++this.asked;
    if (req === null) {
      this.answer = null;
      this.busy = false;
      this.error = null;
      return;
    }
    this.busy = true;
    const send = async () => {
      try {
        await deviceReady;
        const answer = await getEngine().groundImage(req);
        if (n !== this.asked) return;
        this.answer = answer;
        this.error = null;
      } catch (e) {
        if (n !== this.asked) return;
        this.answer = null;
        this.error = e instanceof Error ? e.message : String(e);
      } finally {
        if (n === this.asked) this.busy = false;
      }
    };
    if (delayMs > 0) this.timer = setTimeout(() => void send(), delayMs);
    else void send();
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.asked++;
  }
}
