import { describe, expect, it } from 'vitest';
import { onePerKey } from '../../workers/onePerKey';

describe('onePerKey', () => {
  it('gives a call made while the same key loads the same promise, and loads again once it settled', async () => {
    let loads = 0;
    let finish: (() => void) | null = null;
    const load = onePerKey(async (key: string) => {
      loads++;
      await new Promise<void>((r) => (finish = r));
      return { key, n: loads };
    });
    const a = load('run-1');
    const b = load('run-1');
    expect(b).toBe(a);
    expect(loads).toBe(1);
    finish!();
    expect(await a).toEqual({ key: 'run-1', n: 1 });
    const c = load('run-1');
    expect(c).not.toBe(a);
    finish!();
    expect((await c).n).toBe(2);
  });

  it('keeps keys apart, and lets a failed load be tried again', async () => {
    let calls = 0;
    const load = onePerKey(async (key: string) => {
      calls++;
      if (key === 'bad' && calls === 1) throw new Error('store unavailable');
      return key;
    });
    await expect(load('bad')).rejects.toThrow('store unavailable');
    expect(await Promise.all([load('bad'), load('good')])).toEqual(['bad', 'good']);
    expect(calls).toBe(3);
  });
});
