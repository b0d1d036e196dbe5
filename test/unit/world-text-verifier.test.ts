import { describe, expect, it } from 'vitest';
import { parseInstruction } from '../../src/text/grammar';
import { resolveRef, roleMatches, verifyInstruction, visibleElements } from '../../src/world/verifier';
import type { Ref, Screen } from '../../src/world/types';
import { SCREEN_SIZE } from '../../src/world/types';
import { CART, COMPOSE, FIXTURE_SCREENS, INBOX, SETTINGS } from './fixtures/screens';

function said(screen: Screen, words: string) {
  const i = parseInstruction(words);
  if (!i?.ref) throw new Error(`cannot parse: ${words}`);
  return resolveRef(screen, i.ref);
}

describe('fixture screens', () => {
  it('use the shared screen sizes and unique ids', () => {
    for (const s of FIXTURE_SCREENS) {
      expect({ width: s.width, height: s.height }).toEqual(SCREEN_SIZE[s.platform]);
      expect(new Set(s.elements.map((e) => e.id)).size).toBe(s.elements.length);
    }
    expect(new Set(FIXTURE_SCREENS.map((s) => s.platform))).toEqual(new Set(['web', 'mobile']));
  });
});

describe('resolveRef', () => {
  it('matches text case- and space-insensitively, and calls duplicates ambiguous', () => {
    expect(said(COMPOSE, 'click the "  save " button')).toEqual({ kind: 'element', id: 'save' });
    expect(said(INBOX, 'click "Lunch on Friday"')).toEqual({ kind: 'ambiguous', ids: ['mail-1', 'mail-3'] });
    expect(said(INBOX, 'click "Invoice 42"')).toEqual({ kind: 'element', id: 'mail-2' });
    expect(said(INBOX, 'click "Nothing here"')).toEqual({ kind: 'none' });
  });

  it('narrows by role when the reference names one, with role families', () => {
    // "Send" is a button and a link.
    expect(said(COMPOSE, 'click "Send"')).toEqual({ kind: 'ambiguous', ids: ['send', 'send-later'] });
    expect(said(COMPOSE, 'click the "Send" button')).toEqual({ kind: 'element', id: 'send' });
    expect(said(COMPOSE, 'click the "Send" link')).toEqual({ kind: 'element', id: 'send-later' });
    expect(said(COMPOSE, 'click the "Send" checkbox')).toEqual({ kind: 'none' });
    // A field is named by its label; a search box is a kind of text field.
    expect(said(INBOX, 'type "x" into the "Search mail" text field')).toEqual({ kind: 'element', id: 'search' });
    expect(roleMatches('button', 'icon-button')).toBe(true);
    expect(roleMatches('icon-button', 'button')).toBe(false);
    expect(roleMatches('text-field', 'search-box')).toBe(true);
  });

  it('prefers the interactive element when a label and its field share the text', () => {
    expect(said(COMPOSE, 'type "Hi" into "Subject"')).toEqual({ kind: 'element', id: 'subject' });
    expect(said(SETTINGS, 'click "Network"')).toEqual({ kind: 'element', id: 'tab-network' });
    expect(said(SETTINGS, 'click the "Network" heading')).toEqual({ kind: 'element', id: 'net-heading' });
  });

  it('resolves icons, with and without a role', () => {
    expect(said(INBOX, 'tap the trash icon')).toEqual({ kind: 'ambiguous', ids: ['del-1', 'del-2', 'del-3', 'del-4'] });
    expect(said(INBOX, 'tap the gear icon')).toEqual({ kind: 'element', id: 'settings' });
    expect(said(INBOX, 'tap the pencil button')).toEqual({ kind: 'element', id: 'compose' });
    expect(said(INBOX, 'tap the pencil icon button')).toEqual({ kind: 'none' });
  });

  it('counts ordinals from an edge, in reading order', () => {
    expect(said(INBOX, 'click the second icon button from the top')).toEqual({ kind: 'element', id: 'refresh' });
    expect(said(INBOX, 'click the first icon button from the top')).toEqual({ kind: 'element', id: 'settings' });
    expect(said(INBOX, 'click the first list item from the bottom')).toEqual({ kind: 'element', id: 'mail-4' });
    expect(said(SETTINGS, 'click the third radio button from the top')).toEqual({ kind: 'element', id: 'size-large' });
    expect(said(SETTINGS, 'click the first radio button from the right')).toEqual({ kind: 'element', id: 'size-large' });
    expect(said(SETTINGS, 'click the first switch from the bottom')).toEqual({ kind: 'element', id: 'plane' });
    expect(said(SETTINGS, 'click the fourth switch from the top')).toEqual({ kind: 'none' });
    // Buttons include icon and back buttons: the back button is the first from the top.
    expect(said(SETTINGS, 'click the first button from the top')).toEqual({ kind: 'element', id: 'back' });
  });

  it('finds elements by screen region, ambiguous when several share it', () => {
    expect(said(SETTINGS, 'click the tab at the bottom right')).toEqual({ kind: 'element', id: 'tab-display' });
    expect(said(SETTINGS, 'click the back button at the top left')).toEqual({ kind: 'element', id: 'back' });
    expect(said(SETTINGS, 'click the tab at the bottom')).toMatchObject({ kind: 'ambiguous' });
    // Archive's centre lies in the middle third of the width, so it is not in the bottom right.
    expect(said(INBOX, 'click the button in the bottom right of the screen')).toEqual({
      kind: 'ambiguous',
      ids: ['del-4', 'delete-all'],
    });
    expect(said(INBOX, 'click the second button at the bottom right')).toEqual({ kind: 'element', id: 'delete-all' });
  });

  it('resolves relations to the nearest element of the role in that direction', () => {
    expect(said(SETTINGS, 'tap the switch next to "Wi-Fi"')).toEqual({ kind: 'element', id: 'wifi' });
    expect(said(SETTINGS, 'tap the switch to the right of "Bluetooth"')).toEqual({ kind: 'element', id: 'bt' });
    expect(said(SETTINGS, 'tap the switch below "Wi-Fi"')).toEqual({ kind: 'none' });
    expect(said(SETTINGS, 'tap the slider below "Brightness"')).toEqual({ kind: 'element', id: 'bright' });
    expect(said(COMPOSE, 'type "x" into the text field next to "Subject"')).toEqual({ kind: 'element', id: 'subject' });
    expect(said(COMPOSE, 'type "x" into the text field below "Priority"')).toEqual({ kind: 'element', id: 'body' });
    expect(said(SETTINGS, 'tap the switch above "Bluetooth"')).toEqual({ kind: 'none' });
    expect(said(SETTINGS, 'tap the radio button below "Brightness"')).toEqual({
      kind: 'ambiguous',
      ids: ['size-small', 'size-medium'], // "Large" is not under the label's columns
    });
    // Two anchors with the same text and different neighbours.
    expect(said(INBOX, 'tap the icon button next to "Lunch on Friday"')).toEqual({ kind: 'ambiguous', ids: ['del-1', 'del-3'] });
  });

  it('resolves colours among elements of the role', () => {
    expect(said(INBOX, 'click the red button')).toEqual({ kind: 'element', id: 'delete-all' });
    expect(said(SETTINGS, 'click the blue button')).toEqual({ kind: 'ambiguous', ids: ['apply', 'help'] });
    expect(said(SETTINGS, 'click the green button')).toEqual({ kind: 'none' });
  });

  it('resolves purposes, ambiguous when several elements do the same', () => {
    expect(said(COMPOSE, 'click the control that sends the message')).toEqual({ kind: 'element', id: 'send' });
    expect(said(INBOX, 'click the one used to delete this message')).toMatchObject({ kind: 'ambiguous' });
  });

  it('ignores what a dialog covers and what lies off screen', () => {
    const visible = visibleElements(CART).map((e) => e.id);
    expect(visible).not.toContain('remove-2');
    expect(visible).not.toContain('item-2');
    expect(visible).toContain('remove-1');
    expect(visible).toContain('dlg-remove');
    expect(said(CART, 'click the "Remove" button')).toEqual({ kind: 'ambiguous', ids: ['remove-1', 'remove-3', 'dlg-remove'] });
    expect(said(CART, 'click the red button')).toEqual({ kind: 'element', id: 'dlg-remove' });
    const moved: Screen = {
      ...SETTINGS,
      elements: SETTINGS.elements.map((e) => (e.id === 'help' ? { ...e, box: { ...e.box, y: 260 } } : e)),
    };
    expect(said(moved, 'click the blue button')).toEqual({ kind: 'element', id: 'apply' });
  });
});

describe('verifyInstruction', () => {
  it('accepts exactly the target and handles steps without a target', () => {
    const click = parseInstruction('click the "Send" button');
    if (!click) throw new Error('parse');
    expect(verifyInstruction(COMPOSE, click, 'send')).toBe(true);
    expect(verifyInstruction(COMPOSE, click, 'save')).toBe(false);
    expect(verifyInstruction(COMPOSE, click)).toBe(false);
    const ambiguous: Ref = { style: 'text', text: 'Send' };
    expect(verifyInstruction(COMPOSE, { action: 'CLICK', ref: ambiguous, phrasing: 0 }, 'send')).toBe(false);
    expect(verifyInstruction(COMPOSE, { action: 'BACK', phrasing: 0 })).toBe(true);
    expect(verifyInstruction(COMPOSE, { action: 'CLICK', phrasing: 0 })).toBe(false);
  });
});
