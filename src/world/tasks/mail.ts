/** Task templates for the web mail site. */
import type { Random } from '../../learn/random';
import { ME, SORTS, inView, type Mail, type MailState } from '../apps/mail';
import { SHORT_MESSAGES, SUBJECTS } from '../data/subjects';
import { defineTemplate, onOff, type Params } from './template';

const base = { appId: 'mail', platform: 'web', domain: 'mail' } as const;
const byId = (s: MailState, id: string): Mail | undefined => s.mails.find((m) => m.id === Number(id));
const inbox = (s: MailState) => s.mails.filter((m) => inView(m, 'inbox'));
const pickMail = (rng: Random, list: Mail[]): Params | null => {
  if (!list.length) return null;
  const m = rng.pick(list);
  return { mail: String(m.id), sender: m.from, subject: m.subject };
};
const sentMatch = (s: MailState, to: string, subject: string, body: string) =>
  s.mails.some((m) => m.folder === 'sent' && m.to === to && m.subject === subject && m.body === body);

export const MAIL_TEMPLATES = [
  defineTemplate<MailState>({
    id: 'mail.open',
    ...base,
    sample: (rng, s) => pickMail(rng, inbox(s)),
    phrasings: [(p) => `Open the email from ${p.sender}`, (p) => `Read the message about "${p.subject}"`, (p) => `Show me ${p.sender}'s mail about ${p.subject}`],
    goal: (p, s) => s.page === 'message' && s.openId === Number(p.mail),
    plan: (p) => [{ do: 'click', id: `mail-${p.mail}` }],
  }),
  defineTemplate<MailState>({
    id: 'mail.star',
    ...base,
    sample: (rng, s) => pickMail(rng, inbox(s).filter((m) => !m.starred)),
    phrasings: [(p) => `Star the email from ${p.sender}`, (p) => `Mark "${p.subject}" with a star`, (p) => `Add a star to ${p.sender}'s message`],
    goal: (p, s) => byId(s, p.mail)?.starred === true,
    plan: (p) => [{ do: 'click', id: `star-${p.mail}` }],
  }),
  defineTemplate<MailState>({
    id: 'mail.delete',
    ...base,
    sample: (rng, s) => pickMail(rng, inbox(s)),
    phrasings: [(p) => `Delete the email from ${p.sender}`, (p) => `Move "${p.subject}" to the trash`, (p) => `Get rid of ${p.sender}'s message about ${p.subject}`],
    goal: (p, s) => byId(s, p.mail)?.folder === 'trash',
    plan: (p) => [{ do: 'click', id: `mail-${p.mail}` }, { do: 'click', id: 'delete' }],
  }),
  defineTemplate<MailState>({
    id: 'mail.archive',
    ...base,
    sample: (rng, s) => pickMail(rng, inbox(s)),
    phrasings: [(p) => `Archive the email from ${p.sender}`, (p) => `Move "${p.subject}" to the archive`, (p) => `File away ${p.sender}'s message`],
    goal: (p, s) => byId(s, p.mail)?.folder === 'archive',
    plan: (p) => [{ do: 'click', id: `mail-${p.mail}` }, { do: 'click', id: 'archive' }],
  }),
  defineTemplate<MailState>({
    id: 'mail.compose',
    ...base,
    sample: (rng, s) => {
      const m = rng.pick(s.mails);
      return { to: m.address, subject: rng.pick(SUBJECTS), body: rng.pick(SHORT_MESSAGES) };
    },
    phrasings: [
      (p) => `Send an email to ${p.to} with subject "${p.subject}" saying "${p.body}"`,
      (p) => `Write to ${p.to} about ${p.subject}: ${p.body}`,
      (p) => `Email ${p.to} the message "${p.body}" under the subject "${p.subject}"`,
    ],
    goal: (p, s) => sentMatch(s, p.to, p.subject, p.body),
    plan: (p) => [
      { do: 'click', id: 'compose' },
      { do: 'type', id: 'to', text: p.to },
      { do: 'type', id: 'subject', text: p.subject },
      { do: 'type', id: 'body', text: p.body },
      { do: 'click', id: 'send' },
    ],
  }),
  defineTemplate<MailState>({
    id: 'mail.reply',
    ...base,
    sample: (rng, s) => {
      const m = rng.pick(inbox(s));
      return { mail: String(m.id), sender: m.from, address: m.address, subject: m.subject, body: rng.pick(SHORT_MESSAGES) };
    },
    phrasings: [(p) => `Reply "${p.body}" to ${p.sender}'s email`, (p) => `Answer the mail about ${p.subject} with "${p.body}"`, (p) => `Tell ${p.sender} "${p.body}" in a reply`],
    goal: (p, s) => sentMatch(s, p.address, `Re: ${p.subject}`, p.body),
    plan: (p) => [
      { do: 'click', id: `mail-${p.mail}` },
      { do: 'click', id: 'reply' },
      { do: 'type', id: 'body', text: p.body },
      { do: 'click', id: 'send' },
    ],
  }),
  defineTemplate<MailState>({
    id: 'mail.search',
    ...base,
    sample: (rng, s) => {
      const m = rng.pick(inbox(s));
      return { mail: String(m.id), sender: m.from, subject: m.subject, term: m.from.split(' ')[1] };
    },
    phrasings: [(p) => `Search for "${p.term}" and open the email about ${p.subject}`, (p) => `Use search to find ${p.sender}'s mail and open it`, (p) => `Look up ${p.term} in the mail search, then read "${p.subject}"`],
    goal: (p, s) => s.page === 'message' && s.openId === Number(p.mail) && s.query.trim().toLowerCase() === p.term.toLowerCase(),
    plan: (p) => [{ do: 'type', id: 'search', text: p.term }, { do: 'click', id: `mail-${p.mail}` }],
  }),
  defineTemplate<MailState>({
    id: 'mail.unread',
    ...base,
    sample: (rng, s) => pickMail(rng, inbox(s).filter((m) => m.read)),
    phrasings: [(p) => `Mark the email from ${p.sender} as unread`, (p) => `Flag "${p.subject}" as not read yet`, (p) => `Make ${p.sender}'s message unread again`],
    goal: (p, s) => byId(s, p.mail)?.read === false,
    plan: (p) => [{ do: 'click', id: `mail-${p.mail}` }, { do: 'click', id: 'more' }, { do: 'click', id: 'menu.unread' }],
  }),
  defineTemplate<MailState>({
    id: 'mail.notifications',
    ...base,
    sample: (_rng, s) => ({ state: onOff(!s.settings.notifications) }),
    phrasings: [(p) => `Turn ${p.state} mail notifications`, (p) => `In the mail settings, switch notifications ${p.state}`, (p) => `I want notifications ${p.state}; save it in settings`],
    goal: (p, s) => s.settings.notifications === (p.state === 'on'),
    plan: () => [{ do: 'click', id: 'settings' }, { do: 'click', id: 'set.notify' }, { do: 'click', id: 'set.save' }],
  }),
  defineTemplate<MailState>({
    id: 'mail.sort',
    ...base,
    sample: (rng, s) => ({ sort: rng.pick(SORTS.filter((o) => o !== s.settings.sort)) }),
    phrasings: [(p) => `Sort the inbox by ${p.sort.toLowerCase()}`, (p) => `Change the mail sort order to ${p.sort}`, (p) => `Set "Sort by" to ${p.sort} in settings`],
    goal: (p, s) => s.settings.sort === p.sort,
    plan: (p) => [{ do: 'click', id: 'settings' }, { do: 'select', id: 'set.sort', option: p.sort }, { do: 'click', id: 'set.save' }],
  }),
  defineTemplate<MailState>({
    id: 'mail.snippets',
    ...base,
    sample: (_rng, s) => ({ state: s.settings.snippets ? 'hide' : 'show' }),
    phrasings: [(p) => `${p.state === 'show' ? 'Show' : 'Hide'} message snippets in the list`, (p) => `Turn ${p.state === 'show' ? 'on' : 'off'} "Show snippets" and save`],
    goal: (p, s) => s.settings.snippets === (p.state === 'show'),
    plan: () => [{ do: 'click', id: 'settings' }, { do: 'click', id: 'set.snippets' }, { do: 'click', id: 'set.save' }],
  }),
  defineTemplate<MailState>({
    id: 'mail.open-archived',
    ...base,
    sample: (rng, s) => pickMail(rng, s.mails.filter((m) => inView(m, 'archive'))),
    phrasings: [(p) => `Open the archived email from ${p.sender}`, (p) => `Find "${p.subject}" in the archive and open it`],
    goal: (p, s) => s.page === 'message' && s.openId === Number(p.mail),
    plan: (p) => [{ do: 'click', id: ['folder.archive', 'folders.2'] }, { do: 'click', id: `mail-${p.mail}` }],
  }),
];

export { ME };
