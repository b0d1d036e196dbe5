/** Task templates for the phone contacts app ("People"). */
import type { Random } from '../../learn/random';
import { PHONE_LABELS, SORT_KEYS, fullName, listedContacts, type Contact, type ContactsState } from '../apps/contacts';
import { PIM_AREAS, PIM_FIRST_NAMES, PIM_LAST_NAMES, PIM_MAIL_DOMAINS, PIM_TEXTS } from '../data/pimPeople';
import { defineTemplate, type Intent, type Params } from './template';

const base = { appId: 'contacts', platform: 'mobile', domain: 'contacts' } as const;
const byId = (s: ContactsState, id: string): Contact | undefined => s.contacts.find((c) => c.id === Number(id));
const who = (c: Contact): Params => ({ contact: String(c.id), name: fullName(c), first: c.first });
const pickContact = (rng: Random, list: Contact[]): Params | null => (list.length ? who(rng.pick(list)) : null);
const newPhone = (rng: Random) => `${rng.pick(PIM_AREAS)}-${rng.int(1000, 9999)}`;

/**
 * Contacts this far down the list are reached through search rather than by
 * scrolling, so that long tasks stay within ten steps.
 */
const SCROLL_REACH = 8;

/** Intents that open contact `p.contact` from the list as it starts. */
function openPlan(p: Params, s: ContactsState): Intent[] {
  const index = listedContacts(s).findIndex((c) => c.id === Number(p.contact));
  const click: Intent = { do: 'click', id: `contact-${p.contact}` };
  return index < SCROLL_REACH ? [click] : [{ do: 'type', id: 'search', text: p.name }, click];
}

/** Open the contact, open its edit form (by the pencil or the menu), change things, save. */
function editPlan(p: Params, s: ContactsState, change: Intent[], viaMenu = false): Intent[] {
  const edit: Intent[] = viaMenu ? [{ do: 'click', id: 'more' }, { do: 'click', id: 'menu.edit' }] : [{ do: 'click', id: 'edit' }];
  return [...openPlan(p, s), ...edit, ...change, { do: 'click', id: 'save' }];
}

