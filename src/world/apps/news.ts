/**
 * Dailywire, a web news site: section tabs (or side links), an article list
 * that scrolls, article pages with bookmark and share buttons and a comment
 * thread, a saved-articles page, a newsletter signup form and a settings
 * dialog with a text-size slider and a region dropdown.
 */
import type { Random } from '../../learn/random';
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { FIRST_NAMES, LAST_NAMES } from '../data/names';
import {
  ARTICLE_SENTENCES,
  HEADLINE_PARTS,
  NEWSLETTER_FREQUENCIES,
  NEWSLETTER_TOPICS,
  NEWS_REGIONS,
  NEWS_SECTIONS,
  READER_COMMENTS,
  SHARE_CHANNELS,
  type NewsSection,
} from '../data/newsfilesHeadlines';

export interface NewsComment {
  author: string;
  text: string;
  liked: boolean;
  mine: boolean;
  replyTo: string; // '' when it answers the article itself
}

export interface Article {
  id: number;
  section: NewsSection;
  title: string;
  author: string;
  minutes: number;
  body: string;
  comments: NewsComment[];
  saved: boolean;
  shares: string[]; // channels it was shared to, in order
}

export interface NewsPrefs {
  textSize: number; // [0, 1]
  region: string;
  images: boolean;
}

export interface Subscription {
  email: string;
  topics: string[]; // in NEWSLETTER_TOPICS order
  frequency: string;
}

export interface NewsState {
  articles: Article[];
  section: NewsSection;
  page: 'list' | 'article' | 'saved' | 'newsletter';
  from: 'list' | 'saved'; // where an open article goes back to
  openId: number | null;
  query: string;
  comment: string;
  replyTo: string;
  shareMenu: boolean;
  dialog: boolean;
  prefs: NewsPrefs;
  pending: NewsPrefs; // what the open settings dialog shows, kept on Save
  form: Subscription;
  subscriptions: Subscription[];
}

export interface NewsVariant extends AppVariant {
  sections: 'tabs' | 'side';
  cards: boolean; // articles as cards with a title link, else plain list items
  words: { title: string; newsletter: string; subscribe: string; post: string; commentLabel: string; saved: string; save: string; settings: string };
}

export const ME_AUTHOR = 'You';
const EMPTY_FORM: Subscription = { email: '', topics: [], frequency: NEWSLETTER_FREQUENCIES[0] };

export function matchesQuery(a: Article, query: string): boolean {
  const q = query.trim().toLowerCase();
  return !q || a.title.toLowerCase().includes(q);
}

/** Articles the list shows: the current section, or every match while searching. */
export function listedArticles(s: NewsState): Article[] {
  return s.query.trim() ? s.articles.filter((a) => matchesQuery(a, s.query)) : s.articles.filter((a) => a.section === s.section);
}

const patch = (s: NewsState, id: number, f: (a: Article) => Article): NewsState => ({
  ...s,
  articles: s.articles.map((a) => (a.id === id ? f(a) : a)),
});
const open = (id: number, from: NewsState['from']): Update<NewsState> => (s) => ({ ...s, page: 'article', openId: id, from, comment: '', replyTo: '', shareMenu: false });
const toList: Update<NewsState> = (s) => ({ ...s, page: 'list', openId: null, shareMenu: false });

function articleEntry(a: Article, s: NewsState, v: NewsVariant): Widget<NewsState> {
  const go = open(a.id, 'list');
  if (!v.cards) return { kind: 'list-item', id: `article-${a.id}`, text: a.title, strong: a.saved, onClick: go };
  const title: Widget<NewsState> = { kind: 'link', id: `article-${a.id}`, text: a.title, purpose: 'read the article', onClick: go };
  return {
    kind: 'card',
    id: `card-${a.id}`,
    children: [
      s.prefs.images ? { kind: 'row', children: [{ kind: 'image', id: `thumb-${a.id}`, icon: 'news' }, title] } : title,
      { kind: 'text', text: `${a.author} · ${a.minutes} min`, tone: 'muted' },
    ],
  };
}

