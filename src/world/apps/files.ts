/**
 * Boxfile, a web cloud drive: a folder tree of links, a file list with
 * checkboxes and a sort dropdown, toolbar icon buttons acting on the
 * selection (upload, download, delete, share), a per-file context menu,
 * search, a trash, and dialogs to rename, share, upload and add folders.
 */
import type { Random } from '../../learn/random';
import { defineApp, type AppVariant, type MenuOverlay, type Update, type View, type Widget } from '../app';
import { FILE_EXTS, FILE_STEMS, FILE_TAGS, SHARE_ROLES, SUB_FOLDERS, TOP_FOLDERS, type ShareRole } from '../data/newsfilesDrive';

export const ROOT = 0;
export const TRASH = -1;
export const FILE_SORTS = ['Name', 'Size', 'Modified'] as const;
export type FileSort = (typeof FILE_SORTS)[number];

export interface DriveFolder {
  id: number;
  name: string;
  parent: number; // ROOT for top-level folders
}

export interface FileShare {
  email: string;
  role: ShareRole;
  notify: boolean;
}

export interface DriveFile {
  id: number;
  name: string;
  folder: number;
  kb: number;
  day: number; // day of the year it was last modified
  starred: boolean;
  trashed: boolean;
  downloads: number;
  shares: FileShare[];
}

export type FilesDialog = 'none' | 'rename' | 'share' | 'upload' | 'delete' | 'folder';

export interface FilesState {
  folders: DriveFolder[];
  files: DriveFile[];
  current: number; // a folder id, ROOT or TRASH
  selected: number[]; // file ids
  query: string;
  sort: FileSort;
  menuFor: number | null; // file whose context menu is open
  dialog: FilesDialog;
  target: number | null; // file being renamed
  draft: { name: string; email: string; role: ShareRole; notify: boolean };
  nextId: number; // shared by new files and folders
}

export interface FilesVariant extends AppVariant {
  toolbar: 'nav' | 'body';
  words: { root: string; trash: string; rename: string; share: string; newFolder: string; upload: string; remove: string; save: string };
}

const EMPTY_DRAFT: FilesState['draft'] = { name: '', email: '', role: 'Viewer', notify: true };

export function folderName(s: FilesState, id: number, v: FilesVariant): string {
  if (id === ROOT) return v.words.root;
  if (id === TRASH) return v.words.trash;
  return s.folders.find((f) => f.id === id)?.name ?? '';
}

