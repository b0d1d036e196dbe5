/** Word lists for the phone contacts app: names, numbers, mail domains, short texts. */
export const PIM_FIRST_NAMES = [
  'Abel', 'Alma', 'Anika', 'Arjun', 'Beatriz', 'Bruno', 'Caleb', 'Celia', 'Dmitri', 'Dina',
  'Edgar', 'Elif', 'Esme', 'Felix', 'Freya', 'Gavin', 'Greta', 'Hamid', 'Helga', 'Ilya',
  'Iris', 'Jasper', 'Joy', 'Kai', 'Katya', 'Leon', 'Lucia', 'Malik', 'Mira', 'Nadia',
  'Nico', 'Olga', 'Otto', 'Pablo', 'Priya', 'Rafael', 'Rhea', 'Soren', 'Stella', 'Theo',
  'Tomas', 'Ursula', 'Vera', 'Wade', 'Willa', 'Xavier', 'Yusuf', 'Yvonne', 'Zara', 'Zeke',
] as const;

export const PIM_LAST_NAMES = [
  'Abbott', 'Alvarez', 'Brandt', 'Byrne', 'Carter', 'Chavez', 'Dalton', 'Dubois', 'Eklund', 'Ferreira',
  'Foster', 'Gallo', 'Hansen', 'Holt', 'Ibsen', 'Jovanovic', 'Keller', 'Larsen', 'Lindqvist', 'Mendes',
  'Murphy', 'Nakamura', 'Nolan', 'Ortega', 'Park', 'Pereira', 'Quinlan', 'Ramos', 'Sato', 'Schmidt',
  'Sorensen', 'Torres', 'Varga', 'Weber', 'Wright', 'Yilmaz', 'Zhou', 'Lambert', 'Marsh', 'Fontaine',
] as const;

/** Three-digit area prefixes for numbers like 415-2093. */
export const PIM_AREAS = ['212', '301', '415', '503', '617', '720', '808', '919'] as const;

export const PIM_MAIL_DOMAINS = ['postbox.com', 'lakeside.org', 'mailhub.net', 'brightline.io', 'corner.dev'] as const;

/** What a phone number is filed under. */
export const PIM_PHONE_LABELS = ['Mobile', 'Home', 'Work', 'Other'] as const;

/** Short text messages a person sends from a contact card. */
export const PIM_TEXTS = [
  'Running late', 'On my way', 'Call me back', 'See you soon', 'Happy birthday!', 'Thanks a lot',
  'Are you free tonight?', 'Lunch tomorrow?', 'I am outside', 'Good luck today', 'Got your note',
  'Miss you', 'Be there at six', 'Can you talk?', 'Let me know', 'Safe travels',
] as const;
