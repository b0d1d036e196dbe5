/**
 * Asking the engine worker a question as views need it: debounced (typing
 * asks after a pause), and only the newest question's answer is kept,
 * whatever order the answers come back in. The Grounder view's heat map and
 * the Playground's screenshot ask this way.
 */
import { deviceReady } from './engine';

export class LatestAnswer<Req, Ans> {
  answer = $state.raw<Ans | null>(null);
  busy = $state(false);
  error = $state<string | null>(null);
  private asked = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `send` asks the worker; `prepare` turns the view's request into what can cross to it. */
  constructor(
    private readonly send: (req: Req) => Promise<Ans>,
    private readonly prepare: (req: Req) => Req = (req) => req,
  ) {}

  /** Asks for `req` after `delayMs` (a newer ask replaces a waiting one); null clears the answer. */
  ask(req: Req | null, delayMs = 0): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const n = ++this.asked;
    if (req === null) {
      this.answer = null;
      this.busy = false;
      this.error = null;
      return;
    }
    const plain = this.prepare(req);
    this.busy = true;
    const go = async () => {
      try {
        await deviceReady;
        const answer = await this.send(plain);
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
    if (delayMs > 0) this.timer = setTimeout(() => void go(), delayMs);
    else void go();
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.asked++;
  }
}
