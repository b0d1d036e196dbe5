/** People's names for generated data (contacts, senders, authors). */
export const FIRST_NAMES = [
  'Ada', 'Ben', 'Carla', 'David', 'Elena', 'Farid', 'Grace', 'Hugo', 'Ines', 'Jonas',
  'Kira', 'Liam', 'Maya', 'Nora', 'Omar', 'Paula', 'Quinn', 'Rosa', 'Sam', 'Tara',
  'Uma', 'Victor', 'Wen', 'Yara', 'Zoe', 'Aaron', 'Bianca', 'Chen', 'Dara', 'Emil',
  'Fiona', 'Gita', 'Hana', 'Ivan', 'Julia', 'Kofi', 'Lena', 'Marco', 'Nina', 'Oscar',
] as const;

export const LAST_NAMES = [
  'Adams', 'Baker', 'Costa', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Hayes', 'Ito', 'Jensen',
  'Khan', 'Lopez', 'Meyer', 'Novak', 'Olsen', 'Patel', 'Quist', 'Reyes', 'Silva', 'Tanaka',
  'Ueda', 'Vogel', 'Walsh', 'Young', 'Zimmer', 'Moreau', 'Rossi', 'Kowal', 'Berg', 'Stone',
] as const;

/** Mail domains for addresses like ada.baker@northwind.com. */
export const MAIL_DOMAINS = ['northwind.com', 'acme.org', 'mailbox.net', 'example.com', 'studio.io', 'fastmail.dev'] as const;
