import { describe, expect, it } from 'vitest';
import { Random } from '../../src/learn/random';
import { act, createWorld, screenOf, type WorldState } from '../../src/world/env';
import { centerOf } from '../../src/world/hit';
import { APPS } from '../../src/world/apps';
import { TEMPLATES, makeTask, templateById } from '../../src/world/tasks';
import { listedNotes, type NotesState } from '../../src/world/apps/notes';
import { librarySongs, type MusicState } from '../../src/world/apps/music';
import type { UIElement } from '../../src/world/types';
import { layoutProblems } from './world-core-check';

const MINE = ['notes', 'music'] as const;

/** A world with the app already open, in a chosen variant. */
function opened(templateId: string, seed: number, variant = 0): WorldState {
  const s = createWorld({ ...makeTask(templateById(templateId), seed), variant });
  return act(s, { type: 'OPEN_APP', app: s.task.appId });
}
const el = (s: WorldState, id: string): UIElement => {
  const found = screenOf(s).elements.find((e) => e.id === id && e.interactive);
  if (!found) throw new Error(`no ${id} on ${screenOf(s).screenId}: ${screenOf(s).elements.map((e) => e.id).join(' ')}`);
  return found;
};
const click = (s: WorldState, id: string) => act(s, { type: 'CLICK', ...centerOf(el(s, id).box) });
const typeIn = (s: WorldState, id: string, text: string) => act(s, { type: 'TYPE', text, ...centerOf(el(s, id).box) });
const notes = (s: WorldState) => s.apps.notes as NotesState;
const music = (s: WorldState) => s.apps.music as MusicState;

describe('notes and music apps', () => {
  it('keep every screen sound during random walks in every variant (menus, dialogs, open dropdowns included)', () => {
    for (const appId of MINE) {
      const app = APPS.find((a) => a.id === appId)!;
      const template = TEMPLATES.find((t) => t.appId === appId)!;
      for (let variant = 0; variant < app.variants.length; variant++) {
        for (let seed = 1; seed <= 12; seed++) {
          const rng = new Random(seed * 31 + variant);
          let s = opened(template.id, seed, variant);
          const screens = new Set<string>();
          for (let step = 0; step < 40; step++) {
            const screen = screenOf(s);
            screens.add(screen.screenId);
            expect(layoutProblems(screen), `${appId} v${variant} s${seed} step ${step} on ${screen.screenId}`).toEqual([]);
            if (screen.appId !== appId) {
              s = act(s, { type: 'OPEN_APP', app: appId });
              continue;
            }
            const targets = screen.elements.filter((e) => e.interactive);
            const roll = rng.next();
            if (roll < 0.08) s = act(s, { type: 'BACK' });
            else if (roll < 0.16) s = act(s, { type: 'SCROLL', direction: rng.chance(0.7) ? 'down' : 'up' });
            else {
              const t = rng.pick(targets);
              const typed = t.role === 'text-field' || t.role === 'search-box';
              s = act(s, typed ? { type: 'TYPE', text: rng.pick(['Milk', 'Road', 'e', 'Focus']), ...centerOf(t.box) } : { type: 'CLICK', ...centerOf(t.box) });
            }
            expect(JSON.parse(JSON.stringify(s))).toEqual(s);
          }
          expect(screens.size, `${appId} v${variant} s${seed} visits several screens`).toBeGreaterThan(1);
        }
      }
    }
  });

  it('notes: delete asks first; cancel keeps the note, confirm removes it from the list', () => {
    let s = opened('notes.delete', 3);
    const target = listedNotes(notes(s))[0];
    s = click(click(s, `note-${target.id}`), 'more');
    s = click(s, 'menu.delete');
    expect(screenOf(s).elements.some((e) => e.role === 'dialog')).toBe(true);
    const kept = click(s, 'confirm.cancel');
    expect(notes(kept).notes.find((n) => n.id === target.id)!.deleted).toBe(false);
    expect(screenOf(kept).screenId).toBe('note');
    const gone = click(s, 'confirm.ok');
    expect(notes(gone).notes.find((n) => n.id === target.id)!.deleted).toBe(true);
    expect(screenOf(gone).elements.some((e) => e.id === `note-${target.id}`)).toBe(false);
  });

  it('notes: search narrows the list; a new note needs a title before it saves', () => {
    let s = opened('notes.search', 5);
    const all = listedNotes(notes(s));
    const term = all[0].title.slice(0, 4).toLowerCase();
    s = typeIn(s, 'search', term);
    const shown = screenOf(s).elements.filter((e) => e.role === 'list-item').map((e) => e.id);
    const expected = all.filter((n) => `${n.title} ${n.body}`.toLowerCase().includes(term)).map((n) => `note-${n.id}`);
    expect(shown.sort()).toEqual(expected.sort());
    expect(shown.length).toBeLessThan(all.length);

    let n = click(opened('notes.create', 5), 'new-note');
    const before = notes(n).notes.length;
    n = click(n, 'save');
    expect(notes(n).notes.length).toBe(before);
    n = click(typeIn(n, 'new-title', 'Errands'), 'save');
    expect(notes(n).notes.length).toBe(before + 1);
    expect(screenOf(n).screenId).toBe('list-notes');
  });

  it('music: repeat cycles off, all, one; next stops at the end of the queue unless repeating all', () => {
    let s = opened('music.play', 2);
    const songs = librarySongs(music(s));
    s = click(s, `song-${songs[0].id}`);
    expect(music(s).current).toBe(songs[0].id);
    const seen = [music(s).repeat];
    for (let i = 0; i < 3; i++) {
      s = click(s, 'repeat');
      seen.push(music(s).repeat);
    }
    expect(new Set(seen.slice(0, 3)).size).toBe(3);
    expect(seen[3]).toBe(seen[0]);
    while (music(s).repeat !== 'off') s = click(s, 'repeat');
    s = click(s, 'previous');
    expect(music(s).current).toBe(songs[0].id); // first in the queue: nothing before it
    s = click(s, 'next');
    expect(music(s).current).toBe(songs[1].id);
  });

  it('music: the add dialog adds nothing until a playlist is picked', () => {
    let s = opened('music.add-to-playlist', 4);
    const x = librarySongs(music(s))[0];
    s = click(click(s, `song-${x.id}`), 'add-to-playlist');
    const before = JSON.stringify(music(s).playlists);
    expect(click(s, 'add.ok')).toEqual(s);
    const target = music(s).playlists.findIndex((p) => !p.songs.includes(x.id));
    s = click(click(s, `pick.${target}`), 'add.ok');
    expect(JSON.stringify(music(s).playlists)).not.toBe(before);
    expect(music(s).playlists[target].songs).toContain(x.id);
    expect(screenOf(s).elements.some((e) => e.role === 'dialog')).toBe(false);
  });

  it('gives well over a thousand distinct tasks per app (template and params, ids left out)', () => {
    for (const appId of MINE) {
      const keys = new Set<string>();
      for (const t of TEMPLATES.filter((x) => x.appId === appId)) {
        for (let seed = 1; seed <= 600; seed++) {
          const p = makeTask(t, seed).params;
          const content = Object.keys(p).filter((k) => !['note', 'song', 'item', 'playlist', 'index'].includes(k)).sort();
          keys.add(`${t.id}|${content.map((k) => `${k}=${p[k]}`).join(';')}`);
        }
      }
      expect(keys.size, appId).toBeGreaterThan(1000);
    }
  });
});
