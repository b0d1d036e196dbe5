/** Word lists for the notes app: note titles, note text, checklist items, folders. */
export const NOTE_TITLES = [
  'Groceries', 'Packing list', 'Book ideas', 'Garden plan', 'Meeting notes', 'Gift ideas',
  'Recipe: pancakes', 'Recipe: lentil soup', 'Movies to watch', 'Podcast list', 'Workout plan',
  'Weekend chores', 'Budget draft', 'Birthday plans', 'Reading list', 'Travel checklist',
  'Car service', 'Dentist questions', 'Wedding toasts', 'Blog outline', 'Quotes I like',
  'Song lyrics', 'Paint colours', 'Moving boxes', 'Passwords hint', 'Camping gear',
  'Study schedule', 'Interview prep', 'Party playlist', 'Bike repairs', 'Kitchen remodel',
  'Plant care', 'Dinner menu', 'Holiday cards', 'Language phrases', 'Photo walk spots',
  'Sketch prompts', 'Team goals', 'Sprint review', 'Lecture summary', 'Yoga poses',
  'Wine tasting', 'Cafe list', 'Hiking routes', 'Thank you notes', 'Office supplies',
  'Pet vet notes', 'Baby names', 'Bucket list', 'Daily journal', 'Shopping for shoes',
  'Board game rules', 'Coding ideas', 'Tax documents', 'Window sizes', 'Concert dates',
  'Museum visits', 'Cleaning rota', 'Tea blends', 'Puzzle answers', 'Guitar chords',
] as const;

export const NOTE_SENTENCES = [
  'Check prices before Friday.', 'Ask Sam about the dates.', 'Keep it under budget.',
  'Start with the easy parts.', 'Bring the blue folder.', 'Call back after lunch.',
  'Needs a second look.', 'Try the new place downtown.', 'Book it early this time.',
  'Remember the receipts.', 'Share this with the team.', 'Done by the end of May.',
  'Two options look good.', 'Write more on Sunday.', 'Compare with last year.',
  'Ask for a quote first.', 'Mostly sorted already.', 'The list keeps growing.',
  'Print a copy for home.', 'Only the weekend is free.', 'Look for a cheaper one.',
  'Take photos of each step.', 'Measure twice.', 'Keep notes short.',
] as const;

export const CHECK_ITEMS = [
  'Milk', 'Eggs', 'Bread', 'Coffee beans', 'Apples', 'Rice', 'Olive oil', 'Tomatoes',
  'Passport', 'Charger', 'Sunscreen', 'Toothbrush', 'Rain jacket', 'Tickets', 'Socks',
  'Call the plumber', 'Pay rent', 'Water plants', 'Return books', 'Wash the car',
  'Send invoice', 'Book flights', 'Buy stamps', 'Fix the shelf', 'Renew license',
  'Pick up parcel', 'Clean the oven', 'Email Dana', 'Order ink', 'Feed the cat',
  'Cheese', 'Butter', 'Lemons', 'Spinach', 'Pasta', 'Honey', 'Batteries', 'Tape',
  'Map', 'Snacks', 'Hat', 'Umbrella', 'Notebook', 'Pens', 'Candles', 'Flowers',
] as const;

export const NOTE_FOLDERS = ['Personal', 'Work', 'Travel', 'Recipes', 'Ideas', 'Home', 'School', 'Health', 'Projects', 'Family'] as const;

/** Colour labels a note can carry; 'None' means unlabelled. */
export const NOTE_COLOURS = ['None', 'Red', 'Orange', 'Yellow', 'Green', 'Blue', 'Purple'] as const;
