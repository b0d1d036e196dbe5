/** Task templates for the Boxfile cloud drive. */
import type { Random } from '../../learn/random';
import { FILE_SORTS, ROOT, type DriveFile, type FilesState } from '../apps/files';
import { FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS } from '../data/names';
import { FILE_EXTS, FILE_STEMS, FILE_TAGS, SHARE_ROLES, SUB_FOLDERS, TOP_FOLDERS } from '../data/newsfilesDrive';
import { defineTemplate, onOff, type Intent, type Params } from './template';

const base = { appId: 'files', platform: 'web', domain: 'files' } as const;
const fileById = (s: FilesState, id: string): DriveFile | undefined => s.files.find((f) => f.id === Number(id));
const live = (s: FilesState) => s.files.filter((f) => !f.trashed);

/** Where a folder is, in words a person would use; the drive's root has a different name per variant. */
function place(s: FilesState, id: number): string {
  if (id === ROOT) return 'the top level of the drive';
  const f = s.folders.find((x) => x.id === id)!;
  if (f.parent === ROOT) return `the ${f.name} folder`;
  return `${f.name} inside ${s.folders.find((x) => x.id === f.parent)!.name}`;
}

/** Clicks from the root (where every task starts) into folder `id`. */
function openFolder(s: FilesState, id: number): Intent[] {
  if (id === ROOT) return [];
  const f = s.folders.find((x) => x.id === id)!;
  if (f.parent === ROOT) return [{ do: 'click', id: `folder-${f.id}` }];
  return [...openFolder(s, f.parent), { do: 'click', id: `dir-${f.id}` }];
}

const fileParams = (s: FilesState, f: DriveFile): Params => ({ file: String(f.id), name: f.name, folder: String(f.folder), place: place(s, f.folder) });
const pickFile = (rng: Random, s: FilesState, list: DriveFile[]): Params | null => (list.length ? fileParams(s, rng.pick(list)) : null);

function newFileName(rng: Random, s: FilesState, ext?: string): string {
  for (;;) {
    const name = `${rng.pick(FILE_STEMS)}-${rng.pick(FILE_TAGS)}.${ext ?? rng.pick(FILE_EXTS)}`;
    if (!s.files.some((f) => f.name === name)) return name;
  }
}

const email = (rng: Random) => `${rng.pick(FIRST_NAMES)}.${rng.pick(LAST_NAMES)}@${rng.pick(MAIL_DOMAINS)}`.toLowerCase();
/** Folders (root included) holding at least `n` files that are not in the trash. */
const foldersWith = (s: FilesState, n: number) => [ROOT, ...s.folders.map((f) => f.id)].filter((id) => live(s).filter((f) => f.folder === id).length >= n);

