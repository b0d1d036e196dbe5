/**
 * Word lists for the Dailywire news site: headline parts per section (a
 * headline is subject + predicate, so sections hold 100 headlines each),
 * article sentences, reader comments, newsletter topics and regions.
 */
export const NEWS_SECTIONS = ['World', 'Money', 'Tech', 'Sport', 'Arts'] as const;
export type NewsSection = (typeof NEWS_SECTIONS)[number];

/** Subjects agree with their predicates in number within a section. */
export const HEADLINE_PARTS: Record<NewsSection, { subjects: readonly string[]; predicates: readonly string[] }> = {
  World: {
    subjects: ['Leaders', 'Ministers', 'Envoys', 'Protesters', 'Voters', 'Rescuers', 'Port towns', 'Islanders', 'Aid groups', 'Farmers'],
    predicates: ['agree on water deal', 'meet ahead of summit', 'call for new talks', 'face record heat', 'rebuild after floods', 'back climate pact', 'reject trade plan', 'push for ceasefire', 'count votes overnight', 'brace for storm'],
  },
  Money: {
    subjects: ['Banks', 'Shares', 'Oil prices', 'Startups', 'Retailers', 'Airlines', 'Carmakers', 'Home prices', 'Small firms', 'Investors'],
    predicates: ['rise after rate cut', 'slip on weak data', 'hit two-year high', 'brace for slow winter', 'cut jobs in review', 'beat forecasts', 'bet on wind power', 'rally in late trade', 'warn of higher costs', 'shrug off inflation'],
  },
  Tech: {
    subjects: ['New phones', 'Chip makers', 'Robot vacuums', 'Smart watches', 'App stores', 'Game studios', 'Cloud firms', 'Drone makers', 'E-bikes', 'Search engines'],
    predicates: ['get longer battery life', 'face privacy probe', 'launch in Europe', 'drop prices again', 'add offline mode', 'recall faulty units', 'hire AI experts', 'win design award', 'slow down old models', 'open new labs'],
  },
  Sport: {
    subjects: ['Rookies', 'Sprinters', 'Title rivals', 'Rowers', 'Chess stars', 'Tennis stars', 'Cyclists', 'League leaders', 'Underdogs', 'Veterans'],
    predicates: ['win in extra time', 'break course record', 'sign two-year deals', 'miss the final', 'top the table', 'retire after season', 'stun the favorites', 'return from injury', 'draw in heavy rain', 'clinch the cup'],
  },
  Arts: {
    subjects: ['Painter', 'Jazz festival', 'Old theater', 'Film director', 'Poetry prize', 'City museum', 'Folk band', 'Novelist', 'Ballet troupe', 'Street artist'],
    predicates: ['opens new show', 'returns after ten years', 'wins top award', 'sells out in hours', 'moves to the harbor', 'plans world tour', 'reveals lost works', 'draws record crowds', 'gets a new home', 'honors local heroes'],
  },
};

export const ARTICLE_SENTENCES = [
  'Here is what we know so far.', 'Officials expect more news later this week.', 'The decision came after months of debate.',
  'Critics say the plan goes too far.', 'Supporters call it a long overdue step.', 'Numbers released on Monday tell a mixed story.',
  'Local people were quick to react.', 'Experts urge caution for now.', 'It is the first change of its kind in years.',
  'More details are expected at noon.', 'The mood on the ground was calm.', 'Few saw this coming a year ago.',
] as const;

export const READER_COMMENTS = [
  'Great reporting', 'Thanks for this', 'Well written', 'Interesting take', 'I disagree', 'More of this please',
  'Very helpful', 'Sad news', 'Finally some good news', 'Saw this coming', 'Needs more detail', 'Good summary',
  'Shared with my family', 'Not surprised at all', 'What a story', 'Clear and fair', 'Keep us posted', 'Big if true',
  'Loved the photos', 'Who is paying for this',
] as const;

export const NEWSLETTER_TOPICS = ['Morning brief', 'Tech weekly', 'Market close', 'Sport digest', 'Arts picks'] as const;
export const NEWSLETTER_FREQUENCIES = ['Daily', 'Weekly', 'Monthly'] as const;

export const NEWS_REGIONS = ['United States', 'United Kingdom', 'Canada', 'Australia', 'India', 'Ireland', 'New Zealand', 'South Africa'] as const;

/** How a reader shares an article, as the share menu lists it. */
export const SHARE_CHANNELS = ['Copy link', 'Send by email', 'Post to feed'] as const;
