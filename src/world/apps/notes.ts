/**
 * A phone notes app, "Jotter": a searchable list of notes with pin buttons,
 * tabs for folders and the archive, a note editor (title, text, colour label,
 * folder, checklist), a pin/archive/delete menu with a delete confirmation,
 * and a form for new notes.
 */
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { CHECK_ITEMS, NOTE_COLOURS, NOTE_FOLDERS, NOTE_SENTENCES, NOTE_TITLES } from '../data/mediaNotes';

export interface ChecklistItem {
  id: number;
  text: string;
  done: boolean;
}

export interface Note {
  id: number;
  title: string;
  body: string;
  pinned: boolean;
  archived: boolean;
  deleted: boolean;
  colour: string; // one of NOTE_COLOURS
  folder: string; // '' when in no folder
  items: ChecklistItem[];
}

export type NotesTab = 'notes' | 'folders' | 'archive';
export const NOTES_TABS: readonly NotesTab[] = ['notes', 'folders', 'archive'];

export interface NoteDraft {
  title: string;
  body: string;
  colour: string;
  folder: string;
}

export interface NotesState {
  notes: Note[];
  folders: string[];
  tab: NotesTab;
  page: 'list' | 'folder' | 'note' | 'new';
  folder: string; // the folder the folder page shows
  openId: number | null;
  returnTo: 'list' | 'folder'; // where the editor's back goes
  query: string;
  menu: boolean;
  confirm: boolean; // delete confirmation open
  draft: NoteDraft;
  newItem: string; // the editor's "new checklist item" field
  nextId: number;
  nextItemId: number;
}

export interface NotesVariant extends AppVariant {
  newNote: 'nav' | 'footer'; // where the "new note" control sits
  snippets: boolean; // list rows show the note text instead of label and folder
  checklistCard: boolean;
  words: {
    title: string;
    tabs: [string, string, string];
    colour: string;
    save: string;
    delete: string;
    newNote: string;
    note: string;
    archive: string;
    unarchive: string;
    pin: string;
  };
}

const NO_FOLDER = 'None';
const folderName = (f: string) => f || NO_FOLDER;
const emptyDraft = (): NoteDraft => ({ title: '', body: '', colour: 'None', folder: '' });

export const noteById = (s: NotesState, id: number): Note | undefined => s.notes.find((n) => n.id === id);
const live = (n: Note) => !n.deleted && !n.archived;

export function noteMatches(n: Note, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || `${n.title} ${n.body}`.toLowerCase().includes(q);
}

/** Pinned notes first, then newest first: the order the Notes tab shows. */
export function listedNotes(s: NotesState): Note[] {
  return s.notes.filter((n) => live(n) && noteMatches(n, s.query)).sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.id - a.id);
}

export const archivedNotes = (s: NotesState): Note[] => s.notes.filter((n) => n.archived && !n.deleted).sort((a, b) => b.id - a.id);
export const notesInFolder = (s: NotesState, folder: string): Note[] => s.notes.filter((n) => live(n) && n.folder === folder).sort((a, b) => b.id - a.id);

const patch = (s: NotesState, id: number, p: Partial<Note>): NotesState => ({ ...s, notes: s.notes.map((n) => (n.id === id ? { ...n, ...p } : n)) });
const leaveNote: Update<NotesState> = (s) => ({ ...s, page: s.returnTo, openId: null, menu: false, confirm: false });
const openNote = (id: number, from: 'list' | 'folder'): Update<NotesState> => (s) => ({ ...s, page: 'note', openId: id, returnTo: from, newItem: '', menu: false });

function noteRow(n: Note, v: NotesVariant, from: 'list' | 'folder'): Widget<NotesState> {
  const items = n.items.length ? `${n.items.filter((it) => it.done).length}/${n.items.length} done` : '';
  const tags = [n.colour !== 'None' ? n.colour : '', n.folder, items].filter(Boolean).join(' · ');
  // No leading icon: titles need the width next to the pin button.
  return {
    kind: 'list-item',
    id: `note-${n.id}`,
    text: n.title,
    secondary: v.snippets ? n.body : tags || 'No label',
    strong: n.pinned,
    onClick: openNote(n.id, from),
    trailing: [
      {
        kind: 'icon-button',
        id: `pin-${n.id}`,
        icon: 'bookmark',
        color: n.pinned ? 'orange' : undefined,
        selected: n.pinned,
        purpose: n.pinned ? 'unpin the note' : 'pin the note',
        onClick: (s) => patch(s, n.id, { pinned: !n.pinned }),
      },
    ],
  };
}

