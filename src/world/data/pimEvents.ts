/** Word lists for the phone calendar app: event titles, places, months. */
export const PIM_EVENT_TITLES = [
  'Team standup', 'Dentist', 'Yoga class', 'Lunch with Mira', 'Budget meeting', 'Piano lesson',
  'Haircut', 'Book club', 'Gym', 'Parents evening', 'Car service', 'Flight to Rome', 'Coffee chat',
  'Design review', 'Doctor visit', 'Movie night', 'Swim practice', 'Client call', 'Sprint planning',
  'Dinner party', 'Run club', 'Vet appointment', 'Guitar lesson', 'Farmers market', 'Bike repair',
  'Job interview', 'Spanish class', 'Board games', 'Tax advisor', 'Pottery class', 'Quiz night',
  'Date night', 'Bank meeting', 'Library visit', 'School pickup', 'Garden work', 'Concert',
  'Volunteer shift', 'Wine tasting', 'Photo walk',
] as const;

export const PIM_PLACES = [
  'Room 4', 'Main office', 'City clinic', 'Home', 'Cafe Luna', 'Studio B', 'Town hall', 'Park gate',
  'Gym center', 'Library', 'Zoom', 'Airport', 'Harbor bar', 'Old theatre', 'Market square', 'Garage',
] as const;

/** Months with 30 or 31 days, so a fortnight that starts by the 17th stays inside one month. */
export const PIM_MONTHS = [
  { name: 'March', days: 31 },
  { name: 'April', days: 30 },
  { name: 'May', days: 31 },
  { name: 'June', days: 30 },
  { name: 'July', days: 31 },
  { name: 'September', days: 30 },
  { name: 'October', days: 31 },
  { name: 'November', days: 30 },
] as const;
