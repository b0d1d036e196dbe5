import { describe, expect, it } from 'vitest';
import { keyCommand, type KeyPress } from '../../src/ui/shell/keyboard';

const on = (tagName: string, attrs: Record<string, string> = {}): KeyPress['target'] => ({ tagName, getAttribute: (n: string) => attrs[n] ?? null });
const press = (key: string, target: KeyPress['target'] = on('BODY'), extra: Partial<KeyPress> = {}) => keyCommand({ key, target, view: 'loop', ...extra });

describe('the keyboard map', () => {
  it('acts on the Loop view only: elsewhere space scrolls and → pages through the view', () => {
    for (const view of ['grpo', 'grounder', 'data', 'metrics', 'playground', 'world'] as const) {
      expect(press(' ', on('BODY'), { view })).toBeNull();
      expect(press('ArrowRight', on('BODY'), { view })).toBeNull();
    }
  });

  it('space runs or pauses, → steps one phase', () => {
    expect(press(' ')).toBe('toggle-run');
    expect(press('ArrowRight')).toBe('step-phase');
    expect(press('ArrowRight', on('DIV'))).toBe('step-phase');
    expect(press('ArrowLeft')).toBeNull();
    expect(press('a')).toBeNull();
  });

  it('stays out of the way while typing or choosing', () => {
    for (const tag of ['INPUT', 'TEXTAREA', 'SELECT']) {
      expect(press(' ', on(tag))).toBeNull();
      expect(press('ArrowRight', on(tag))).toBeNull();
    }
    expect(press(' ', { tagName: 'DIV', isContentEditable: true })).toBeNull();
    expect(press('ArrowRight', on('DIV', { role: 'slider' }))).toBeNull();
  });

  it('lets space press the focused button instead of toggling the run', () => {
    expect(press(' ', on('BUTTON'))).toBeNull();
    expect(press(' ', on('A'))).toBeNull();
    expect(press('ArrowRight', on('BUTTON'))).toBe('step-phase');
  });

  it('ignores modified and repeated keys', () => {
    expect(press('ArrowRight', on('BODY'), { ctrlKey: true })).toBeNull();
    expect(press('ArrowRight', on('BODY'), { altKey: true })).toBeNull();
    expect(press(' ', on('BODY'), { metaKey: true })).toBeNull();
    expect(press('ArrowRight', on('BODY'), { repeat: true })).toBeNull();
    expect(press(' ', null)).toBe('toggle-run');
  });
});