export const FILES_TEMPLATES = [
  defineTemplate<FilesState>({
    id: 'files.open-folder',
    ...base,
    sample: (rng, s) => {
      const f = rng.pick(s.folders);
      return { folder: String(f.id), name: f.name, place: place(s, f.id) };
    },
    phrasings: [(p) => `Open ${p.place}`, (p) => `Go to the folder ${p.name}`, (p) => `Show me what is in ${p.place}`],
    goal: (p, s) => s.current === Number(p.folder) && !s.query.trim(),
    plan: (p, s) => openFolder(s, Number(p.folder)),
  }),
  defineTemplate<FilesState>({
    id: 'files.rename',
    ...base,
    sample: (rng, s) => {
      const p = pickFile(rng, s, live(s));
      return p && { ...p, newName: newFileName(rng, s, p.name.split('.').pop()) };
    },
    phrasings: [
      (p) => `Rename ${p.name} to ${p.newName}`,
      (p) => `Change the name of the file ${p.name} in ${p.place} to "${p.newName}"`,
      (p) => `Call the file ${p.name} "${p.newName}" from now on`,
    ],
    goal: (p, s) => fileById(s, p.file)?.name === p.newName,
    plan: (p, s) => [
      ...openFolder(s, Number(p.folder)),
      { do: 'click', id: `more-${p.file}` },
      { do: 'click', id: 'menu.rename' },
      { do: 'type', id: 'rename-field', text: p.newName },
      { do: 'click', id: 'rename-save' },
    ],
  }),
  defineTemplate<FilesState>({
    id: 'files.delete-two',
    ...base,
    sample: (rng, s) => {
      const folders = foldersWith(s, 2);
      if (!folders.length) return null;
      const folder = rng.pick(folders);
      const [a, b] = rng.shuffle(live(s).filter((f) => f.folder === folder)).slice(0, 2);
      return { folder: String(folder), place: place(s, folder), file: String(a.id), name: a.name, file2: String(b.id), name2: b.name };
    },
    phrasings: [
      (p) => `Delete ${p.name} and ${p.name2} from ${p.place}`,
      (p) => `Move the files ${p.name} and ${p.name2} to the trash`,
      (p) => `Select ${p.name} and ${p.name2} in ${p.place} and throw them away`,
    ],
    goal: (p, s) => fileById(s, p.file)?.trashed === true && fileById(s, p.file2)?.trashed === true,
    plan: (p, s) => [
      ...openFolder(s, Number(p.folder)),
      { do: 'click', id: `check-${p.file}` },
      { do: 'click', id: `check-${p.file2}` },
      { do: 'click', id: 'tb-delete' },
      { do: 'click', id: 'confirm-delete' },
    ],
  }),
  defineTemplate<FilesState>({
    id: 'files.clear-folder',
    ...base,
    sample: (rng, s) => {
      const folders = foldersWith(s, 2).filter((id) => id !== ROOT);
      if (!folders.length) return null;
      const folder = rng.pick(folders);
      return { folder: String(folder), name: s.folders.find((f) => f.id === folder)!.name, place: place(s, folder) };
    },
    phrasings: [(p) => `Delete every file in ${p.place}`, (p) => `Empty the ${p.name} folder by moving all its files to the trash`, (p) => `Select all files in ${p.place} and delete them`],
    goal: (p, s) => {
      const inside = s.files.filter((f) => f.folder === Number(p.folder));
      return inside.length > 0 && inside.every((f) => f.trashed);
    },
    plan: (p, s) => [...openFolder(s, Number(p.folder)), { do: 'click', id: 'select-all' }, { do: 'click', id: 'tb-delete' }, { do: 'click', id: 'confirm-delete' }],
  }),
  defineTemplate<FilesState>({
    id: 'files.share',
    ...base,
    sample: (rng, s) => {
      const p = pickFile(rng, s, live(s));
      return p && { ...p, email: email(rng), role: rng.pick(SHARE_ROLES), notify: onOff(rng.chance(0.6)) };
    },
    phrasings: [
      (p) => `Share ${p.name} with ${p.email} as ${p.role.toLowerCase()}${p.notify === 'off' ? ' without notifying them' : ''}`,
      (p) => `Give ${p.email} ${p.role} access to ${p.name} in ${p.place}, notifications ${p.notify}`,
      (p) => `Let ${p.email} ${p.role === 'Viewer' ? 'view' : p.role === 'Editor' ? 'edit' : 'comment on'} ${p.name}${p.notify === 'off' ? ', and do not send them a notice' : ' and tell them about it'}`,
    ],
    goal: (p, s) => !!fileById(s, p.file)?.shares.some((x) => x.email === p.email && x.role === p.role && x.notify === (p.notify === 'on')),
    plan: (p, s) => {
      // Through the file's own menu: the toolbar can sit far from a file deep in a long list.
      const steps: Intent[] = [...openFolder(s, Number(p.folder)), { do: 'click', id: `more-${p.file}` }, { do: 'click', id: 'menu.share' }, { do: 'type', id: 'share-email', text: p.email }];
      if (p.role !== 'Viewer') steps.push({ do: 'select', id: 'share-role', option: p.role });
      if (p.notify === 'off') steps.push({ do: 'click', id: 'share-notify' });
      steps.push({ do: 'click', id: 'share-send' });
      return steps;
    },
  }),
  defineTemplate<FilesState>({
    id: 'files.share-pair',
    ...base,
    sample: (rng, s) => {
      // Top-level folders only, so the walk stays short even when the list scrolls.
      const folders = foldersWith(s, 2).filter((id) => id === ROOT || s.folders.some((f) => f.id === id && f.parent === ROOT));
      if (!folders.length) return null;
      const folder = rng.pick(folders);
      const [a, b] = rng.shuffle(live(s).filter((f) => f.folder === folder)).slice(0, 2);
      return { folder: String(folder), place: place(s, folder), file: String(a.id), name: a.name, file2: String(b.id), name2: b.name, email: email(rng) };
    },
    phrasings: [
      (p) => `Share ${p.name} and ${p.name2} with ${p.email} so they can view them`,
      (p) => `Select ${p.name} and ${p.name2} in ${p.place} and invite ${p.email} as a viewer`,
      (p) => `Let ${p.email} see both ${p.name} and ${p.name2}`,
    ],
    goal: (p, s) => [p.file, p.file2].every((id) => !!fileById(s, id)?.shares.some((x) => x.email === p.email && x.role === 'Viewer')),
    plan: (p, s) => [
      ...openFolder(s, Number(p.folder)),
      { do: 'click', id: `check-${p.file}` },
      { do: 'click', id: `check-${p.file2}` },
      { do: 'click', id: 'tb-share' },
      { do: 'type', id: 'share-email', text: p.email },
      { do: 'click', id: 'share-send' },
    ],
  }),
  defineTemplate<FilesState>({
    id: 'files.download',
    ...base,
    sample: (rng, s) => {
      const p = pickFile(rng, s, live(s));
      return p && { ...p, term: p.name.split('.')[0] };
    },
    phrasings: [
      (p) => `Search for "${p.term}" and download ${p.name}`,
      (p) => `Find the file ${p.name} with the search box and download it`,
      (p) => `Look up ${p.term} in my drive and save ${p.name} to this computer`,
    ],
    goal: (p, s) => (fileById(s, p.file)?.downloads ?? 0) > 0,
    plan: (p) => [{ do: 'type', id: 'search', text: p.term }, { do: 'click', id: `check-${p.file}` }, { do: 'click', id: 'tb-download' }],
  }),
  defineTemplate<FilesState>({
    id: 'files.star',
    ...base,
    sample: (rng, s) => pickFile(rng, s, live(s).filter((f) => !f.starred)),
    phrasings: [(p) => `Star the file ${p.name}`, (p) => `Mark ${p.name} in ${p.place} as starred`, (p) => `Add a star to ${p.name} so I can find it fast`],
    goal: (p, s) => fileById(s, p.file)?.starred === true,
    plan: (p, s) => [...openFolder(s, Number(p.folder)), { do: 'click', id: `more-${p.file}` }, { do: 'click', id: 'menu.star' }],
  }),
  defineTemplate<FilesState>({
    id: 'files.restore',
    ...base,
    sample: (rng, s) => pickFile(rng, s, s.files.filter((f) => f.trashed)),
    phrasings: [(p) => `Restore ${p.name} from the trash`, (p) => `I deleted ${p.name} by mistake; bring it back`, (p) => `Get ${p.name} out of the trash and back into ${p.place}`],
    goal: (p, s) => fileById(s, p.file)?.trashed === false,
    plan: (p) => [{ do: 'click', id: 'folder-trash' }, { do: 'click', id: `more-${p.file}` }, { do: 'click', id: 'menu.restore' }],
  }),
  defineTemplate<FilesState>({
    id: 'files.upload',
    ...base,
    sample: (rng, s) => {
      const folder = rng.pick([ROOT, ...s.folders.map((f) => f.id)]);
      return { folder: String(folder), place: place(s, folder), name: newFileName(rng, s) };
    },
    phrasings: [(p) => `Upload ${p.name} to ${p.place}`, (p) => `Put a file called ${p.name} in ${p.place}`, (p) => `Add the file "${p.name}" to ${p.place}`],
    goal: (p, s) => s.files.some((f) => f.name === p.name && f.folder === Number(p.folder) && !f.trashed),
    plan: (p, s) => [...openFolder(s, Number(p.folder)), { do: 'click', id: 'tb-upload' }, { do: 'type', id: 'upload-name', text: p.name }, { do: 'click', id: 'upload-ok' }],
  }),
  defineTemplate<FilesState>({
    id: 'files.new-folder',
    ...base,
    sample: (rng, s) => {
      const parent = rng.pick([ROOT, ...s.folders.filter((f) => f.parent === ROOT).map((f) => f.id)]);
      const taken = new Set(s.folders.filter((f) => f.parent === parent).map((f) => f.name));
      let name = '';
      do name = `${rng.pick(TOP_FOLDERS)} ${rng.pick(SUB_FOLDERS)}`;
      while (taken.has(name));
      return { parent: String(parent), place: place(s, parent), name };
    },
    phrasings: [(p) => `Create a folder named "${p.name}" in ${p.place}`, (p) => `Make a new folder ${p.name} inside ${p.place}`, (p) => `Add a folder called ${p.name} to ${p.place}`],
    goal: (p, s) => s.folders.some((f) => f.name === p.name && f.parent === Number(p.parent)),
    plan: (p, s) => [...openFolder(s, Number(p.parent)), { do: 'click', id: 'new-folder' }, { do: 'type', id: 'folder-name', text: p.name }, { do: 'click', id: 'folder-create' }],
  }),
  defineTemplate<FilesState>({
    id: 'files.sort',
    ...base,
    sample: (rng, s) => ({ sort: rng.pick(FILE_SORTS.filter((o) => o !== s.sort)) }),
    phrasings: [
      (p) => `Sort my files by ${p.sort.toLowerCase()}`,
      (p) => `Order the file list by ${p.sort === 'Size' ? 'size, largest first' : p.sort === 'Modified' ? 'date modified, newest first' : 'name'}`,
      (p) => `Set "Sort" to ${p.sort}`,
    ],
    goal: (p, s) => s.sort === p.sort,
    plan: (p) => [{ do: 'select', id: 'sort', option: p.sort }],
  }),
];