function listView(s: NewsState, v: NewsVariant): View<NewsState> {
  const searching = s.query.trim() !== '';
  const body: Widget<NewsState>[] = [];
  if (v.sections === 'tabs') {
    body.push({ kind: 'tabs', id: 'sections', tabs: [...NEWS_SECTIONS], value: s.section, onSelect: (st, t) => ({ ...st, section: t as NewsSection, query: '' }) });
  }
  if (searching) body.push({ kind: 'text', text: `Results for "${s.query.trim()}"`, tone: 'muted' });
  const items = listedArticles(s).map((a) => articleEntry(a, s, v));
  body.push(...(items.length ? items : [{ kind: 'text', text: 'No stories found', tone: 'muted' } as const]));
  return {
    screenId: searching ? 'search' : `list-${s.section}`,
    title: searching ? 'Search' : s.section,
    nav: {
      title: v.words.title,
      center: { kind: 'search-box', id: 'search', label: 'Search news', value: s.query, grow: true, onType: (st, q) => ({ ...st, query: q }) },
      actions: [
        { kind: 'link', id: 'newsletter', text: v.words.newsletter, purpose: 'sign up for the newsletter', onClick: (st) => ({ ...st, page: 'newsletter' }) },
        { kind: 'icon-button', id: 'saved-page', icon: 'bookmark', purpose: 'show saved articles', onClick: (st) => ({ ...st, page: 'saved' }) },
        { kind: 'icon-button', id: 'settings', icon: 'settings', purpose: 'open settings', onClick: (st) => ({ ...st, dialog: true, pending: st.prefs }) },
      ],
    },
    side:
      v.sections === 'side'
        ? NEWS_SECTIONS.map((sec) => ({ kind: 'link', id: `section-${sec}`, text: sec, selected: !searching && sec === s.section, onClick: (st: NewsState) => ({ ...st, section: sec, query: '' }) }))
        : undefined,
    sideWidth: 36,
    body,
    overlay: s.dialog ? settingsDialog(s, v) : undefined,
  };
}

function settingsDialog(s: NewsState, v: NewsVariant): View<NewsState>['overlay'] {
  const set = (st: NewsState, p: Partial<NewsPrefs>): NewsState => ({ ...st, pending: { ...st.pending, ...p } });
  return {
    kind: 'dialog',
    id: 'settings-dialog',
    title: v.words.settings,
    body: [
      { kind: 'slider', id: 'set.size', label: 'Text size', level: s.pending.textSize, onSet: (st, l) => set(st, { textSize: l }) },
      { kind: 'dropdown', id: 'set.region', label: 'Region', options: [...NEWS_REGIONS], value: s.pending.region, onSelect: (st, o) => set(st, { region: o }) },
      { kind: 'switch', id: 'set.images', text: 'Show images', checked: s.pending.images, onToggle: (st) => set(st, { images: !st.pending.images }) },
    ],
    actions: [
      { kind: 'button', id: 'set.cancel', text: 'Cancel', onClick: (st) => ({ ...st, dialog: false }) },
      { kind: 'button', id: 'set.save', text: v.words.save, primary: true, onClick: (st) => ({ ...st, dialog: false, prefs: st.pending }) },
    ],
    onDismiss: (st) => ({ ...st, dialog: false }),
  };
}

function commentItem(a: Article, c: NewsComment, i: number): Widget<NewsState> {
  return {
    kind: 'list-item',
    id: `comment-${a.id}-${i}`,
    text: c.replyTo ? `${c.author} › ${c.replyTo}` : c.author,
    secondary: c.text,
    strong: c.mine,
    onClick: (st) => ({ ...st, replyTo: st.replyTo === c.author ? '' : c.author }),
    trailing: [
      {
        kind: 'icon-button',
        id: `like-${a.id}-${i}`,
        icon: 'heart',
        color: c.liked ? 'red' : undefined,
        selected: c.liked,
        purpose: c.liked ? 'unlike the comment' : 'like the comment',
        onClick: (st) => patch(st, a.id, (x) => ({ ...x, comments: x.comments.map((y, j) => (j === i ? { ...y, liked: !y.liked } : y)) })),
      },
    ],
  };
}

