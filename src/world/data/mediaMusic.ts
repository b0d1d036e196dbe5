/** Word lists for the music player: song titles are built from two words, plus artists, albums, playlists. */
export const SONG_FIRST = [
  'Golden', 'Midnight', 'Electric', 'Silent', 'Paper', 'Velvet', 'Neon', 'Broken', 'Summer',
  'Winter', 'Wild', 'Hollow', 'Crystal', 'Distant', 'Burning', 'Quiet', 'Lucky', 'Fading',
  'Silver', 'Northern', 'Lonely', 'Falling', 'Sweet', 'Restless', 'Cold', 'Little', 'Endless',
  'Secret', 'Blue', 'Open',
] as const;

export const SONG_SECOND = [
  'Heart', 'Rain', 'River', 'Lights', 'Road', 'Dream', 'Sky', 'Fire', 'Ocean', 'Garden',
  'City', 'Morning', 'Shadows', 'Waves', 'Stars', 'Echoes', 'Hours', 'Roses', 'Mountain',
  'Streets', 'Letters', 'Wings', 'Thunder', 'Window', 'Harbor', 'Motel', 'Radio', 'Tide',
  'Signal', 'Forest',
] as const;

export const ARTISTS = [
  'Luna Park', 'The Driftwood', 'Kai Moreno', 'Static Bloom', 'Iris Vale', 'Copper Sun',
  'The Night Owls', 'Sasha Reid', 'Blue Harbor', 'Echo Lane', 'June Arden', 'Orbit Club',
  'Rosa Vega', 'Tall Pines', 'Milo Grant', 'Velvet Fox', 'The Lowlands', 'Ada Winter',
  'North Coast', 'Paper Planes', 'Theo Marsh', 'Solar Kids', 'Nadia Brook', 'Glasshouse',
] as const;

export const ALBUMS = [
  'First Light', 'Night Drive', 'Salt and Honey', 'Open Water', 'Tall Tales', 'Slow Motion',
  'Paper Moon', 'Long Way Home', 'Neon Days', 'After Hours', 'Wildflowers', 'Low Tide',
  'Golden Age', 'Small Wonders', 'Echo Park', 'Sea Glass', 'Side B', 'New Weather',
  'Heatwave', 'Old Friends', 'Northbound', 'Quiet Storm', 'Blue Period', 'Tin Roof',
] as const;

export const PLAYLISTS = [
  'Morning Run', 'Focus', 'Road Trip', 'Chill Evening', 'Workout', 'Dinner Party', 'Rainy Day',
  'Study Beats', 'Sunday Coffee', 'Party Mix', 'Sleep', 'Throwbacks', 'Summer Hits', 'Commute',
  'Cooking', 'Deep Work', 'Late Night', 'Beach Day', 'Gym', 'Favourites 2023', 'Slow Jams',
  'Garden Party', 'Car Karaoke', 'Weekend', 'Reading Nook', 'Good Vibes',
] as const;

export const EQ_PRESETS = ['Flat', 'Bass boost', 'Treble boost', 'Rock', 'Pop', 'Jazz', 'Classical', 'Vocal'] as const;
export const QUALITIES = ['Low', 'Normal', 'High', 'Very high'] as const;
