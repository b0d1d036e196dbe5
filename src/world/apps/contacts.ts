/**
 * A phone contacts app ("People"): an alphabetical list with search and a
 * favourites tab, a contact page with call / message / favourite buttons and
 * a more-menu, an edit and a new-contact form, a sort dialog, a calling
 * dialog and a delete confirm.
 */
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { PIM_AREAS, PIM_FIRST_NAMES, PIM_LAST_NAMES, PIM_MAIL_DOMAINS, PIM_PHONE_LABELS } from '../data/pimPeople';

export const PHONE_LABELS = PIM_PHONE_LABELS;
export const SORT_KEYS = ['First name', 'Last name'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface Contact {
  id: number;
  first: string;
  last: string;
  phone: string;
  email: string;
  label: string; // one of PHONE_LABELS
  favourite: boolean;
}

export type ContactDraft = Omit<Contact, 'id' | 'favourite'>;

export interface ListPrefs {
  sort: SortKey;
  showPhone: boolean;
}

export interface ContactsState {
  contacts: Contact[];
  tab: 'all' | 'favourites';
  page: 'list' | 'contact' | 'edit' | 'new' | 'message';
  openId: number | null;
  query: string;
  draft: ContactDraft;
  text: string; // the message being written
  overlay: 'none' | 'menu' | 'delete' | 'calling' | 'prefs';
  prefs: ListPrefs;
  pending: ListPrefs; // what the open sort dialog shows, kept on Apply
  calls: number[]; // ids of contacts called, in order
  sent: { to: number; text: string }[];
  nextId: number;
}

export interface ContactsVariant extends AppVariant {
  tabsAt: 'footer' | 'top';
  addAt: 'nav' | 'footer';
  words: { title: string; favourites: string; save: string; remove: string; message: string; apply: string; add: string; first: string; last: string };
}

export const fullName = (c: Pick<Contact, 'first' | 'last'>) => `${c.first} ${c.last}`;

const sortKey = (c: Contact, by: SortKey) => (by === 'Last name' ? `${c.last} ${c.first}` : `${c.first} ${c.last}`);

export function matchesQuery(c: Contact, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || `${fullName(c)} ${c.phone}`.toLowerCase().includes(q);
}

/** The contacts the list shows, in its order. */
export function listedContacts(s: ContactsState): Contact[] {
  return s.contacts
    .filter((c) => (s.tab === 'all' || c.favourite) && matchesQuery(c, s.query))
    .sort((a, b) => sortKey(a, s.prefs.sort).localeCompare(sortKey(b, s.prefs.sort)) || a.id - b.id);
}

const set = (p: Partial<ContactsState>): Update<ContactsState> => (s) => ({ ...s, ...p });
const patch = (s: ContactsState, id: number, p: Partial<Contact>): ContactsState => ({
  ...s,
  contacts: s.contacts.map((c) => (c.id === id ? { ...c, ...p } : c)),
});
const EMPTY_DRAFT: ContactDraft = { first: '', last: '', phone: '', email: '', label: 'Mobile' };
const toList = set({ page: 'list', openId: null, overlay: 'none' });
const openContact = (id: number) => set({ page: 'contact', openId: id, overlay: 'none' });

function listView(s: ContactsState, v: ContactsVariant): View<ContactsState> {
  const tabs: Widget<ContactsState> = {
    kind: 'tabs',
    id: 'tabs',
    tabs: ['All', v.words.favourites],
    value: s.tab === 'all' ? 'All' : v.words.favourites,
    onSelect: (st, t) => ({ ...st, tab: t === 'All' ? 'all' : 'favourites' }),
  };
  const body: Widget<ContactsState>[] = v.tabsAt === 'top' ? [tabs] : [];
  body.push({ kind: 'search-box', id: 'search', label: 'Search contacts', value: s.query, grow: true, onType: (st, q) => ({ ...st, query: q }) });
  const list = listedContacts(s);
  let letter = '';
  for (const c of list) {
    const initial = (s.prefs.sort === 'Last name' ? c.last : c.first)[0];
    if (initial !== letter) {
      letter = initial;
      body.push({ kind: 'text', text: initial, tone: 'muted' });
    }
    body.push({
      kind: 'list-item',
      id: `contact-${c.id}`,
      text: fullName(c),
      secondary: s.prefs.showPhone ? c.phone : undefined,
      icon: c.favourite ? 'star' : 'account',
      onClick: openContact(c.id),
    });
  }
  if (!list.length) body.push({ kind: 'text', text: s.tab === 'all' ? 'No contacts found' : `No ${v.words.favourites.toLowerCase()} yet`, tone: 'muted' });
  const newContact = set({ page: 'new', draft: EMPTY_DRAFT, overlay: 'none' });
  const footer: Widget<ContactsState>[] = [];
  if (v.tabsAt === 'footer') footer.push(tabs);
  if (v.addAt === 'footer') footer.push({ kind: 'button', id: 'add', text: v.words.add, primary: true, grow: true, purpose: 'add a new contact', onClick: newContact });
  const actions: Widget<ContactsState>[] = [
    { kind: 'icon-button', id: 'sort', icon: 'sort', purpose: 'sort the contacts', onClick: (st) => ({ ...st, overlay: 'prefs', pending: st.prefs }) },
  ];
  if (v.addAt === 'nav') actions.push({ kind: 'icon-button', id: 'add', icon: 'account-plus', purpose: 'add a new contact', onClick: newContact });
  return {
    screenId: s.tab,
    title: s.tab === 'all' ? v.words.title : v.words.favourites,
    nav: { title: v.words.title, actions },
    body,
    footer,
    overlay: s.overlay === 'prefs' ? prefsDialog(s, v) : undefined,
  };
}

function prefsDialog(s: ContactsState, v: ContactsVariant): View<ContactsState>['overlay'] {
  const pend = (p: Partial<ListPrefs>): Update<ContactsState> => (st) => ({ ...st, pending: { ...st.pending, ...p } });
  const close = set({ overlay: 'none' });
  return {
    kind: 'dialog',
    id: 'prefs-dialog',
    title: 'Sort & view',
    body: [
      { kind: 'radio-group', id: 'sort-by', label: 'Sort by', options: [...SORT_KEYS], value: s.pending.sort, onSelect: (st, o) => pend({ sort: o as SortKey })(st) },
      { kind: 'checkbox', id: 'show-phone', text: 'Show numbers', checked: s.pending.showPhone, onToggle: pend({ showPhone: !s.pending.showPhone }) },
    ],
    actions: [
      { kind: 'button', id: 'prefs.cancel', text: 'Cancel', onClick: close },
      { kind: 'button', id: 'prefs.apply', text: v.words.apply, primary: true, onClick: (st) => ({ ...st, overlay: 'none', prefs: st.pending }) },
    ],
    onDismiss: close,
  };
}

function contactView(s: ContactsState, c: Contact, v: ContactsVariant): View<ContactsState> {
  const edit = set({ page: 'edit', overlay: 'none', draft: { first: c.first, last: c.last, phone: c.phone, email: c.email, label: c.label } });
  const close = set({ overlay: 'none' });
  let overlay: View<ContactsState>['overlay'];
  if (s.overlay === 'menu') {
    overlay = {
      kind: 'menu',
      id: 'contact-menu',
      anchor: 'more',
      items: [
        { id: 'menu.edit', text: 'Edit', onClick: edit },
        { id: 'menu.share', text: 'Share', onClick: close },
        { id: 'menu.delete', text: v.words.remove, onClick: set({ overlay: 'delete' }) },
      ],
      onDismiss: close,
    };
  } else if (s.overlay === 'delete') {
    overlay = {
      kind: 'dialog',
      id: 'confirm',
      title: `${v.words.remove} ${c.first}?`,
      body: [{ kind: 'text', text: `${fullName(c)} will be removed from your contacts.`, wrap: true }],
      actions: [
        { kind: 'button', id: 'confirm.cancel', text: 'Cancel', onClick: close },
        { kind: 'button', id: 'confirm.ok', text: v.words.remove, color: 'red', onClick: (st) => toList({ ...st, contacts: st.contacts.filter((x) => x.id !== c.id) }) },
      ],
      onDismiss: close,
    };
  } else if (s.overlay === 'calling') {
    overlay = {
      kind: 'dialog',
      id: 'calling',
      title: `Calling ${c.first}`,
      body: [{ kind: 'text', text: `${c.label} ${c.phone}`, tone: 'muted' }],
      actions: [{ kind: 'button', id: 'end-call', text: 'End call', color: 'red', onClick: close }],
      onDismiss: close,
    };
  }
  return {
    screenId: 'contact',
    title: fullName(c),
    nav: {
      title: 'Contact',
      onBack: toList,
      actions: [
        { kind: 'icon-button', id: 'edit', icon: 'edit', purpose: 'edit the contact', onClick: edit },
        { kind: 'icon-button', id: 'more', icon: 'more', purpose: 'more actions', onClick: set({ overlay: 'menu' }) },
      ],
    },
    body: [
      { kind: 'row', children: [{ kind: 'image', id: 'avatar', icon: 'account', size: 22 }, { kind: 'text', text: fullName(c), heading: true, grow: true }] },
      {
        kind: 'row',
        gap: 12,
        children: [
          { kind: 'icon-button', id: 'call', icon: 'phone', color: 'green', purpose: `call ${c.first}`, onClick: (st) => ({ ...st, overlay: 'calling', calls: [...st.calls, c.id] }) },
          { kind: 'icon-button', id: 'message', icon: 'mail', purpose: `send ${c.first} a message`, onClick: set({ page: 'message', text: '', overlay: 'none' }) },
          {
            kind: 'icon-button',
            id: 'favourite',
            icon: c.favourite ? 'star' : 'star-outline',
            color: c.favourite ? 'yellow' : undefined,
            selected: c.favourite,
            purpose: c.favourite ? 'remove from favourites' : 'add to favourites',
            onClick: (st) => patch(st, c.id, { favourite: !c.favourite }),
          },
        ],
      },
      {
        kind: 'card',
        id: 'details',
        children: [
          { kind: 'text', text: c.label, tone: 'muted' },
          { kind: 'text', text: c.phone },
          { kind: 'text', text: 'Email', tone: 'muted' },
          { kind: 'text', text: c.email },
        ],
      },
    ],
    overlay,
  };
}

function formView(s: ContactsState, v: ContactsVariant): View<ContactsState> {
  const isNew = s.page === 'new';
  const draft = (p: Partial<ContactDraft>): Update<ContactsState> => (st) => ({ ...st, draft: { ...st.draft, ...p } });
  const clean = (d: ContactDraft): ContactDraft => ({ first: d.first.trim(), last: d.last.trim(), phone: d.phone.trim(), email: d.email.trim(), label: d.label });
  const save: Update<ContactsState> = (st) => {
    const d = clean(st.draft);
    if (!d.first) return st;
    if (isNew) {
      const c: Contact = { id: st.nextId, ...d, favourite: false };
      return { ...st, contacts: [...st.contacts, c], nextId: st.nextId + 1, page: 'contact', openId: c.id, draft: EMPTY_DRAFT };
    }
    return { ...patch(st, st.openId ?? -1, d), page: 'contact', draft: EMPTY_DRAFT };
  };
  const cancel = isNew ? toList : set({ page: 'contact' });
  const title = isNew ? 'New contact' : 'Edit contact';
  return {
    screenId: s.page,
    title,
    nav: { title, onBack: cancel },
    body: [
      { kind: 'text-field', id: 'first', label: v.words.first, value: s.draft.first, onType: (st, t) => draft({ first: t })(st) },
      { kind: 'text-field', id: 'last', label: v.words.last, value: s.draft.last, onType: (st, t) => draft({ last: t })(st) },
      { kind: 'text-field', id: 'phone', label: 'Phone', value: s.draft.phone, onType: (st, t) => draft({ phone: t })(st) },
      { kind: 'dropdown', id: 'phone-label', label: 'Label', options: [...PHONE_LABELS], value: s.draft.label, onSelect: (st, o) => draft({ label: o })(st) },
      { kind: 'text-field', id: 'email', label: 'Email', value: s.draft.email, onType: (st, t) => draft({ email: t })(st) },
      { kind: 'spacer', h: 2 },
      {
        kind: 'row',
        children: [
          { kind: 'button', id: 'save', text: v.words.save, primary: true, purpose: 'save the contact', onClick: save },
          { kind: 'link', id: 'cancel', text: 'Cancel', purpose: 'discard the changes', onClick: cancel },
        ],
      },
    ],
  };
}

function messageView(s: ContactsState, c: Contact, v: ContactsVariant): View<ContactsState> {
  const send: Update<ContactsState> = (st) => {
    const text = st.text.trim();
    return text ? { ...st, sent: [...st.sent, { to: c.id, text }], text: '', page: 'contact' } : st;
  };
  return {
    screenId: 'message',
    title: v.words.message,
    nav: { title: v.words.message, onBack: set({ page: 'contact', text: '' }) },
    body: [
      { kind: 'text', text: `To ${fullName(c)}`, tone: 'strong' },
      { kind: 'text', text: c.phone, tone: 'muted' },
      { kind: 'text-field', id: 'message-text', label: 'Message', value: s.text, multiline: true, onType: (st, t) => ({ ...st, text: t }) },
      { kind: 'row', justify: 'end', children: [{ kind: 'button', id: 'send', text: 'Send', primary: true, purpose: `send the message to ${c.first}`, onClick: send }] },
    ],
  };
}

export const CONTACTS_APP = defineApp<ContactsState, ContactsVariant>({
  id: 'contacts',
  name: 'People',
  icon: 'account',
  domain: 'contacts',
  platform: 'mobile',
  variants: [
    {
      theme: { mode: 'light', accent: 'blue', font: 'Inter', density: 'comfortable', corner: 8 },
      labels: 'above',
      tabsAt: 'footer',
      addAt: 'nav',
      words: { title: 'People', favourites: 'Favourites', save: 'Save', remove: 'Delete', message: 'Message', apply: 'Apply', add: 'Add contact', first: 'First name', last: 'Last name' },
    },
    {
      theme: { mode: 'dark', accent: 'green', font: 'Noto Sans', density: 'compact', corner: 4 },
      labels: 'left',
      tabsAt: 'top',
      addAt: 'footer',
      words: { title: 'Contacts', favourites: 'Starred', save: 'Done', remove: 'Remove', message: 'Text', apply: 'OK', add: 'New contact', first: 'First', last: 'Last' },
    },
    {
      theme: { mode: 'light', accent: 'pink', font: 'Roboto Slab', density: 'comfortable', corner: 12 },
      labels: 'left',
      tabsAt: 'top',
      addAt: 'nav',
      words: { title: 'People', favourites: 'Favorites', save: 'Save', remove: 'Delete', message: 'SMS', apply: 'Done', add: 'Add', first: 'Given', last: 'Family' },
    },
  ],
  init(rng) {
    const count = rng.int(12, 18);
    const firsts = rng.shuffle(PIM_FIRST_NAMES).slice(0, count);
    const contacts: Contact[] = firsts.map((first, i) => {
      const last = rng.pick(PIM_LAST_NAMES);
      return {
        id: i + 1,
        first,
        last,
        phone: `${rng.pick(PIM_AREAS)}-${rng.int(1000, 9999)}`,
        email: `${first}.${last}@${rng.pick(PIM_MAIL_DOMAINS)}`.toLowerCase(),
        label: rng.chance(0.55) ? 'Mobile' : rng.pick(PHONE_LABELS),
        favourite: rng.chance(0.25),
      };
    });
    const prefs: ListPrefs = { sort: rng.chance(0.65) ? 'First name' : 'Last name', showPhone: rng.chance(0.7) };
    return {
      contacts,
      tab: 'all',
      page: 'list',
      openId: null,
      query: '',
      draft: EMPTY_DRAFT,
      text: '',
      overlay: 'none',
      prefs,
      pending: prefs,
      calls: [],
      sent: [],
      nextId: count + 1,
    };
  },
  view(s, v) {
    const open = s.contacts.find((c) => c.id === s.openId);
    if (s.page === 'new' || (s.page === 'edit' && open)) return formView(s, v);
    if (s.page === 'message' && open) return messageView(s, open, v);
    if (s.page === 'contact' && open) return contactView(s, open, v);
    return listView(s, v);
  },
});
