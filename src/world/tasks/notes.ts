/** Task templates for the Jotter notes app. */
import type { Random } from '../../learn/random';
import { archivedNotes, listedNotes, noteById, type Note, type NotesState } from '../apps/notes';
import { CHECK_ITEMS, NOTE_COLOURS, NOTE_SENTENCES, NOTE_TITLES } from '../data/mediaNotes';
import { defineTemplate, type Intent, type Params } from './template';

const base = { appId: 'notes', platform: 'mobile', domain: 'notes' } as const;
const note = (s: NotesState, p: Params): Note | undefined => noteById(s, Number(p.note));
const open = (p: Params): Intent => ({ do: 'click', id: `note-${p.note}` });
const active = (s: NotesState) => listedNotes({ ...s, query: '' });
const pickNote = (rng: Random, list: Note[], extra: (n: Note) => Params = () => ({})): Params | null => {
  if (!list.length) return null;
  const n = rng.pick(list);
  return { note: String(n.id), title: n.title, ...extra(n) };
};
/** A word of the title a person would search for (the longest one). */
const searchTerm = (title: string) => title.split(/[^A-Za-z]+/).reduce((a, b) => (b.length > a.length ? b : a), '').toLowerCase();
const liveWith = (s: NotesState, f: (n: Note) => boolean) => s.notes.some((n) => !n.deleted && f(n));

