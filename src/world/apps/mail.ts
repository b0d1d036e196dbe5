/**
 * A web mail site: folders, an inbox list with stars, reading a message,
 * composing and replying, search, a "more" menu and a settings dialog.
 */
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS } from '../data/names';
import { BODY_SENTENCES, SUBJECTS } from '../data/subjects';

export type MailFolder = 'inbox' | 'archive' | 'trash' | 'sent';
export type MailView = 'inbox' | 'starred' | 'archive' | 'sent';
export const SORTS = ['Newest', 'Oldest', 'Sender'] as const;
export type MailSort = (typeof SORTS)[number];

export interface Mail {
  id: number;
  from: string;
  address: string;
  to: string;
  subject: string;
  body: string;
  folder: MailFolder;
  starred: boolean;
  read: boolean;
}

export interface MailSettings {
  notifications: boolean;
  snippets: boolean;
  sort: MailSort;
}

export interface MailState {
  mails: Mail[];
  view: MailView;
  page: 'list' | 'message' | 'compose';
  openId: number | null;
  query: string;
  draft: { to: string; subject: string; body: string };
  dialog: boolean; // settings dialog open
  menu: boolean; // message "more" menu open
  settings: MailSettings;
  pending: MailSettings; // what the open dialog shows, saved on Save
  nextId: number;
}

export interface MailVariant extends AppVariant {
  folders: 'side' | 'tabs';
  words: { title: string; compose: string; send: string; notifications: string; save: string };
}

export const ME = 'me@mailbox.net';
const VIEWS: { view: MailView; text: string }[] = [
  { view: 'inbox', text: 'Inbox' },
  { view: 'starred', text: 'Starred' },
  { view: 'archive', text: 'Archive' },
  { view: 'sent', text: 'Sent' },
];

export function inView(m: Mail, view: MailView): boolean {
  return view === 'starred' ? m.starred && m.folder !== 'trash' : m.folder === view;
}

export function matches(m: Mail, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || `${m.from} ${m.subject}`.toLowerCase().includes(q);
}

export function visibleMails(s: MailState): Mail[] {
  const list = s.mails.filter((m) => inView(m, s.view) && matches(m, s.query));
  if (s.settings.sort === 'Oldest') return list.sort((a, b) => a.id - b.id);
  if (s.settings.sort === 'Sender') return list.sort((a, b) => a.from.localeCompare(b.from) || a.id - b.id);
  return list.sort((a, b) => b.id - a.id);
}

const patch = (s: MailState, id: number, p: Partial<Mail>): MailState => ({
  ...s,
  mails: s.mails.map((m) => (m.id === id ? { ...m, ...p } : m)),
});
const toList: Update<MailState> = (s) => ({ ...s, page: 'list', openId: null, menu: false });

function listView(s: MailState, v: MailVariant): View<MailState> {
  const items: Widget<MailState>[] = visibleMails(s).map((m) => ({
    kind: 'list-item',
    id: `mail-${m.id}`,
    text: m.folder === 'sent' ? `To ${m.to}` : m.from,
    secondary: s.settings.snippets ? `${m.subject} - ${m.body}` : m.subject,
    strong: !m.read,
    onClick: (st) => ({ ...patch(st, m.id, { read: true }), page: 'message', openId: m.id }),
    trailing: [
      {
        kind: 'icon-button',
        id: `star-${m.id}`,
        icon: m.starred ? 'star' : 'star-outline',
        color: m.starred ? 'yellow' : undefined,
        purpose: m.starred ? 'unstar the mail' : 'star the mail',
        onClick: (st) => patch(st, m.id, { starred: !m.starred }),
      },
    ],
  }));
  const body: Widget<MailState>[] = [];
  if (v.folders === 'tabs') {
    body.push({
      kind: 'tabs',
      id: 'folders',
      tabs: VIEWS.map((f) => f.text),
      value: VIEWS.find((f) => f.view === s.view)!.text,
      onSelect: (st, tab) => ({ ...st, view: VIEWS.find((f) => f.text === tab)!.view }),
    });
  }
  body.push(...(items.length ? items : [{ kind: 'text', text: 'No messages', tone: 'muted' } as const]));
  return {
    screenId: `list-${s.view}`,
    title: VIEWS.find((f) => f.view === s.view)!.text,
    nav: {
      title: v.words.title,
      center: { kind: 'search-box', id: 'search', label: 'Search mail', value: s.query, grow: true, onType: (st, q) => ({ ...st, query: q }) },
      actions: [
        { kind: 'button', id: 'compose', text: v.words.compose, primary: true, purpose: 'write a new mail', onClick: (st) => ({ ...st, page: 'compose', draft: { to: '', subject: '', body: '' } }) },
        { kind: 'icon-button', id: 'settings', icon: 'settings', purpose: 'open settings', onClick: (st) => ({ ...st, dialog: true, pending: st.settings }) },
      ],
    },
    side:
      v.folders === 'side'
        ? VIEWS.map((f) => ({ kind: 'link', id: `folder.${f.view}`, text: f.text, selected: f.view === s.view, onClick: (st: MailState) => ({ ...st, view: f.view }) }))
        : undefined,
    sideWidth: 38,
    body,
    overlay: s.dialog ? settingsDialog(s, v) : undefined,
  };
}

