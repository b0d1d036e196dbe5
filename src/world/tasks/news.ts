/** Task templates for the Dailywire news site. */
import type { Random } from '../../learn/random';
import { ME_AUTHOR, type Article, type NewsState } from '../apps/news';
import { FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS } from '../data/names';
import { NEWSLETTER_FREQUENCIES, NEWSLETTER_TOPICS, NEWS_REGIONS, NEWS_SECTIONS, READER_COMMENTS, SHARE_CHANNELS } from '../data/newsfilesHeadlines';
import { defineTemplate, onOff, pct, type Intent, type Params } from './template';

const base = { appId: 'news', platform: 'web', domain: 'news' } as const;
const byId = (s: NewsState, id: string): Article | undefined => s.articles.find((a) => a.id === Number(id));
const articleParams = (a: Article): Params => ({ article: String(a.id), title: a.title, section: a.section });
const pickArticle = (rng: Random, list: Article[]): Params | null => (list.length ? articleParams(rng.pick(list)) : null);

/** Clicks that open an article from the front page: its section first when it is not the one showing. */
function openArticle(p: Params, s: NewsState): Intent[] {
  const steps: Intent[] = [];
  if (p.section !== s.section) {
    steps.push({ do: 'click', id: [`sections.${NEWS_SECTIONS.indexOf(p.section as Article['section'])}`, `section-${p.section}`] });
  }
  steps.push({ do: 'click', id: `article-${p.article}` });
  return steps;
}

/** A level at least 0.2 away from `now`, in steps of 0.1. */
function newLevel(rng: Random, now: number): string {
  const levels = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].filter((l) => Math.abs(l - now) >= 0.2);
  return pct(rng.pick(levels));
}
const near = (level: number, p: string) => Math.abs(level - parseInt(p, 10) / 100) < 0.025;

/** A word of the title that no other headline contains, so searching it finds just this story. */
function uniqueWord(a: Article, all: Article[]): string | undefined {
  const words = a.title.split(' ').filter((w) => /^[A-Za-z-]{4,}$/.test(w));
  return words.find((w) => all.filter((b) => b.title.toLowerCase().includes(w.toLowerCase())).length === 1);
}

const mine = (a: Article | undefined, text: string, replyTo: string) => !!a?.comments.some((c) => c.mine && c.author === ME_AUTHOR && c.text === text && c.replyTo === replyTo);
const andList = (xs: string[]) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

