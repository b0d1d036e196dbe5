/** Mail and note topics: subjects, short body sentences, search terms. */
export const SUBJECTS = [
  'Lunch on Friday', 'Project update', 'Invoice 2041', 'Team meeting', 'Flight details',
  'Weekend plans', 'Budget review', 'New office keys', 'Birthday party', 'Quarterly report',
  'Design feedback', 'Server outage', 'Book club', 'Holiday photos', 'Contract draft',
  'Job interview', 'Gym schedule', 'Garden tools', 'Concert tickets', 'Rent reminder',
  'Conference talk', 'Recipe swap', 'Car repair', 'Piano lesson', 'Trip to Lisbon',
  'Welcome aboard', 'Password reset', 'Hiking trip', 'Board games night', 'Library books',
] as const;

export const BODY_SENTENCES = [
  'Can we move it to next week?', 'Please see the notes below.', 'Thanks for the quick reply.',
  'Let me know what you think.', 'I attached the latest version.', 'The room is booked until noon.',
  'We still need two more people.', 'See you there at six.', 'Could you check the numbers again?',
  'It should be ready by Monday.', 'I will bring snacks.', 'Call me if anything changes.',
  'The tickets are in my bag.', 'Send me your address please.', 'We can meet at the cafe.',
  'Happy to help with that.', 'The deadline is tomorrow.', 'I am running a bit late.',
] as const;

/** Short replies and messages an agent may be asked to type. */
export const SHORT_MESSAGES = [
  'Sounds good', 'See you soon', 'Thanks a lot', 'On my way', 'Count me in', 'Got it',
  'Works for me', 'Running late', 'All done', 'Call me later', 'Great news', 'Not today',
] as const;