function articleView(s: NewsState, a: Article, v: NewsVariant): View<NewsState> {
  const post: Update<NewsState> = (st) => {
    const text = st.comment.trim();
    if (!text) return st;
    const mine: NewsComment = { author: ME_AUTHOR, text, liked: false, mine: true, replyTo: st.replyTo };
    return { ...patch(st, a.id, (x) => ({ ...x, comments: [...x.comments, mine] })), comment: '', replyTo: '' };
  };
  const back: Update<NewsState> = (st) => ({ ...st, page: st.from, openId: null, shareMenu: false });
  const body: Widget<NewsState>[] = [
    { kind: 'text', text: a.title, heading: true, wrap: true },
    { kind: 'text', text: `By ${a.author} · ${a.section} · ${a.minutes} min read`, tone: 'muted', wrap: true },
  ];
  if (s.prefs.images) body.push({ kind: 'image', id: 'photo', icon: 'image', size: 24 });
  body.push(
    { kind: 'text', text: a.body, wrap: true },
    { kind: 'text', text: `Comments (${a.comments.length})`, tone: 'strong' },
    ...a.comments.map((c, i) => commentItem(a, c, i)),
  );
  // The reply target gets its own line: a field label left of the field has no room for a name.
  if (s.replyTo) {
    body.push({
      kind: 'row',
      children: [
        { kind: 'text', text: `Replying to ${s.replyTo}`, tone: 'muted' },
        { kind: 'link', id: 'cancel-reply', text: 'Cancel', purpose: 'stop replying', onClick: (st: NewsState) => ({ ...st, replyTo: '' }) },
      ],
    });
  }
  body.push(
    { kind: 'text-field', id: 'comment-field', label: v.words.commentLabel, value: s.comment, onType: (st, t) => ({ ...st, comment: t }) },
    { kind: 'row', children: [{ kind: 'button', id: 'post', text: v.words.post, primary: true, purpose: 'post the comment', onClick: post }] },
  );
  return {
    screenId: `article-${a.id}`,
    title: a.title,
    nav: {
      title: v.words.title,
      onBack: back,
      actions: [
        {
          kind: 'icon-button',
          id: 'bookmark',
          icon: 'bookmark',
          selected: a.saved,
          color: a.saved ? v.theme.accent : undefined,
          purpose: a.saved ? 'remove from saved' : 'save the article',
          onClick: (st) => patch(st, a.id, (x) => ({ ...x, saved: !x.saved })),
        },
        { kind: 'icon-button', id: 'share', icon: 'share', purpose: 'share the article', onClick: (st) => ({ ...st, shareMenu: true }) },
      ],
    },
    body,
    overlay: s.shareMenu
      ? {
          kind: 'menu',
          id: 'share-menu',
          anchor: 'share',
          items: SHARE_CHANNELS.map((ch, i) => ({
            id: `share.${i}`,
            text: ch,
            icon: i === 0 ? 'share' : i === 1 ? 'mail' : 'send',
            onClick: (st: NewsState) => ({ ...patch(st, a.id, (x) => ({ ...x, shares: [...x.shares, ch] })), shareMenu: false }),
          })),
          onDismiss: (st) => ({ ...st, shareMenu: false }),
        }
      : undefined,
  };
}

function savedView(s: NewsState, v: NewsVariant): View<NewsState> {
  const saved = s.articles.filter((a) => a.saved);
  return {
    screenId: 'saved',
    title: v.words.saved,
    nav: { title: v.words.saved, onBack: toList },
    body: saved.length
      ? saved.map((a) => ({
          kind: 'list-item',
          id: `saved-${a.id}`,
          text: a.title,
          onClick: open(a.id, 'saved'),
          trailing: [{ kind: 'icon-button', id: `unsave-${a.id}`, icon: 'close', purpose: 'remove from saved', onClick: (st: NewsState) => patch(st, a.id, (x) => ({ ...x, saved: false })) }],
        }))
      : [{ kind: 'text', text: 'Nothing saved yet', tone: 'muted' }],
  };
}

function newsletterView(s: NewsState, v: NewsVariant): View<NewsState> {
  const form = (st: NewsState, p: Partial<Subscription>): NewsState => ({ ...st, form: { ...st.form, ...p } });
  const toggle = (topic: string): Update<NewsState> => (st) => {
    const on = st.form.topics.includes(topic);
    return form(st, { topics: NEWSLETTER_TOPICS.filter((t) => (t === topic ? !on : st.form.topics.includes(t))) });
  };
  const subscribe: Update<NewsState> = (st) => {
    const email = st.form.email.trim();
    if (!email.includes('@') || !st.form.topics.length) return st;
    return { ...st, subscriptions: [...st.subscriptions, { ...st.form, email }], form: EMPTY_FORM, page: 'list' };
  };
  return {
    screenId: 'newsletter',
    title: v.words.newsletter,
    nav: { title: v.words.newsletter, onBack: toList },
    body: [
      { kind: 'text', text: 'Get the best stories in your inbox.', wrap: true },
      { kind: 'text-field', id: 'nl-email', label: 'Email', value: s.form.email, onType: (st, t) => form(st, { email: t }) },
      { kind: 'text', text: 'Topics', tone: 'strong' },
      ...NEWSLETTER_TOPICS.map((t, i) => ({ kind: 'checkbox', id: `nl-topic-${i}`, text: t, checked: s.form.topics.includes(t), onToggle: toggle(t) }) as const),
      { kind: 'radio-group', id: 'nl-freq', label: 'How often', options: [...NEWSLETTER_FREQUENCIES], value: s.form.frequency, onSelect: (st, o) => form(st, { frequency: o }) },
      { kind: 'row', children: [{ kind: 'button', id: 'subscribe', text: v.words.subscribe, primary: true, purpose: 'subscribe to the newsletter', onClick: subscribe }] },
    ],
  };
}