const empty = (text: string): Widget<NotesState> => ({ kind: 'text', text, tone: 'muted' });

function listBody(s: NotesState, v: NotesVariant): Widget<NotesState>[] {
  const body: Widget<NotesState>[] = [
    {
      kind: 'tabs',
      id: 'tabs',
      tabs: [...v.words.tabs],
      value: v.words.tabs[NOTES_TABS.indexOf(s.tab)],
      onSelect: (st, t) => ({ ...st, tab: NOTES_TABS[v.words.tabs.indexOf(t)] }),
    },
  ];
  if (s.tab === 'notes') {
    const search: Widget<NotesState> = { kind: 'search-box', id: 'search', label: 'Search notes', value: s.query, grow: true, onType: (st, q) => ({ ...st, query: q }) };
    body.push(s.query ? { kind: 'row', children: [search, { kind: 'link', id: 'clear-search', text: 'Clear', purpose: 'clear the search', onClick: (st) => ({ ...st, query: '' }) }] } : search);
    const rows = listedNotes(s).map((n) => noteRow(n, v, 'list'));
    body.push(...(rows.length ? rows : [empty('No notes found')]));
  } else if (s.tab === 'folders') {
    body.push(
      ...s.folders.map(
        (f, i): Widget<NotesState> => ({
          kind: 'list-item',
          id: `folder-${i}`,
          text: f,
          secondary: `${notesInFolder(s, f).length} notes`,
          icon: 'folder',
          onClick: (st) => ({ ...st, page: 'folder', folder: f }),
        }),
      ),
    );
  } else {
    const rows = archivedNotes(s).map((n) => noteRow(n, v, 'list'));
    body.push(...(rows.length ? rows : [empty('Nothing archived')]));
  }
  return body;
}

const startNew: Update<NotesState> = (s) => ({ ...s, page: 'new', draft: emptyDraft() });

function listView(s: NotesState, v: NotesVariant): View<NotesState> {
  const addIcon: Widget<NotesState> = { kind: 'icon-button', id: 'new-note', icon: 'note-plus', purpose: 'write a new note', onClick: startNew };
  return {
    screenId: `list-${s.tab}`,
    title: v.words.title,
    nav: { title: v.words.title, actions: v.newNote === 'nav' ? [addIcon] : [] },
    body: listBody(s, v),
    footer: v.newNote === 'footer' ? [{ kind: 'button', id: 'new-note', text: v.words.newNote, primary: true, grow: true, purpose: 'write a new note', onClick: startNew }] : undefined,
  };
}

function folderView(s: NotesState, v: NotesVariant): View<NotesState> {
  const rows = notesInFolder(s, s.folder).map((n) => noteRow(n, v, 'folder'));
  return {
    screenId: 'folder',
    title: s.folder,
    nav: { title: s.folder, onBack: (st) => ({ ...st, page: 'list', tab: 'folders' }) },
    body: rows.length ? rows : [empty('This folder is empty')],
  };
}

function noteMenu(n: Note, v: NotesVariant): View<NotesState>['overlay'] {
  return {
    kind: 'menu',
    id: 'note-menu',
    anchor: 'more',
    items: [
      { id: 'menu.pin', text: n.pinned ? 'Unpin' : v.words.pin, icon: 'bookmark', onClick: (st) => ({ ...patch(st, n.id, { pinned: !n.pinned }), menu: false }) },
      { id: 'menu.archive', text: n.archived ? v.words.unarchive : v.words.archive, icon: 'archive', onClick: (st) => leaveNote(patch(st, n.id, { archived: !n.archived })) },
      { id: 'menu.delete', text: v.words.delete, icon: 'delete', onClick: (st) => ({ ...st, menu: false, confirm: true }) },
    ],
    onDismiss: (st) => ({ ...st, menu: false }),
  };
}

function deleteDialog(n: Note, v: NotesVariant): View<NotesState>['overlay'] {
  const close: Update<NotesState> = (st) => ({ ...st, confirm: false });
  return {
    kind: 'dialog',
    id: 'confirm',
    title: `${v.words.delete} note?`,
    body: [{ kind: 'text', text: `"${n.title}" will be deleted.`, wrap: true }],
    actions: [
      { kind: 'button', id: 'confirm.cancel', text: 'Cancel', onClick: close },
      { kind: 'button', id: 'confirm.ok', text: v.words.delete, color: 'red', purpose: 'delete the note', onClick: (st) => leaveNote(patch(st, n.id, { deleted: true })) },
    ],
    onDismiss: close,
  };
}