export const NEWS_TEMPLATES = [
  defineTemplate<NewsState>({
    id: 'news.open',
    ...base,
    sample: (rng, s) => pickArticle(rng, s.articles),
    phrasings: [
      (p) => `Open the story "${p.title}"`,
      (p) => `Read the ${p.section} article "${p.title}"`,
      (p) => `Show me the news piece "${p.title}" from the ${p.section} section`,
    ],
    goal: (p, s) => s.page === 'article' && s.openId === Number(p.article),
    plan: openArticle,
  }),
  defineTemplate<NewsState>({
    id: 'news.bookmark',
    ...base,
    sample: (rng, s) => pickArticle(rng, s.articles.filter((a) => !a.saved)),
    phrasings: [
      (p) => `Bookmark the article "${p.title}"`,
      (p) => `Save "${p.title}" to read later`,
      (p) => `Add the ${p.section} story "${p.title}" to my saved articles`,
    ],
    goal: (p, s) => byId(s, p.article)?.saved === true,
    plan: (p, s) => [...openArticle(p, s), { do: 'click', id: 'bookmark' }],
  }),
  defineTemplate<NewsState>({
    id: 'news.unsave',
    ...base,
    sample: (rng, s) => pickArticle(rng, s.articles.filter((a) => a.saved)),
    phrasings: [
      (p) => `Remove "${p.title}" from my saved articles`,
      (p) => `I no longer need "${p.title}" in my reading list; take it out`,
      (p) => `Unbookmark the story "${p.title}"`,
    ],
    goal: (p, s) => byId(s, p.article)?.saved === false,
    plan: (p) => [{ do: 'click', id: 'saved-page' }, { do: 'click', id: `unsave-${p.article}` }],
  }),
  defineTemplate<NewsState>({
    id: 'news.comment',
    ...base,
    sample: (rng, s) => {
      const p = pickArticle(rng, s.articles);
      return p && { ...p, text: rng.pick(READER_COMMENTS) };
    },
    phrasings: [
      (p) => `Comment "${p.text}" on the article "${p.title}"`,
      (p) => `Leave the comment "${p.text}" under "${p.title}"`,
      (p) => `Post "${p.text}" in the comments of the ${p.section} story "${p.title}"`,
    ],
    goal: (p, s) => mine(byId(s, p.article), p.text, ''),
    plan: (p, s) => [...openArticle(p, s), { do: 'type', id: 'comment-field', text: p.text }, { do: 'click', id: 'post' }],
  }),
  defineTemplate<NewsState>({
    id: 'news.reply',
    ...base,
    sample: (rng, s) => {
      const withComments = s.articles.filter((a) => a.comments.length > 0);
      if (!withComments.length) return null;
      const a = rng.pick(withComments);
      const i = rng.int(0, a.comments.length - 1);
      return { ...articleParams(a), comment: String(i), author: a.comments[i].author, text: rng.pick(READER_COMMENTS) };
    },
    phrasings: [
      (p) => `Reply "${p.text}" to ${p.author}'s comment on "${p.title}"`,
      (p) => `On the story "${p.title}", answer ${p.author} with "${p.text}"`,
      (p) => `Respond to the comment by ${p.author} under "${p.title}" saying "${p.text}"`,
    ],
    goal: (p, s) => mine(byId(s, p.article), p.text, p.author),
    plan: (p, s) => [
      ...openArticle(p, s),
      { do: 'click', id: `comment-${p.article}-${p.comment}` },
      { do: 'type', id: 'comment-field', text: p.text },
      { do: 'click', id: 'post' },
    ],
  }),
  defineTemplate<NewsState>({
    id: 'news.like-comment',
    ...base,
    sample: (rng, s) => {
      const options = s.articles.flatMap((a) => a.comments.map((c, i) => ({ a, c, i })).filter((x) => !x.c.liked));
      if (!options.length) return null;
      const { a, c, i } = rng.pick(options);
      return { ...articleParams(a), comment: String(i), author: c.author, text: c.text };
    },
    phrasings: [
      (p) => `Like ${p.author}'s comment on "${p.title}"`,
      (p) => `Give a heart to the comment "${p.text}" under "${p.title}"`,
      (p) => `On "${p.title}", like what ${p.author} wrote`,
    ],
    goal: (p, s) => byId(s, p.article)?.comments[Number(p.comment)]?.liked === true,
    plan: (p, s) => [...openArticle(p, s), { do: 'click', id: `like-${p.article}-${p.comment}` }],
  }),
  defineTemplate<NewsState>({
    id: 'news.share',
    ...base,
    sample: (rng, s) => {
      const p = pickArticle(rng, s.articles);
      return p && { ...p, channel: rng.pick(SHARE_CHANNELS) };
    },
    phrasings: [
      (p) => `Share "${p.title}" using "${p.channel}"`,
      (p) => `${p.channel === 'Copy link' ? 'Copy the link to' : p.channel === 'Send by email' ? 'Email' : 'Post to my feed'} the article "${p.title}"`,
      (p) => `Pass on the ${p.section} story "${p.title}" with ${p.channel.toLowerCase()}`,
    ],
    goal: (p, s) => !!byId(s, p.article)?.shares.includes(p.channel),
    plan: (p, s) => [...openArticle(p, s), { do: 'click', id: 'share' }, { do: 'click', id: `share.${SHARE_CHANNELS.indexOf(p.channel as (typeof SHARE_CHANNELS)[number])}` }],
  }),
  defineTemplate<NewsState>({
    id: 'news.search',
    ...base,
    sample: (rng, s) => {
      const found = s.articles.map((a) => ({ a, w: uniqueWord(a, s.articles) })).filter((x) => x.w);
      if (!found.length) return null;
      const { a, w } = rng.pick(found);
      return { ...articleParams(a), term: w! };
    },
    phrasings: [
      (p) => `Search the news for "${p.term}" and open "${p.title}"`,
      (p) => `Look up ${p.term} on Dailywire and read the story that comes up`,
      (p) => `Use search to find the article "${p.title}" by typing ${p.term}, then open it`,
    ],
    goal: (p, s) => s.page === 'article' && s.openId === Number(p.article) && s.query.trim().toLowerCase() === p.term.toLowerCase(),
    plan: (p) => [{ do: 'type', id: 'search', text: p.term }, { do: 'click', id: `article-${p.article}` }],
  }),
  defineTemplate<NewsState>({
    id: 'news.newsletter',
    ...base,
    sample: (rng) => {
      const first = rng.pick(FIRST_NAMES);
      const last = rng.pick(LAST_NAMES);
      const topics = rng.shuffle(NEWSLETTER_TOPICS).slice(0, rng.int(1, 3));
      return {
        email: `${first}.${last}@${rng.pick(MAIL_DOMAINS)}`.toLowerCase(),
        topics: NEWSLETTER_TOPICS.filter((t) => topics.includes(t)).join(', '),
        frequency: rng.pick(NEWSLETTER_FREQUENCIES),
      };
    },
    phrasings: [
      (p) => `Subscribe ${p.email} to the ${andList(p.topics.split(', '))} newsletter${p.topics.includes(',') ? 's' : ''}, ${p.frequency.toLowerCase()}`,
      (p) => `Sign up for Dailywire emails at ${p.email}: topics ${p.topics}, sent ${p.frequency.toLowerCase()}`,
      (p) => `I want the ${p.frequency.toLowerCase()} newsletter with ${andList(p.topics.split(', '))}; my email is ${p.email}`,
    ],
    goal: (p, s) => s.subscriptions.some((x) => x.email === p.email && x.topics.join(', ') === p.topics && x.frequency === p.frequency),
    plan: (p) => {
      const topics = p.topics.split(', ');
      const steps: Intent[] = [{ do: 'click', id: 'newsletter' }, { do: 'type', id: 'nl-email', text: p.email }];
      for (const t of topics) steps.push({ do: 'click', id: `nl-topic-${NEWSLETTER_TOPICS.indexOf(t as (typeof NEWSLETTER_TOPICS)[number])}` });
      const fi = NEWSLETTER_FREQUENCIES.indexOf(p.frequency as (typeof NEWSLETTER_FREQUENCIES)[number]);
      if (fi !== 0) steps.push({ do: 'click', id: `nl-freq.${fi}` });
      steps.push({ do: 'click', id: 'subscribe' });
      return steps;
    },
  }),
  defineTemplate<NewsState>({
    id: 'news.text-size',
    ...base,
    sample: (rng, s) => ({ level: newLevel(rng, s.prefs.textSize) }),
    phrasings: [(p) => `Set the text size to ${p.level}`, (p) => `Change the article font size to ${p.level} in settings`, (p) => `Make the reading text size ${p.level}`],
    goal: (p, s) => near(s.prefs.textSize, p.level),
    plan: (p) => [{ do: 'click', id: 'settings' }, { do: 'select', id: 'set.size', option: p.level }, { do: 'click', id: 'set.save' }],
  }),
  defineTemplate<NewsState>({
    id: 'news.region',
    ...base,
    sample: (rng, s) => ({ region: rng.pick(NEWS_REGIONS.filter((r) => r !== s.prefs.region)) }),
    phrasings: [(p) => `Switch the news region to ${p.region}`, (p) => `Show me the ${p.region} edition`, (p) => `Set my region to ${p.region} in the settings`],
    goal: (p, s) => s.prefs.region === p.region,
    plan: (p) => [{ do: 'click', id: 'settings' }, { do: 'select', id: 'set.region', option: p.region }, { do: 'click', id: 'set.save' }],
  }),
  defineTemplate<NewsState>({
    id: 'news.images',
    ...base,
    sample: (_rng, s) => ({ state: onOff(!s.prefs.images) }),
    phrasings: [(p) => `Turn ${p.state} images in the news settings`, (p) => `${p.state === 'on' ? 'Show' : 'Hide'} pictures with the stories`, (p) => `Switch "Show images" ${p.state} and save`],
    goal: (p, s) => s.prefs.images === (p.state === 'on'),
    plan: () => [{ do: 'click', id: 'settings' }, { do: 'click', id: 'set.images' }, { do: 'click', id: 'set.save' }],
  }),
  defineTemplate<NewsState>({
    id: 'news.edition',
    ...base,
    sample: (rng, s) => ({ region: rng.pick(NEWS_REGIONS.filter((r) => r !== s.prefs.region)), level: newLevel(rng, s.prefs.textSize) }),
    phrasings: [
      (p) => `Set the region to ${p.region} and the text size to ${p.level}`,
      (p) => `I'm reading from ${p.region} and want ${p.level} text; update the settings`,
      (p) => `Change settings: region ${p.region}, text size ${p.level}`,
    ],
    goal: (p, s) => s.prefs.region === p.region && near(s.prefs.textSize, p.level),
    plan: (p) => [
      { do: 'click', id: 'settings' },
      { do: 'select', id: 'set.region', option: p.region },
      { do: 'select', id: 'set.size', option: p.level },
      { do: 'click', id: 'set.save' },
    ],
  }),
];