function settingsDialog(s: MailState, v: MailVariant): View<MailState>['overlay'] {
  const set = (p: Partial<MailSettings>): Update<MailState> => (st) => ({ ...st, pending: { ...st.pending, ...p } });
  return {
    kind: 'dialog',
    id: 'settings-dialog',
    title: 'Settings',
    body: [
      { kind: 'switch', id: 'set.notify', text: v.words.notifications, checked: s.pending.notifications, onToggle: set({ notifications: !s.pending.notifications }) },
      { kind: 'checkbox', id: 'set.snippets', text: 'Show snippets', checked: s.pending.snippets, onToggle: set({ snippets: !s.pending.snippets }) },
      { kind: 'dropdown', id: 'set.sort', label: 'Sort by', options: [...SORTS], value: s.pending.sort, onSelect: (st, o) => set({ sort: o as MailSort })(st) },
    ],
    actions: [
      { kind: 'button', id: 'set.cancel', text: 'Cancel', onClick: (st) => ({ ...st, dialog: false }) },
      { kind: 'button', id: 'set.save', text: v.words.save, primary: true, onClick: (st) => ({ ...st, dialog: false, settings: st.pending }) },
    ],
    onDismiss: (st) => ({ ...st, dialog: false }),
  };
}

function messageView(s: MailState, m: Mail, v: MailVariant): View<MailState> {
  const reply: Update<MailState> = (st) => ({ ...st, page: 'compose', menu: false, draft: { to: m.address, subject: `Re: ${m.subject}`, body: '' } });
  return {
    screenId: 'message',
    title: m.subject,
    nav: {
      title: v.words.title,
      onBack: toList,
      actions: [
        { kind: 'icon-button', id: 'archive', icon: 'archive', purpose: 'archive the mail', onClick: (st) => toList(patch(st, m.id, { folder: 'archive' })) },
        { kind: 'icon-button', id: 'delete', icon: 'delete', color: 'red', purpose: 'delete the mail', onClick: (st) => toList(patch(st, m.id, { folder: 'trash' })) },
        { kind: 'icon-button', id: 'star', icon: m.starred ? 'star' : 'star-outline', purpose: m.starred ? 'unstar the mail' : 'star the mail', onClick: (st) => patch(st, m.id, { starred: !m.starred }) },
        { kind: 'icon-button', id: 'more', icon: 'more', purpose: 'more actions', onClick: (st) => ({ ...st, menu: true }) },
      ],
    },
    body: [
      { kind: 'text', text: m.subject, heading: true, wrap: true },
      { kind: 'row', children: [{ kind: 'image', id: 'avatar', icon: 'account' }, { kind: 'text', text: m.from, tone: 'strong' }, { kind: 'text', text: m.address, tone: 'muted' }] },
      { kind: 'text', text: m.body, wrap: true },
      { kind: 'row', children: [{ kind: 'button', id: 'reply', text: 'Reply', onClick: reply }] },
    ],
    overlay: s.menu
      ? {
          kind: 'menu',
          id: 'message-menu',
          anchor: 'more',
          items: [
            { id: 'menu.unread', text: 'Mark as unread', onClick: (st) => toList(patch(st, m.id, { read: false })) },
            { id: 'menu.reply', text: 'Reply', onClick: reply },
            { id: 'menu.delete', text: 'Delete', onClick: (st) => toList(patch(st, m.id, { folder: 'trash' })) },
          ],
          onDismiss: (st) => ({ ...st, menu: false }),
        }
      : undefined,
  };
}