function checklist(s: NotesState, n: Note, v: NotesVariant): Widget<NotesState>[] {
  const items: Widget<NotesState>[] = n.items.map((it) => ({
    kind: 'checkbox',
    id: `item-${it.id}`,
    text: it.text,
    checked: it.done,
    onToggle: (st) => patch(st, n.id, { items: n.items.map((x) => (x.id === it.id ? { ...x, done: !x.done } : x)) }),
  }));
  const add: Update<NotesState> = (st) => {
    const text = st.newItem.trim();
    if (!text) return st;
    return { ...patch(st, n.id, { items: [...n.items, { id: st.nextItemId, text, done: false }] }), newItem: '', nextItemId: st.nextItemId + 1 };
  };
  const children: Widget<NotesState>[] = [
    { kind: 'text', text: 'Checklist', tone: 'strong' },
    ...items,
    {
      kind: 'row',
      children: [
        { kind: 'text-field', id: 'new-item', label: 'New item', value: s.newItem, onType: (st, t) => ({ ...st, newItem: t }) },
        { kind: 'button', id: 'add-item', text: 'Add', purpose: 'add the item to the checklist', onClick: add },
      ],
    },
  ];
  return v.checklistCard ? [{ kind: 'card', id: 'checklist', children }] : children;
}

function noteView(s: NotesState, n: Note, v: NotesVariant): View<NotesState> {
  const set = (p: Partial<Note>): Update<NotesState> => (st) => patch(st, n.id, p);
  return {
    screenId: 'note',
    title: n.title,
    nav: {
      title: v.words.note,
      onBack: leaveNote,
      actions: [
        { kind: 'icon-button', id: 'pin', icon: 'bookmark', color: n.pinned ? 'orange' : undefined, selected: n.pinned, purpose: n.pinned ? 'unpin the note' : 'pin the note', onClick: set({ pinned: !n.pinned }) },
        { kind: 'icon-button', id: 'more', icon: 'more', purpose: 'more actions', onClick: (st) => ({ ...st, menu: true }) },
      ],
    },
    body: [
      { kind: 'text-field', id: 'title', label: 'Title', value: n.title, onType: (st, t) => patch(st, n.id, { title: t }) },
      { kind: 'text-field', id: 'body', label: 'Text', value: n.body, multiline: true, onType: (st, t) => patch(st, n.id, { body: t }) },
      { kind: 'dropdown', id: 'colour', label: v.words.colour, options: [...NOTE_COLOURS], value: n.colour, onSelect: (st, o) => patch(st, n.id, { colour: o }) },
      { kind: 'dropdown', id: 'folder', label: 'Folder', options: [NO_FOLDER, ...s.folders], value: folderName(n.folder), onSelect: (st, o) => patch(st, n.id, { folder: o === NO_FOLDER ? '' : o }) },
      ...checklist(s, n, v),
    ],
    overlay: s.confirm ? deleteDialog(n, v) : s.menu ? noteMenu(n, v) : undefined,
  };
}

function newView(s: NotesState, v: NotesVariant): View<NotesState> {
  const draft = (p: Partial<NoteDraft>): Update<NotesState> => (st) => ({ ...st, draft: { ...st.draft, ...p } });
  const save: Update<NotesState> = (st) => {
    const d = st.draft;
    if (!d.title.trim()) return st;
    const note: Note = { id: st.nextId, title: d.title.trim(), body: d.body, pinned: false, archived: false, deleted: false, colour: d.colour, folder: d.folder, items: [] };
    return { ...st, notes: [...st.notes, note], nextId: st.nextId + 1, page: 'list', tab: 'notes', query: '', draft: emptyDraft() };
  };
  return {
    screenId: 'new',
    title: v.words.newNote,
    nav: { title: v.words.newNote, onBack: (st) => ({ ...st, page: 'list', draft: emptyDraft() }) },
    body: [
      { kind: 'text-field', id: 'new-title', label: 'Title', value: s.draft.title, onType: (st, t) => draft({ title: t })(st) },
      { kind: 'text-field', id: 'new-body', label: 'Text', value: s.draft.body, multiline: true, onType: (st, t) => draft({ body: t })(st) },
      { kind: 'dropdown', id: 'new-colour', label: v.words.colour, options: [...NOTE_COLOURS], value: s.draft.colour, onSelect: (st, o) => draft({ colour: o })(st) },
      { kind: 'dropdown', id: 'new-folder', label: 'Folder', options: [NO_FOLDER, ...s.folders], value: folderName(s.draft.folder), onSelect: (st, o) => draft({ folder: o === NO_FOLDER ? '' : o })(st) },
      { kind: 'row', justify: 'end', children: [{ kind: 'button', id: 'save', text: v.words.save, primary: true, purpose: 'save the note', onClick: save }] },
    ],
  };
}