/** The files the list shows: search results, the trash, or the current folder's files, sorted. */
export function listedFiles(s: FilesState): DriveFile[] {
  const q = s.query.trim().toLowerCase();
  const list = q
    ? s.files.filter((f) => !f.trashed && f.name.toLowerCase().includes(q))
    : s.files.filter((f) => (s.current === TRASH ? f.trashed : !f.trashed && f.folder === s.current));
  if (s.sort === 'Size') return list.sort((a, b) => b.kb - a.kb || a.id - b.id);
  if (s.sort === 'Modified') return list.sort((a, b) => b.day - a.day || a.id - b.id);
  return list.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

const size = (kb: number) => (kb >= 1000 ? `${(kb / 1000).toFixed(1)} MB` : `${kb} KB`);
const patchFiles = (s: FilesState, ids: number[], f: (x: DriveFile) => DriveFile): FilesState => ({
  ...s,
  files: s.files.map((x) => (ids.includes(x.id) ? f(x) : x)),
});
const goTo = (id: number): Update<FilesState> => (s) => ({ ...s, current: id, selected: [], query: '', menuFor: null });
const close: Update<FilesState> = (s) => ({ ...s, dialog: 'none', target: null });

/** Side links: root, top-level folders (with the open branch's subfolders under theirs), trash; capped so the column fits. */
function tree(s: FilesState, v: FilesVariant): Widget<FilesState>[] {
  const maxLinks = v.theme.density === 'compact' ? 8 : 7;
  const tops = s.folders.filter((f) => f.parent === ROOT).slice(0, maxLinks - 2);
  const cur = s.folders.find((f) => f.id === s.current);
  const branch = cur && cur.parent !== ROOT ? cur.parent : cur?.id;
  const subs = s.folders.filter((f) => f.parent === branch && branch !== undefined);
  const room = maxLinks - 2 - tops.length;
  const link = (f: DriveFolder, sub: boolean): Widget<FilesState> => ({
    kind: 'link',
    id: `folder-${f.id}`,
    text: sub ? `› ${f.name}` : f.name,
    selected: !s.query && s.current === f.id,
    onClick: goTo(f.id),
  });
  const out: Widget<FilesState>[] = [{ kind: 'link', id: 'folder-root', text: v.words.root, selected: !s.query && s.current === ROOT, onClick: goTo(ROOT) }];
  for (const t of tops) {
    out.push(link(t, false));
    if (t.id === branch && subs.length <= room) out.push(...subs.map((f) => link(f, true)));
  }
  out.push({ kind: 'link', id: 'folder-trash', text: v.words.trash, selected: !s.query && s.current === TRASH, onClick: goTo(TRASH) });
  return out;
}

function toolbar(s: FilesState): Widget<FilesState>[] {
  const some = s.selected.length > 0;
  const open = (dialog: FilesDialog, ok: boolean): Update<FilesState> => (st) => (ok ? { ...st, dialog, draft: EMPTY_DRAFT } : st);
  const canUpload = s.current !== TRASH && !s.query.trim();
  return [
    { kind: 'icon-button', id: 'tb-upload', icon: 'upload', purpose: 'upload a file', onClick: open('upload', canUpload) },
    {
      kind: 'icon-button',
      id: 'tb-download',
      icon: 'download',
      purpose: 'download the selected files',
      onClick: (st) => (some ? { ...patchFiles(st, st.selected, (f) => ({ ...f, downloads: f.downloads + 1 })), selected: [] } : st),
    },
    { kind: 'icon-button', id: 'tb-delete', icon: 'delete', color: 'red', purpose: 'delete the selected files', onClick: open('delete', some) },
    { kind: 'icon-button', id: 'tb-share', icon: 'share', purpose: 'share the selected files', onClick: open('share', some && s.current !== TRASH) },
  ];
}

function fileRow(s: FilesState, f: DriveFile): Widget<FilesState> {
  const on = s.selected.includes(f.id);
  const cells: Widget<FilesState>[] = [
    { kind: 'checkbox', id: `check-${f.id}`, text: f.name, checked: on, onToggle: (st) => ({ ...st, selected: on ? st.selected.filter((x) => x !== f.id) : [...st.selected, f.id] }) },
  ];
  if (f.starred) cells.push({ kind: 'image', id: `starred-${f.id}`, icon: 'star' });
  cells.push(
    { kind: 'text', text: size(f.kb), tone: 'muted', grow: true },
    { kind: 'icon-button', id: `more-${f.id}`, icon: 'more', purpose: 'more file actions', onClick: (st) => ({ ...st, menuFor: f.id }) },
  );
  return { kind: 'row', children: cells };
}

function body(s: FilesState, v: FilesVariant): Widget<FilesState>[] {
  const out: Widget<FilesState>[] = [];
  if (v.toolbar === 'body') out.push({ kind: 'row', children: toolbar(s) });
  const searching = s.query.trim() !== '';
  out.push({ kind: 'text', text: searching ? `Results for "${s.query.trim()}"` : folderName(s, s.current, v), tone: 'strong' });
  const sort: Widget<FilesState> = { kind: 'dropdown', id: 'sort', label: 'Sort', options: [...FILE_SORTS], value: s.sort, onSelect: (st, o) => ({ ...st, sort: o as FileSort }) };
  const canCreate = s.current !== TRASH && !searching;
  const newFolder: Widget<FilesState> = { kind: 'button', id: 'new-folder', text: v.words.newFolder, purpose: 'create a folder here', onClick: (st) => ({ ...st, dialog: 'folder', draft: EMPTY_DRAFT }) };
  out.push({ kind: 'row', children: canCreate ? [newFolder, sort] : [sort] });
  if (canCreate) {
    for (const d of s.folders.filter((x) => x.parent === s.current)) {
      const n = s.files.filter((f) => f.folder === d.id && !f.trashed).length;
      out.push({ kind: 'list-item', id: `dir-${d.id}`, text: d.name, secondary: `Folder · ${n} files`, icon: 'folder', onClick: goTo(d.id) });
    }
  }
  const files = listedFiles(s);
  if (files.length) {
    const all = files.every((f) => s.selected.includes(f.id));
    const ids = files.map((f) => f.id);
    out.push({ kind: 'checkbox', id: 'select-all', text: 'Select all', checked: all, onToggle: (st) => ({ ...st, selected: all ? [] : ids }) });
    out.push(...files.map((f) => fileRow(s, f)));
  } else {
    out.push({ kind: 'text', text: s.current === TRASH ? 'Nothing in here' : 'No files', tone: 'muted' });
  }
  return out;
}

function menu(s: FilesState, f: DriveFile, v: FilesVariant): View<FilesState>['overlay'] {
  const done = (g: (x: DriveFile) => DriveFile): Update<FilesState> => (st) => ({ ...patchFiles(st, [f.id], g), menuFor: null, selected: st.selected.filter((id) => id !== f.id) });
  const items: MenuOverlay<FilesState>['items'] = f.trashed
    ? [
        { id: 'menu.restore', text: 'Restore', icon: 'refresh', onClick: done((x) => ({ ...x, trashed: false })) },
        { id: 'menu.purge', text: 'Delete forever', icon: 'delete', onClick: (st) => ({ ...st, files: st.files.filter((x) => x.id !== f.id), menuFor: null, selected: [] }) },
      ]
    : [
        { id: 'menu.rename', text: v.words.rename, icon: 'edit', onClick: (st) => ({ ...st, menuFor: null, dialog: 'rename', target: f.id, draft: { ...EMPTY_DRAFT, name: f.name } }) },
        { id: 'menu.share', text: v.words.share, icon: 'share', onClick: (st) => ({ ...st, menuFor: null, dialog: 'share', selected: [f.id], draft: EMPTY_DRAFT }) },
        { id: 'menu.download', text: 'Download', icon: 'download', onClick: done((x) => ({ ...x, downloads: x.downloads + 1 })) },
        { id: 'menu.star', text: f.starred ? 'Remove star' : 'Add star', icon: f.starred ? 'star-outline' : 'star', onClick: done((x) => ({ ...x, starred: !x.starred })) },
        { id: 'menu.trash', text: `Move to ${v.words.trash}`, icon: 'delete', onClick: done((x) => ({ ...x, trashed: true })) },
      ];
  return { kind: 'menu', id: 'file-menu', anchor: `more-${f.id}`, items, onDismiss: (st) => ({ ...st, menuFor: null }) };
}

function dialog(s: FilesState, v: FilesVariant): View<FilesState>['overlay'] {
  const draft = (st: FilesState, p: Partial<FilesState['draft']>): FilesState => ({ ...st, draft: { ...st.draft, ...p } });
  const cancel: Widget<FilesState> = { kind: 'button', id: 'dialog-cancel', text: 'Cancel', onClick: close };
  const nameField = (id: string, label: string): Widget<FilesState> => ({ kind: 'text-field', id, label, value: s.draft.name, onType: (st, t) => draft(st, { name: t }) });
  const frame = (id: string, title: string, body: Widget<FilesState>[], ok: Widget<FilesState>) => ({ kind: 'dialog' as const, id, title, body, actions: [cancel, ok], onDismiss: close });
  switch (s.dialog) {
    case 'rename': {
      const save: Update<FilesState> = (st) => {
        const name = st.draft.name.trim();
        return name && st.target !== null ? close(patchFiles(st, [st.target], (f) => ({ ...f, name }))) : st;
      };
      return frame('rename-dialog', v.words.rename, [nameField('rename-field', 'Name')], { kind: 'button', id: 'rename-save', text: v.words.save, primary: true, onClick: save });
    }
    case 'upload': {
      const upload: Update<FilesState> = (st) => {
        const name = st.draft.name.trim();
        if (!name) return st;
        const file: DriveFile = { id: st.nextId, name, folder: st.current, kb: 40 + name.length * 37, day: 366, starred: false, trashed: false, downloads: 0, shares: [] };
        return close({ ...st, files: [...st.files, file], nextId: st.nextId + 1 });
      };
      return frame('upload-dialog', `${v.words.upload} to ${folderName(s, s.current, v)}`, [nameField('upload-name', 'File name')], { kind: 'button', id: 'upload-ok', text: v.words.upload, primary: true, onClick: upload });
    }
    case 'folder': {
      const create: Update<FilesState> = (st) => {
        const name = st.draft.name.trim();
        if (!name) return st;
        return close({ ...st, folders: [...st.folders, { id: st.nextId, name, parent: st.current }], nextId: st.nextId + 1 });
      };
      return frame('folder-dialog', v.words.newFolder, [nameField('folder-name', 'Folder name')], { kind: 'button', id: 'folder-create', text: 'Create', primary: true, onClick: create });
    }
    case 'delete': {
      const forever = s.current === TRASH;
      const n = s.selected.length;
      const confirm: Update<FilesState> = (st) =>
        close({
          ...(forever ? { ...st, files: st.files.filter((f) => !st.selected.includes(f.id)) } : patchFiles(st, st.selected, (f) => ({ ...f, trashed: true }))),
          selected: [],
        });
      const what = `${n} ${n === 1 ? 'file' : 'files'}`;
      return frame(
        'delete-dialog',
        forever ? 'Delete forever?' : `${v.words.remove} ${what}?`,
        [{ kind: 'text', text: forever ? `${what} will be gone for good.` : `${what} will move to ${v.words.trash}.`, wrap: true }],
        { kind: 'button', id: 'confirm-delete', text: v.words.remove, color: 'red', onClick: confirm },
      );
    }
    case 'share': {
      const send: Update<FilesState> = (st) => {
        const email = st.draft.email.trim();
        if (!email.includes('@')) return st;
        const share: FileShare = { email, role: st.draft.role, notify: st.draft.notify };
        return close({ ...patchFiles(st, st.selected, (f) => ({ ...f, shares: [...f.shares, share] })), selected: [] });
      };
      return frame(
        'share-dialog',
        v.words.share,
        [
          { kind: 'text-field', id: 'share-email', label: 'Email', value: s.draft.email, onType: (st, t) => draft(st, { email: t }) },
          { kind: 'dropdown', id: 'share-role', label: 'Access', options: [...SHARE_ROLES], value: s.draft.role, onSelect: (st, o) => draft(st, { role: o as ShareRole }) },
          { kind: 'switch', id: 'share-notify', text: 'Notify people', checked: s.draft.notify, onToggle: (st) => draft(st, { notify: !st.draft.notify }) },
        ],
        { kind: 'button', id: 'share-send', text: v.words.share, primary: true, onClick: send },
      );
    }
    default:
      return undefined;
  }
}

function fileName(rng: Random, taken: Set<string>): string {
  for (;;) {
    const name = `${rng.pick(FILE_STEMS)}-${rng.pick(FILE_TAGS)}.${rng.pick(FILE_EXTS)}`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

export const FILES_APP = defineApp<FilesState, FilesVariant>({
  id: 'files',
  name: 'Boxfile',
  icon: 'folder',
  domain: 'files',
  platform: 'web',
  variants: [
    {
      theme: { mode: 'light', accent: 'blue', font: 'Inter', density: 'compact', corner: 3 },
      labels: 'left',
      toolbar: 'nav',
      words: { root: 'My Drive', trash: 'Trash', rename: 'Rename', share: 'Share', newFolder: 'New folder', upload: 'Upload', remove: 'Delete', save: 'Save' },
    },
    {
      theme: { mode: 'dark', accent: 'teal', font: 'Roboto Slab', density: 'comfortable', corner: 6 },
      labels: 'above',
      toolbar: 'body',
      words: { root: 'All files', trash: 'Bin', rename: 'Change name', share: 'Invite', newFolder: 'Add folder', upload: 'Add', remove: 'Remove', save: 'OK' },
    },
    {
      theme: { mode: 'light', accent: 'orange', font: 'Noto Sans', density: 'comfortable', corner: 5 },
      labels: 'left',
      toolbar: 'nav',
      words: { root: 'Home', trash: 'Trash', rename: 'Rename', share: 'Share', newFolder: 'New folder', upload: 'Upload', remove: 'Delete', save: 'Save' },
    },
  ],
  init(rng) {
    const folders: DriveFolder[] = rng.shuffle(TOP_FOLDERS).slice(0, 3).map((name, i) => ({ id: i + 1, name, parent: ROOT }));
    for (const top of folders.slice()) {
      for (const name of rng.shuffle(SUB_FOLDERS).slice(0, rng.int(0, 2))) folders.push({ id: folders.length + 1, name, parent: top.id });
    }
    const taken = new Set<string>();
    const files: DriveFile[] = [];
    const add = (folder: number, trashed: boolean) =>
      files.push({ id: 100 + files.length, name: fileName(rng, taken), folder, kb: rng.int(4, 9800), day: rng.int(1, 365), starred: rng.chance(0.2), trashed, downloads: 0, shares: [] });
    for (let i = rng.int(1, 3); i > 0; i--) add(ROOT, false);
    for (const f of folders) for (let i = rng.int(f.parent === ROOT ? 3 : 2, f.parent === ROOT ? 5 : 4); i > 0; i--) add(f.id, false);
    for (let i = rng.int(1, 3); i > 0; i--) add(rng.pick(folders).id, true);
    return {
      folders,
      files,
      current: ROOT,
      selected: [],
      query: '',
      sort: rng.pick(FILE_SORTS),
      menuFor: null,
      dialog: 'none',
      target: null,
      draft: EMPTY_DRAFT,
      nextId: 100 + files.length,
    };
  },
  view(s, v) {
    const menuFile = s.menuFor === null ? undefined : s.files.find((f) => f.id === s.menuFor);
    const searching = s.query.trim() !== '';
    const cur = s.folders.find((f) => f.id === s.current);
    const up = cur ? cur.parent : undefined;
    return {
      screenId: searching ? 'search' : s.current === TRASH ? 'trash' : `folder-${s.current}`,
      title: searching ? 'Search' : folderName(s, s.current, v),
      nav: {
        title: 'Boxfile',
        onBack: searching ? (st) => ({ ...st, query: '' }) : up !== undefined ? goTo(up) : undefined,
        center: { kind: 'search-box', id: 'search', label: 'Search files', value: s.query, grow: true, onType: (st, q) => ({ ...st, query: q, selected: [] }) },
        actions: v.toolbar === 'nav' ? toolbar(s) : undefined,
      },
      side: tree(s, v),
      sideWidth: 52,
      body: body(s, v),
      overlay: s.dialog !== 'none' ? dialog(s, v) : menuFile ? menu(s, menuFile, v) : undefined,
    };
  },
});