function composeView(s: MailState, v: MailVariant): View<MailState> {
  const draft = (p: Partial<MailState['draft']>): Update<MailState> => (st) => ({ ...st, draft: { ...st.draft, ...p } });
  const send: Update<MailState> = (st) => {
    if (!st.draft.to.trim()) return st;
    const sent: Mail = { id: st.nextId, from: 'Me', address: ME, to: st.draft.to.trim(), subject: st.draft.subject, body: st.draft.body, folder: 'sent', starred: false, read: true };
    return { ...st, mails: [...st.mails, sent], nextId: st.nextId + 1, page: 'list', openId: null, draft: { to: '', subject: '', body: '' } };
  };
  return {
    screenId: 'compose',
    title: v.words.compose,
    nav: { title: v.words.compose, onBack: toList },
    body: [
      { kind: 'text-field', id: 'to', label: 'To', value: s.draft.to, onType: (st, t) => draft({ to: t })(st) },
      { kind: 'text-field', id: 'subject', label: 'Subject', value: s.draft.subject, onType: (st, t) => draft({ subject: t })(st) },
      { kind: 'text-field', id: 'body', label: 'Message', value: s.draft.body, multiline: true, onType: (st, t) => draft({ body: t })(st) },
      {
        kind: 'row',
        children: [
          { kind: 'button', id: 'send', text: v.words.send, primary: true, purpose: 'send the mail', onClick: send },
          { kind: 'link', id: 'discard', text: 'Discard', purpose: 'discard the draft', onClick: toList },
        ],
      },
    ],
  };
}

export const MAIL_APP = defineApp<MailState, MailVariant>({
  id: 'mail',
  name: 'Mail',
  icon: 'mail',
  domain: 'mail',
  platform: 'web',
  variants: [
    {
      theme: { mode: 'light', accent: 'blue', font: 'Inter', density: 'compact', corner: 3 },
      labels: 'left',
      folders: 'side',
      words: { title: 'Mail', compose: 'Compose', send: 'Send', notifications: 'Notifications', save: 'Save' },
    },
    {
      theme: { mode: 'dark', accent: 'purple', font: 'Roboto Slab', density: 'comfortable', corner: 6 },
      labels: 'above',
      folders: 'tabs',
      words: { title: 'Post', compose: 'New', send: 'Submit', notifications: 'Desktop alerts', save: 'Apply' },
    },
    {
      theme: { mode: 'light', accent: 'green', font: 'Noto Sans', density: 'comfortable', corner: 5 },
      labels: 'left',
      folders: 'side',
      words: { title: 'MailBox', compose: 'Write', send: 'Send', notifications: 'Alerts', save: 'Save' },
    },
  ],
  init(rng) {
    const firsts = rng.shuffle(FIRST_NAMES);
    const subjects = rng.shuffle(SUBJECTS);
    const count = rng.int(8, 13);
    const mails: Mail[] = [];
    for (let i = 0; i < count; i++) {
      const first = firsts[i];
      const last = rng.pick(LAST_NAMES);
      const folder: MailFolder = i < 2 ? 'archive' : 'inbox';
      mails.push({
        id: i + 1,
        from: `${first} ${last}`,
        address: `${first}.${last}@${rng.pick(MAIL_DOMAINS)}`.toLowerCase(),
        to: ME,
        subject: subjects[i],
        body: `${rng.pick(BODY_SENTENCES)} ${rng.pick(BODY_SENTENCES)}`,
        folder,
        starred: rng.chance(0.25),
        read: rng.chance(0.5),
      });
    }
    const settings: MailSettings = { notifications: rng.chance(0.5), snippets: rng.chance(0.3), sort: rng.pick(SORTS) };
    return { mails, view: 'inbox', page: 'list', openId: null, query: '', draft: { to: '', subject: '', body: '' }, dialog: false, menu: false, settings, pending: settings, nextId: count + 1 };
  },
  view(s, v) {
    const open = s.page === 'message' ? s.mails.find((m) => m.id === s.openId) : undefined;
    if (open) return messageView(s, open, v);
    if (s.page === 'compose') return composeView(s, v);
    return listView(s, v);
  },
});