export const NOTES_TEMPLATES = [
  defineTemplate<NotesState>({
    id: 'notes.pin',
    ...base,
    sample: (rng, s) => pickNote(rng, active(s), (n) => ({ state: n.pinned ? 'unpin' : 'pin' })),
    phrasings: [
      (p) => `${p.state === 'pin' ? 'Pin' : 'Unpin'} the note "${p.title}"`,
      (p) => (p.state === 'pin' ? `Keep "${p.title}" at the top of my notes` : `"${p.title}" no longer needs to stay at the top; unpin it`),
      (p) => `In Jotter, ${p.state} ${p.title}`,
    ],
    goal: (p, s) => note(s, p)?.pinned === (p.state === 'pin'),
    plan: (p) => [{ do: 'click', id: `pin-${p.note}` }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.archive',
    ...base,
    sample: (rng, s) => pickNote(rng, active(s)),
    phrasings: [(p) => `Archive the note "${p.title}"`, (p) => `Move ${p.title} out of my notes into the archive`, (p) => `I'm done with "${p.title}", archive it`],
    goal: (p, s) => note(s, p)?.archived === true && note(s, p)?.deleted === false,
    plan: (p) => [open(p), { do: 'click', id: 'more' }, { do: 'click', id: 'menu.archive' }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.unarchive',
    ...base,
    sample: (rng, s) => pickNote(rng, archivedNotes(s)),
    phrasings: [(p) => `Restore the archived note "${p.title}"`, (p) => `Bring "${p.title}" back from the archive`, (p) => `Unarchive ${p.title}`],
    goal: (p, s) => note(s, p)?.archived === false && note(s, p)?.deleted === false,
    plan: (p) => [{ do: 'click', id: 'tabs.2' }, open(p), { do: 'click', id: 'more' }, { do: 'click', id: 'menu.archive' }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.delete',
    ...base,
    sample: (rng, s) => pickNote(rng, active(s)),
    phrasings: [(p) => `Delete the note "${p.title}"`, (p) => `Get rid of my ${p.title} note for good`, (p) => `Remove "${p.title}" and confirm the deletion`],
    goal: (p, s) => note(s, p)?.deleted === true,
    plan: (p) => [open(p), { do: 'click', id: 'more' }, { do: 'click', id: 'menu.delete' }, { do: 'click', id: 'confirm.ok' }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.colour',
    ...base,
    sample: (rng, s) => pickNote(rng, active(s), (n) => ({ colour: rng.pick(NOTE_COLOURS.slice(1).filter((c) => c !== n.colour)) })),
    phrasings: [(p) => `Give the note "${p.title}" a ${p.colour.toLowerCase()} label`, (p) => `Colour ${p.title} ${p.colour.toLowerCase()}`, (p) => `Set the colour of "${p.title}" to ${p.colour}`],
    goal: (p, s) => note(s, p)?.colour === p.colour,
    plan: (p) => [open(p), { do: 'select', id: 'colour', option: p.colour }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.move',
    ...base,
    sample: (rng, s) => {
      const list = active(s);
      if (!list.length) return null;
      const n = rng.pick(list);
      const folders = s.folders.filter((f) => f !== n.folder);
      return { note: String(n.id), title: n.title, folder: rng.pick(folders) };
    },
    phrasings: [(p) => `Move the note "${p.title}" to the ${p.folder} folder`, (p) => `File ${p.title} under ${p.folder}`, (p) => `Put "${p.title}" in my ${p.folder} folder`],
    goal: (p, s) => note(s, p)?.folder === p.folder,
    plan: (p) => [open(p), { do: 'select', id: 'folder', option: p.folder }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.rename',
    ...base,
    sample: (rng, s) => {
      const used = new Set(s.notes.map((n) => n.title));
      return pickNote(rng, active(s), () => ({ name: rng.pick(NOTE_TITLES.filter((t) => !used.has(t))) }));
    },
    phrasings: [(p) => `Rename the note "${p.title}" to "${p.name}"`, (p) => `Change the title of ${p.title} to ${p.name}`, (p) => `Call my "${p.title}" note "${p.name}" instead`],
    goal: (p, s) => note(s, p)?.title === p.name,
    plan: (p) => [open(p), { do: 'type', id: 'title', text: p.name }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.rewrite',
    ...base,
    sample: (rng, s) => pickNote(rng, active(s), (n) => ({ text: rng.pick(NOTE_SENTENCES.filter((t) => t !== n.body)) })),
    phrasings: [(p) => `Replace the text of "${p.title}" with "${p.text}"`, (p) => `Make the note ${p.title} say: ${p.text}`],
    goal: (p, s) => note(s, p)?.body === p.text,
    plan: (p) => [open(p), { do: 'type', id: 'body', text: p.text }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.check',
    ...base,
    sample: (rng, s) => {
      const pairs = active(s).flatMap((n) => n.items.map((it) => ({ n, it })));
      if (!pairs.length) return null;
      const { n, it } = rng.pick(pairs);
      return { note: String(n.id), title: n.title, item: String(it.id), text: it.text, state: it.done ? 'uncheck' : 'check' };
    },
    phrasings: [
      (p) => (p.state === 'check' ? `Tick off "${p.text}" on the ${p.title} list` : `Untick "${p.text}" on the ${p.title} list`),
      (p) => (p.state === 'check' ? `Mark ${p.text} as done in "${p.title}"` : `Mark ${p.text} as not done in "${p.title}"`),
      (p) => `${p.state === 'check' ? 'Check' : 'Uncheck'} the item ${p.text} in my note ${p.title}`,
    ],
    goal: (p, s) => note(s, p)?.items.find((it) => it.id === Number(p.item))?.done === (p.state === 'check'),
    plan: (p) => [open(p), { do: 'click', id: `item-${p.item}` }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.add-item',
    ...base,
    sample: (rng, s) =>
      pickNote(rng, active(s), (n) => ({ text: rng.pick(CHECK_ITEMS.filter((c) => !n.items.some((it) => it.text === c))) })),
    phrasings: [(p) => `Add "${p.text}" to the checklist in "${p.title}"`, (p) => `Put ${p.text} on my ${p.title} list`, (p) => `In the note ${p.title}, add a checklist item "${p.text}"`],
    goal: (p, s) => note(s, p)?.items.some((it) => it.text === p.text) === true,
    plan: (p) => [open(p), { do: 'type', id: 'new-item', text: p.text }, { do: 'click', id: 'add-item' }],
  }),
  defineTemplate<NotesState>({
    id: 'notes.create',
    ...base,
    sample: (rng, s) => {
      const used = new Set(s.notes.map((n) => n.title));
      return { title: rng.pick(NOTE_TITLES.filter((t) => !used.has(t))), text: rng.pick(NOTE_SENTENCES), colour: rng.pick(NOTE_COLOURS.slice(1)) };
    },
    phrasings: [
      (p) => `Write a new note "${p.title}" that says "${p.text}" with a ${p.colour.toLowerCase()} label`,
      (p) => `Create a ${p.colour.toLowerCase()} note titled ${p.title}: ${p.text}`,
      (p) => `Jot down "${p.text}" in a new note called "${p.title}", coloured ${p.colour}`,
    ],
    goal: (p, s) => liveWith(s, (n) => n.title === p.title && n.body === p.text && n.colour === p.colour),
    plan: (p) => [
      { do: 'click', id: 'new-note' },
      { do: 'type', id: 'new-title', text: p.title },
      { do: 'type', id: 'new-body', text: p.text },
      { do: 'select', id: 'new-colour', option: p.colour },
      { do: 'click', id: 'save' },
    ],
  }),
  defineTemplate<NotesState>({
    id: 'notes.create-in-folder',
    ...base,
    sample: (rng, s) => {
      const used = new Set(s.notes.map((n) => n.title));
      return { title: rng.pick(NOTE_TITLES.filter((t) => !used.has(t))), folder: rng.pick(s.folders) };
    },
    phrasings: [(p) => `Start a new note "${p.title}" in the ${p.folder} folder`, (p) => `Create an empty note called ${p.title} and file it under ${p.folder}`],
    goal: (p, s) => liveWith(s, (n) => n.title === p.title && n.folder === p.folder),
    plan: (p) => [
      { do: 'click', id: 'new-note' },
      { do: 'type', id: 'new-title', text: p.title },
      { do: 'select', id: 'new-folder', option: p.folder },
      { do: 'click', id: 'save' },
    ],
  }),
  defineTemplate<NotesState>({
    id: 'notes.search',
    ...base,
    sample: (rng, s) => pickNote(rng, active(s), (n) => ({ term: searchTerm(n.title) })),
    phrasings: [(p) => `Search my notes for "${p.term}" and open ${p.title}`, (p) => `Use the search to find "${p.title}" and open it`, (p) => `Look up ${p.term} in Jotter, then open the note "${p.title}"`],
    goal: (p, s) => s.page === 'note' && s.openId === Number(p.note) && s.query.trim().toLowerCase() === p.term,
    plan: (p) => [{ do: 'type', id: 'search', text: p.term }, open(p)],
  }),
  defineTemplate<NotesState>({
    id: 'notes.folder-open',
    ...base,
    sample: (rng, s) => {
      const list = active(s).filter((n) => n.folder);
      if (!list.length) return null;
      const n = rng.pick(list);
      return { note: String(n.id), title: n.title, folder: n.folder, index: String(s.folders.indexOf(n.folder)) };
    },
    phrasings: [(p) => `Go to the ${p.folder} folder and open "${p.title}"`, (p) => `Open ${p.title} from my ${p.folder} folder`],
    goal: (p, s) => s.page === 'note' && s.openId === Number(p.note) && s.returnTo === 'folder' && s.folder === p.folder,
    plan: (p) => [{ do: 'click', id: 'tabs.1' }, { do: 'click', id: `folder-${p.index}` }, open(p)],
  }),
];
