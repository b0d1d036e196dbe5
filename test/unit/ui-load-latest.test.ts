import { describe, expect, it } from 'vitest';
import { loadLatest } from '../../src/ui/shell/loadLatest';

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('loadLatest', () => {
  it('applies a read that is still the latest, and drops one that a newer read replaced', async () => {
    const applied: string[] = [];
    let finishOld!: (v: string) => void;
    const cancelOld = loadLatest(() => new Promise<string>((r) => (finishOld = r)), (v) => applied.push(v), () => applied.push('error'));
    cancelOld(); // the effect ran again: a newer read starts
    loadLatest(async () => 'new', (v) => applied.push(v), () => applied.push('error'));
    finishOld('old');
    await settle();
    expect(applied).toEqual(['new']);
  });

  it('passes the message of a failed read on, unless it went stale', async () => {
    const errors: string[] = [];
    loadLatest(() => Promise.reject(new Error('store closed')), () => undefined, (m) => errors.push(m));
    const cancel = loadLatest(() => Promise.reject(new Error('late')), () => undefined, (m) => errors.push(m));
    cancel();
    await settle();
    expect(errors).toEqual(['store closed']);
  });
});