export const NOTES_APP = defineApp<NotesState, NotesVariant>({
  id: 'notes',
  name: 'Jotter',
  icon: 'note',
  domain: 'notes',
  platform: 'mobile',
  variants: [
    {
      theme: { mode: 'light', accent: 'orange', font: 'Inter', density: 'comfortable', corner: 8 },
      labels: 'above',
      newNote: 'nav',
      snippets: false,
      checklistCard: false,
      words: { title: 'Jotter', tabs: ['Notes', 'Folders', 'Archive'], colour: 'Colour', save: 'Save', delete: 'Delete', newNote: 'New note', note: 'Note', archive: 'Archive', unarchive: 'Unarchive', pin: 'Pin' },
    },
    {
      theme: { mode: 'dark', accent: 'teal', font: 'Roboto Slab', density: 'compact', corner: 4 },
      labels: 'left',
      newNote: 'footer',
      snippets: true,
      checklistCard: true,
      words: { title: 'Jotter', tabs: ['All', 'Folders', 'Hidden'], colour: 'Label', save: 'Done', delete: 'Remove', newNote: 'Add note', note: 'Edit note', archive: 'Hide', unarchive: 'Restore', pin: 'Pin to top' },
    },
    {
      theme: { mode: 'light', accent: 'purple', font: 'Noto Sans', density: 'comfortable', corner: 12 },
      labels: 'left',
      newNote: 'nav',
      snippets: true,
      checklistCard: false,
      words: { title: 'My notes', tabs: ['Notes', 'Folders', 'Archive'], colour: 'Colour', save: 'Save note', delete: 'Delete', newNote: 'Write', note: 'Note', archive: 'Archive', unarchive: 'Move back', pin: 'Pin' },
    },
  ],
  init(rng) {
    const folders = rng.shuffle(NOTE_FOLDERS).slice(0, rng.int(3, 5));
    const titles = rng.shuffle(NOTE_TITLES);
    const pool = rng.shuffle(CHECK_ITEMS);
    const count = rng.int(9, 14);
    const archived = rng.int(1, 3);
    const notes: Note[] = [];
    let itemId = 1;
    for (let i = 0; i < count; i++) {
      const items: ChecklistItem[] = [];
      // Two notes right after the archived ones always carry a checklist, so every seed has items to tick.
      if (i === archived || i === archived + 1 || rng.chance(0.4)) {
        for (let k = rng.int(2, 4); k > 0 && pool.length; k--) items.push({ id: itemId++, text: pool.pop()!, done: rng.chance(0.3) });
      }
      notes.push({
        id: i + 1,
        title: titles[i],
        body: `${rng.pick(NOTE_SENTENCES)} ${rng.pick(NOTE_SENTENCES)}`,
        pinned: i >= archived && rng.chance(0.2),
        archived: i < archived,
        deleted: false,
        colour: rng.chance(0.5) ? 'None' : rng.pick(NOTE_COLOURS.slice(1)),
        folder: rng.chance(0.8) ? rng.pick(folders) : '',
        items,
      });
    }
    return {
      notes,
      folders,
      tab: 'notes',
      page: 'list',
      folder: '',
      openId: null,
      returnTo: 'list',
      query: '',
      menu: false,
      confirm: false,
      draft: emptyDraft(),
      newItem: '',
      nextId: count + 1,
      nextItemId: itemId,
    };
  },
  view(s, v) {
    const open = s.page === 'note' && s.openId !== null ? noteById(s, s.openId) : undefined;
    if (open) return noteView(s, open, v);
    if (s.page === 'new') return newView(s, v);
    if (s.page === 'folder') return folderView(s, v);
    return listView(s, v);
  },
});