export const CONTACTS_TEMPLATES = [
  defineTemplate<ContactsState>({
    id: 'contacts.open',
    ...base,
    sample: (rng, s) => pickContact(rng, s.contacts),
    phrasings: [(p) => `Open ${p.name}'s contact card`, (p) => `Show me the details for ${p.name}`, (p) => `Look up ${p.name} in my contacts`],
    goal: (p, s) => s.page === 'contact' && s.openId === Number(p.contact),
    plan: (p, s) => openPlan(p, s),
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.call',
    ...base,
    sample: (rng, s) => pickContact(rng, s.contacts),
    phrasings: [(p) => `Call ${p.name}`, (p) => `Give ${p.name} a ring`, (p) => `Phone ${p.first} (${p.name}) from my contacts`],
    goal: (p, s) => s.calls.includes(Number(p.contact)),
    plan: (p, s) => [...openPlan(p, s), { do: 'click', id: 'call' }],
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.favourite',
    ...base,
    sample: (rng, s) => {
      const c = rng.pick(s.contacts);
      return { ...who(c), state: c.favourite ? 'remove' : 'add' };
    },
    phrasings: [
      (p) => (p.state === 'add' ? `Add ${p.name} to my favourites` : `Remove ${p.name} from my favourites`),
      (p) => (p.state === 'add' ? `Star ${p.name} as a favourite contact` : `Unstar ${p.name}`),
      (p) => (p.state === 'add' ? `Make ${p.first} one of my favourites` : `${p.name} should no longer be a favourite`),
    ],
    goal: (p, s) => byId(s, p.contact)?.favourite === (p.state === 'add'),
    // Favourites are quickest to find on their own tab.
    plan: (p, s) =>
      p.state === 'remove'
        ? [{ do: 'click', id: 'tabs.1' }, { do: 'click', id: `contact-${p.contact}` }, { do: 'click', id: 'favourite' }]
        : [...openPlan(p, s), { do: 'click', id: 'favourite' }],
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.message',
    ...base,
    sample: (rng, s) => {
      const p = pickContact(rng, s.contacts);
      return p && { ...p, text: rng.pick(PIM_TEXTS) };
    },
    phrasings: [(p) => `Text ${p.name} "${p.text}"`, (p) => `Send ${p.first} a message saying ${p.text}`, (p) => `Message ${p.name}: ${p.text}`],
    goal: (p, s) => s.sent.some((m) => m.to === Number(p.contact) && m.text === p.text),
    plan: (p, s) => [...openPlan(p, s), { do: 'click', id: 'message' }, { do: 'type', id: 'message-text', text: p.text }, { do: 'click', id: 'send' }],
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.phone',
    ...base,
    sample: (rng, s) => {
      const c = rng.pick(s.contacts);
      let phone = newPhone(rng);
      while (phone === c.phone) phone = newPhone(rng);
      return { ...who(c), phone };
    },
    phrasings: [(p) => `Change ${p.name}'s phone number to ${p.phone}`, (p) => `${p.first} has a new number, ${p.phone}; update the contact`, (p) => `Update the phone of ${p.name} to ${p.phone}`],
    goal: (p, s) => byId(s, p.contact)?.phone === p.phone,
    plan: (p, s) => editPlan(p, s, [{ do: 'type', id: 'phone', text: p.phone }]),
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.email',
    ...base,
    sample: (rng, s) => {
      const c = rng.pick(s.contacts);
      const email = `${c.first.toLowerCase()}${rng.int(1, 99)}@${rng.pick(PIM_MAIL_DOMAINS)}`;
      return { ...who(c), email };
    },
    phrasings: [(p) => `Set ${p.name}'s email to ${p.email}`, (p) => `Change the email address of ${p.name} to ${p.email}`, (p) => `${p.first} now uses ${p.email}; save that on the contact`],
    goal: (p, s) => byId(s, p.contact)?.email === p.email,
    plan: (p, s) => editPlan(p, s, [{ do: 'type', id: 'email', text: p.email }]),
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.label',
    ...base,
    sample: (rng, s) => {
      const c = rng.pick(s.contacts);
      return { ...who(c), label: rng.pick(PHONE_LABELS.filter((l) => l !== c.label)) };
    },
    phrasings: [(p) => `Mark ${p.name}'s number as ${p.label}`, (p) => `File ${p.first}'s phone under ${p.label}`, (p) => `Change the label of ${p.name}'s number to ${p.label}`],
    goal: (p, s) => byId(s, p.contact)?.label === p.label,
    plan: (p, s) => editPlan(p, s, [{ do: 'select', id: 'phone-label', option: p.label }], true),
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.rename',
    ...base,
    sample: (rng, s) => {
      const c = rng.pick(s.contacts);
      const last = rng.pick(PIM_LAST_NAMES.filter((l) => l !== c.last));
      if (s.contacts.some((x) => x.first === c.first && x.last === last)) return null;
      return { ...who(c), last };
    },
    phrasings: [
      (p) => `${p.name} changed their surname to ${p.last}; update the contact`,
      (p) => `Rename ${p.name} to ${p.first} ${p.last}`,
      (p) => `Change ${p.first}'s last name to ${p.last}`,
    ],
    goal: (p, s) => {
      const c = byId(s, p.contact);
      return c?.last === p.last && c.first === p.first;
    },
    plan: (p, s) => editPlan(p, s, [{ do: 'type', id: 'last', text: p.last }]),
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.add',
    ...base,
    sample: (rng, s) => {
      const first = rng.pick(PIM_FIRST_NAMES.filter((f) => !s.contacts.some((c) => c.first === f)));
      const last = rng.pick(PIM_LAST_NAMES);
      const p: Params = { first, last, phone: newPhone(rng), label: rng.pick(PHONE_LABELS) };
      if (rng.chance(0.5)) p.email = `${first}.${last}@${rng.pick(PIM_MAIL_DOMAINS)}`.toLowerCase();
      return p;
    },
    phrasings: [
      (p) => `Add ${p.first} ${p.last} to my contacts with the ${p.label.toLowerCase()} number ${p.phone}${p.email ? ` and email ${p.email}` : ''}`,
      (p) => `Save a new contact: ${p.first} ${p.last}, ${p.phone} (${p.label})${p.email ? `, ${p.email}` : ''}`,
      (p) => `Create a contact for ${p.first} ${p.last}; number ${p.phone}, labelled ${p.label}${p.email ? `, email ${p.email}` : ''}`,
    ],
    goal: (p, s) => s.contacts.some((c) => c.first === p.first && c.last === p.last && c.phone === p.phone && c.label === p.label && (!p.email || c.email === p.email)),
    plan: (p) => [
      { do: 'click', id: 'add' },
      { do: 'type', id: 'first', text: p.first },
      { do: 'type', id: 'last', text: p.last },
      { do: 'type', id: 'phone', text: p.phone },
      { do: 'select', id: 'phone-label', option: p.label },
      ...(p.email ? [{ do: 'type', id: 'email', text: p.email } as const] : []),
      { do: 'click', id: 'save' },
    ],
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.delete',
    ...base,
    sample: (rng, s) => pickContact(rng, s.contacts),
    phrasings: [(p) => `Delete ${p.name} from my contacts`, (p) => `Remove the contact ${p.name}`, (p) => `I no longer need ${p.name}'s number; delete the contact`],
    goal: (p, s) => !byId(s, p.contact),
    plan: (p, s) => [...openPlan(p, s), { do: 'click', id: 'more' }, { do: 'click', id: 'menu.delete' }, { do: 'click', id: 'confirm.ok' }],
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.sort',
    ...base,
    sample: (_rng, s) => ({ sort: SORT_KEYS.find((k) => k !== s.prefs.sort)! }),
    phrasings: [(p) => `Sort my contacts by ${p.sort.toLowerCase()}`, (p) => `List people by ${p.sort.toLowerCase()} instead`, (p) => `Change the contact order to ${p.sort}`],
    goal: (p, s) => s.prefs.sort === p.sort,
    plan: (p) => [{ do: 'click', id: 'sort' }, { do: 'click', id: `sort-by.${SORT_KEYS.indexOf(p.sort as (typeof SORT_KEYS)[number])}` }, { do: 'click', id: 'prefs.apply' }],
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.numbers',
    ...base,
    sample: (_rng, s) => ({ state: s.prefs.showPhone ? 'hide' : 'show' }),
    phrasings: [(p) => `${p.state === 'show' ? 'Show' : 'Hide'} phone numbers in the contact list`, (p) => `I ${p.state === 'show' ? 'want' : "don't want"} to see numbers under the names`],
    goal: (p, s) => s.prefs.showPhone === (p.state === 'show'),
    plan: () => [{ do: 'click', id: 'sort' }, { do: 'click', id: 'show-phone' }, { do: 'click', id: 'prefs.apply' }],
  }),
  defineTemplate<ContactsState>({
    id: 'contacts.search',
    ...base,
    sample: (rng, s) => {
      const c = rng.pick(s.contacts);
      return { ...who(c), term: c.last };
    },
    phrasings: [(p) => `Search for "${p.term}" and open ${p.name}`, (p) => `Use the search box to find ${p.name} and open the card`, (p) => `Look up ${p.term} in search, then open ${p.first}'s contact`],
    goal: (p, s) => s.page === 'contact' && s.openId === Number(p.contact) && s.query.trim().toLowerCase() === p.term.toLowerCase(),
    plan: (p) => [{ do: 'type', id: 'search', text: p.term }, { do: 'click', id: `contact-${p.contact}` }],
  }),
];
