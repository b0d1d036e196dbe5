/**
 * The example run the app ships (public/example/, src/example/provenance.ts):
 * read its manifest, and store the run through the engine's importer (the
 * same checks as the Import button) the first time a page wants to show it.
 */
import { Comlink, getEngine } from '../engine';
import { EXAMPLE_DIR, EXAMPLE_MANIFEST, parseProvenance, type ExampleProvenance } from '../../example/provenance';

/** Set when a person deletes the example, so that a later visit with no runs does not bring it back by itself. */
const REMOVED_KEY = 'coevo.example.removed';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export class ExampleRun {
  /** Its manifest, once read. */
  about = $state<ExampleProvenance | null>(null);
  /** Storing it now (fetching and importing about 3 MB). */
  opening = $state(false);
  error = $state<string | null>(null);
  private reading: Promise<ExampleProvenance | null> | null = null;

  constructor(private readonly root: string = import.meta.env.BASE_URL) {}

  get id(): string | null {
    return this.about?.runId ?? null;
  }

  /** Whether a person deleted it before (then only Demo mode, or the button, opens it). */
  get removed(): boolean {
    try {
      return localStorage.getItem(REMOVED_KEY) !== null;
    } catch {
      return false; // storage blocked: behave as on a first visit
    }
  }

  forget(): void {
    try {
      localStorage.setItem(REMOVED_KEY, '1');
    } catch {
      // Nothing to remember it in; the next visit with no runs shows the example again.
    }
  }

  /** The manifest (fetched once); null when this build ships no example or it is unreadable (error says why). */
  read(): Promise<ExampleProvenance | null> {
    this.reading ??= (async () => {
      try {
        const res = await fetch(`${this.root}${EXAMPLE_DIR}/${EXAMPLE_MANIFEST}`);
        if (!res.ok) throw new Error(`${EXAMPLE_MANIFEST} answered ${res.status}`);
        this.about = parseProvenance(await res.json());
        return this.about;
      } catch (e) {
        this.error = `The example run could not be read (${message(e)}); start a run of your own instead.`;
        return null;
      }
    })();
    return this.reading;
  }

  /** Stores the example unless `storedIds` has it; its run id, or null (error says why; nothing is stored then). */
  async open(storedIds: readonly string[]): Promise<string | null> {
    const about = await this.read();
    if (!about) return null;
    if (storedIds.includes(about.runId)) return about.runId;
    this.opening = true;
    this.error = null;
    try {
      const res = await fetch(`${this.root}${EXAMPLE_DIR}/${about.file}`);
      if (!res.ok) throw new Error(`${about.file} answered ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (bytes.length !== about.bytes) throw new Error(`${about.file} has ${bytes.length} bytes, its manifest says ${about.bytes}`);
      // crypto.subtle exists only in a secure context (https, localhost); the importer's CRC-32 checks run either way.
      if (crypto.subtle) {
        const sum = hex(await crypto.subtle.digest('SHA-256', bytes));
        if (sum !== about.sha256) throw new Error(`${about.file} does not match its manifest's sha256 (a stale cache or a partial deploy?)`);
      }
      try {
        await getEngine().importRun(Comlink.transfer(bytes, [bytes.buffer]));
      } catch (e) {
        // Another tab may have stored it meanwhile: then it is here, which is all this wanted.
        const runs = await getEngine().listRuns();
        if (!runs.some((r) => r.id === about.runId)) throw e;
      }
      try {
        localStorage.removeItem(REMOVED_KEY);
      } catch {
        // see forget()
      }
      return about.runId;
    } catch (e) {
      this.error = `The example run could not be opened: ${message(e)}`;
      return null;
    } finally {
      this.opening = false;
    }
  }
}