/** Headlines of one section, drawn without repeats. */
function headlines(rng: Random, section: NewsSection, n: number): string[] {
  const { subjects, predicates } = HEADLINE_PARTS[section];
  const all = subjects.flatMap((sub) => predicates.map((p) => `${sub} ${p}`));
  return rng.shuffle(all).slice(0, n);
}

export const NEWS_APP = defineApp<NewsState, NewsVariant>({
  id: 'news',
  name: 'Dailywire',
  icon: 'news',
  domain: 'news',
  platform: 'web',
  variants: [
    {
      theme: { mode: 'light', accent: 'red', font: 'Roboto Slab', density: 'comfortable', corner: 2 },
      labels: 'above',
      sections: 'tabs',
      cards: false,
      words: { title: 'Dailywire', newsletter: 'Newsletter', subscribe: 'Subscribe', post: 'Post', commentLabel: 'Comment', saved: 'Saved', save: 'Save', settings: 'Settings' },
    },
    {
      theme: { mode: 'dark', accent: 'blue', font: 'Inter', density: 'compact', corner: 5 },
      labels: 'left',
      sections: 'side',
      cards: true,
      words: { title: 'Dailywire', newsletter: 'Sign up', subscribe: 'Sign me up', post: 'Send', commentLabel: 'Comment', saved: 'Reading list', save: 'Apply', settings: 'Preferences' },
    },
    {
      theme: { mode: 'light', accent: 'teal', font: 'Noto Sans', density: 'compact', corner: 4 },
      labels: 'above',
      sections: 'tabs',
      cards: true,
      words: { title: 'DAILYWIRE', newsletter: 'Newsletter', subscribe: 'Join', post: 'Post', commentLabel: 'Add a comment', saved: 'Bookmarks', save: 'Done', settings: 'Settings' },
    },
  ],
  init(rng) {
    const articles: Article[] = [];
    for (const section of NEWS_SECTIONS) {
      for (const title of headlines(rng, section, rng.int(5, 7))) {
        const authors = rng.shuffle(FIRST_NAMES).slice(0, rng.int(0, 4));
        articles.push({
          id: articles.length + 1,
          section,
          title,
          author: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
          minutes: rng.int(2, 12),
          body: `${rng.pick(ARTICLE_SENTENCES)} ${rng.pick(ARTICLE_SENTENCES)} ${rng.pick(ARTICLE_SENTENCES)}`,
          comments: authors.map((author) => ({ author, text: rng.pick(READER_COMMENTS), liked: rng.chance(0.2), mine: false, replyTo: '' })),
          saved: false,
          shares: [],
        });
      }
    }
    // A few stories start bookmarked, so the reading list is never empty at first.
    const saved = new Set(rng.shuffle(articles.map((a) => a.id)).slice(0, rng.int(2, 4)));
    for (const a of articles) a.saved = saved.has(a.id);
    const prefs: NewsPrefs = { textSize: rng.int(3, 7) / 10, region: rng.pick(NEWS_REGIONS), images: rng.chance(0.5) };
    return {
      articles,
      section: NEWS_SECTIONS[0],
      page: 'list',
      from: 'list',
      openId: null,
      query: '',
      comment: '',
      replyTo: '',
      shareMenu: false,
      dialog: false,
      prefs,
      pending: prefs,
      form: EMPTY_FORM,
      subscriptions: [],
    };
  },
  view(s, v) {
    const a = s.page === 'article' ? s.articles.find((x) => x.id === s.openId) : undefined;
    if (a) return articleView(s, a, v);
    if (s.page === 'saved') return savedView(s, v);
    if (s.page === 'newsletter') return newsletterView(s, v);
    return listView(s, v);
  },
});
