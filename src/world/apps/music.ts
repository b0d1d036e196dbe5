/**
 * A phone music player, "Tempo": a library with song, album and playlist
 * tabs, a mini player, a now-playing screen (transport buttons, volume,
 * like, add-to-playlist dialog), a new-playlist form and playback settings.
 */
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { ALBUMS, ARTISTS, EQ_PRESETS, PLAYLISTS, QUALITIES, SONG_FIRST, SONG_SECOND } from '../data/mediaMusic';

export interface Song {
  id: number;
  title: string;
  artist: string;
  album: string;
  liked: boolean;
}

export interface Album {
  name: string;
  artist: string;
}

export interface Playlist {
  id: number;
  name: string;
  description: string;
  songs: number[];
  private: boolean;
}

export type LibraryTab = 'songs' | 'albums' | 'playlists';
export const LIBRARY_TABS: readonly LibraryTab[] = ['songs', 'albums', 'playlists'];
export type RepeatMode = 'off' | 'all' | 'one';
export const REPEAT_MODES: readonly RepeatMode[] = ['off', 'all', 'one']; // the order the repeat button cycles through

export interface MusicSettings {
  crossfade: boolean;
  gapless: boolean;
  normalize: boolean;
  explicit: boolean;
  eq: string; // one of EQ_PRESETS
  quality: string; // one of QUALITIES
}
export type MusicToggle = 'crossfade' | 'gapless' | 'normalize' | 'explicit';

type ListPage = 'library' | 'album' | 'playlist';

export interface MusicState {
  songs: Song[];
  albums: Album[];
  playlists: Playlist[];
  tab: LibraryTab;
  page: ListPage | 'player' | 'settings' | 'new-playlist';
  album: string; // the album page's album
  playlist: number | null; // the playlist page's playlist
  playerFrom: ListPage; // where the player's back goes
  current: number; // song id in the player
  playing: boolean;
  queue: number[]; // song ids that next/previous walk through
  shuffle: boolean;
  repeat: RepeatMode;
  volume: number; // [0, 1]
  adding: boolean; // add-to-playlist dialog open
  addChoice: string; // playlist name picked in that dialog
  draft: { name: string; description: string; private: boolean };
  settings: MusicSettings;
  nextPlaylistId: number;
}

export interface MusicVariant extends AppVariant {
  listHearts: boolean; // like buttons on song rows, not only in the player
  newPlaylistLink: boolean; // "new playlist" as a link rather than a button
  playerCard: boolean; // the player shows cover, title and artist in a card
  words: {
    title: string;
    tabs: [string, string, string];
    addTo: string;
    create: string;
    nowPlaying: string;
    newPlaylist: string;
    playAll: string;
    normalize: string;
    quality: string;
  };
}

export const songById = (s: MusicState, id: number): Song | undefined => s.songs.find((x) => x.id === id);
/** Songs tab order: by title. */
export const librarySongs = (s: MusicState): Song[] => [...s.songs].sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
export const albumSongs = (s: MusicState, album: string): Song[] => s.songs.filter((x) => x.album === album);
const playlistSongs = (s: MusicState, p: Playlist): Song[] => p.songs.map((id) => songById(s, id)).filter((x): x is Song => !!x);

const patchSong = (s: MusicState, id: number, p: Partial<Song>): MusicState => ({ ...s, songs: s.songs.map((x) => (x.id === id ? { ...x, ...p } : x)) });
const patchPlaylist = (s: MusicState, id: number, p: Partial<Playlist>): MusicState => ({ ...s, playlists: s.playlists.map((x) => (x.id === id ? { ...x, ...p } : x)) });
const play = (id: number, queue: number[]): Update<MusicState> => (s) => ({ ...s, current: id, playing: true, queue, page: 'player', playerFrom: s.page === 'player' ? s.playerFrom : (s.page as ListPage) });

/** The song `step` places from the current one in the queue, if there is one. */
export function neighbour(s: MusicState, step: 1 | -1): number | undefined {
  const i = s.queue.indexOf(s.current);
  if (i < 0) return undefined;
  const j = i + step;
  if (j >= 0 && j < s.queue.length) return s.queue[j];
  return s.repeat === 'all' && s.queue.length ? s.queue[(j + s.queue.length) % s.queue.length] : undefined;
}

function songRow(x: Song, queue: number[], v: MusicVariant, extra: Widget<MusicState>[] = []): Widget<MusicState> {
  const heart: Widget<MusicState>[] = v.listHearts
    ? [{ kind: 'icon-button', id: `like-${x.id}`, icon: 'heart', color: x.liked ? 'red' : undefined, selected: x.liked, purpose: x.liked ? 'unlike the song' : 'like the song', onClick: (s) => patchSong(s, x.id, { liked: !x.liked }) }]
    : [];
  // No leading icon: two-word titles need the width next to the trailing buttons.
  return { kind: 'list-item', id: `song-${x.id}`, text: x.title, secondary: x.artist, onClick: play(x.id, queue), trailing: extra.length ? extra : heart };
}

function miniPlayer(s: MusicState): Widget<MusicState>[] {
  const x = songById(s, s.current);
  if (!x) return [];
  return [
    {
      kind: 'list-item',
      id: 'mini',
      text: x.title,
      secondary: x.artist,
      strong: true,
      onClick: (st) => ({ ...st, page: 'player', playerFrom: st.page as ListPage }),
      trailing: [{ kind: 'icon-button', id: 'mini-play', icon: s.playing ? 'pause' : 'play', purpose: s.playing ? 'pause' : 'play', onClick: (st) => ({ ...st, playing: !st.playing }) }],
    },
  ];
}

function libraryBody(s: MusicState, v: MusicVariant): Widget<MusicState>[] {
  const body: Widget<MusicState>[] = [
    { kind: 'tabs', id: 'lib', tabs: [...v.words.tabs], value: v.words.tabs[LIBRARY_TABS.indexOf(s.tab)], onSelect: (st, t) => ({ ...st, tab: LIBRARY_TABS[v.words.tabs.indexOf(t)] }) },
  ];
  if (s.tab === 'songs') {
    const list = librarySongs(s);
    const queue = list.map((x) => x.id);
    body.push(...list.map((x) => songRow(x, queue, v)));
  } else if (s.tab === 'albums') {
    body.push(
      ...s.albums.map(
        (a, i): Widget<MusicState> => ({ kind: 'list-item', id: `album-${i}`, text: a.name, secondary: a.artist, icon: 'image', onClick: (st) => ({ ...st, page: 'album', album: a.name }) }),
      ),
    );
  } else {
    const startNew: Update<MusicState> = (st) => ({ ...st, page: 'new-playlist', draft: { name: '', description: '', private: false } });
    body.push(
      v.newPlaylistLink
        ? { kind: 'link', id: 'new-playlist', text: `+ ${v.words.newPlaylist}`, purpose: 'create a playlist', onClick: startNew }
        : { kind: 'button', id: 'new-playlist', text: v.words.newPlaylist, primary: true, purpose: 'create a playlist', onClick: startNew },
      ...s.playlists.map(
        (p): Widget<MusicState> => ({
          kind: 'list-item',
          id: `playlist-${p.id}`,
          text: p.name,
          secondary: `${p.songs.length} songs${p.private ? ' · private' : ''}`,
          icon: p.private ? 'lock' : 'menu',
          onClick: (st) => ({ ...st, page: 'playlist', playlist: p.id }),
        }),
      ),
    );
  }
  return body;
}

const toLibrary: Update<MusicState> = (s) => ({ ...s, page: 'library' });

function albumView(s: MusicState, v: MusicVariant): View<MusicState> {
  const list = albumSongs(s, s.album);
  const queue = list.map((x) => x.id);
  const artist = s.albums.find((a) => a.name === s.album)?.artist ?? '';
  return {
    screenId: 'album',
    title: s.album,
    nav: { title: s.album, onBack: toLibrary },
    body: [
      { kind: 'row', children: [{ kind: 'text', text: artist, tone: 'muted', grow: true }, { kind: 'button', id: 'play-all', text: v.words.playAll, primary: true, purpose: 'play the whole album', onClick: play(queue[0], queue) }] },
      ...list.map((x) => songRow(x, queue, v)),
    ],
    footer: miniPlayer(s),
  };
}

function playlistView(s: MusicState, p: Playlist, v: MusicVariant): View<MusicState> {
  const list = playlistSongs(s, p);
  const queue = list.map((x) => x.id);
  const rows = list.map((x) =>
    songRow(x, queue, v, [
      { kind: 'icon-button', id: `remove-${x.id}`, icon: 'minus', purpose: 'remove from the playlist', onClick: (st) => patchPlaylist(st, p.id, { songs: p.songs.filter((id) => id !== x.id) }) },
    ]),
  );
  const playAll: Update<MusicState> = (st) => (queue.length ? play(queue[0], queue)(st) : st);
  return {
    screenId: 'playlist',
    title: p.name,
    nav: { title: p.name, onBack: (st) => ({ ...st, page: 'library', tab: 'playlists' }) },
    body: [
      { kind: 'row', children: [{ kind: 'text', text: `${list.length} songs`, tone: 'muted', grow: true }, { kind: 'button', id: 'play-all', text: v.words.playAll, primary: true, purpose: 'play the playlist', onClick: playAll }] },
      ...(rows.length ? rows : [{ kind: 'text', text: 'No songs yet', tone: 'muted' } as const]),
    ],
    footer: miniPlayer(s),
  };
}

function addDialog(s: MusicState, x: Song, v: MusicVariant): View<MusicState>['overlay'] {
  const close: Update<MusicState> = (st) => ({ ...st, adding: false });
  const add: Update<MusicState> = (st) => {
    const p = st.playlists.find((q) => q.name === st.addChoice);
    if (!p) return st;
    const next = p.songs.includes(x.id) ? st : patchPlaylist(st, p.id, { songs: [...p.songs, x.id] });
    return { ...next, adding: false };
  };
  return {
    kind: 'dialog',
    id: 'add-dialog',
    title: v.words.addTo,
    body: [{ kind: 'radio-group', id: 'pick', label: 'Choose a playlist', options: s.playlists.map((p) => p.name), value: s.addChoice, onSelect: (st, o) => ({ ...st, addChoice: o }) }],
    actions: [
      { kind: 'button', id: 'add.cancel', text: 'Cancel', onClick: close },
      { kind: 'button', id: 'add.ok', text: 'Add', primary: true, purpose: 'add the song to the playlist', onClick: add },
    ],
    onDismiss: close,
  };
}

function playerView(s: MusicState, v: MusicVariant): View<MusicState> {
  const x = songById(s, s.current)!;
  const go = (step: 1 | -1): Update<MusicState> => (st) => {
    const to = neighbour(st, step);
    return to === undefined ? st : { ...st, current: to, playing: true };
  };
  const info: Widget<MusicState>[] = [
    { kind: 'row', justify: 'between', children: [{ kind: 'spacer', h: 0 }, { kind: 'image', id: 'cover', icon: 'music', size: 40 }, { kind: 'spacer', h: 0 }] },
    { kind: 'text', text: x.title, heading: true },
    { kind: 'text', text: `${x.artist} · ${x.album}`, tone: 'muted' },
  ];
  const repeatNext = REPEAT_MODES[(REPEAT_MODES.indexOf(s.repeat) + 1) % REPEAT_MODES.length];
  return {
    screenId: 'player',
    title: v.words.nowPlaying,
    nav: { title: v.words.nowPlaying, onBack: (st) => ({ ...st, page: st.playerFrom, adding: false }) },
    body: [
      ...(v.playerCard ? [{ kind: 'card', id: 'now-card', children: info } as const] : info),
      {
        kind: 'row',
        justify: 'between',
        children: [
          { kind: 'icon-button', id: 'shuffle', icon: 'shuffle', selected: s.shuffle, color: s.shuffle ? v.theme.accent : undefined, purpose: s.shuffle ? 'turn shuffle off' : 'turn shuffle on', onClick: (st) => ({ ...st, shuffle: !st.shuffle }) },
          { kind: 'icon-button', id: 'previous', icon: 'previous', purpose: 'previous song', onClick: go(-1) },
          { kind: 'icon-button', id: 'play', icon: s.playing ? 'pause' : 'play', purpose: s.playing ? 'pause' : 'play', onClick: (st) => ({ ...st, playing: !st.playing }) },
          { kind: 'icon-button', id: 'next', icon: 'next', purpose: 'next song', onClick: go(1) },
          { kind: 'icon-button', id: 'repeat', icon: 'repeat', selected: s.repeat !== 'off', color: s.repeat !== 'off' ? v.theme.accent : undefined, purpose: `set repeat to ${repeatNext}`, onClick: (st) => ({ ...st, repeat: repeatNext }) },
        ],
      },
      { kind: 'text', text: `Shuffle ${s.shuffle ? 'on' : 'off'} · Repeat ${s.repeat}`, tone: 'small' },
      { kind: 'slider', id: 'volume', label: 'Volume', icon: 'volume', level: s.volume, onSet: (st, l) => ({ ...st, volume: l }) },
      {
        kind: 'row',
        children: [
          { kind: 'icon-button', id: 'like', icon: 'heart', color: x.liked ? 'red' : undefined, selected: x.liked, purpose: x.liked ? 'unlike the song' : 'like the song', onClick: (st) => patchSong(st, x.id, { liked: !x.liked }) },
          { kind: 'button', id: 'add-to-playlist', text: v.words.addTo, purpose: 'add the song to a playlist', onClick: (st) => ({ ...st, adding: true, addChoice: '' }) },
        ],
      },
    ],
    overlay: s.adding ? addDialog(s, x, v) : undefined,
  };
}

function settingsView(s: MusicState, v: MusicVariant): View<MusicState> {
  const set = (p: Partial<MusicSettings>): Update<MusicState> => (st) => ({ ...st, settings: { ...st.settings, ...p } });
  const toggle = (key: MusicToggle, text: string): Widget<MusicState> => ({ kind: 'switch', id: key, text, checked: s.settings[key], onToggle: set({ [key]: !s.settings[key] }) });
  return {
    screenId: 'settings',
    title: 'Settings',
    nav: { title: 'Settings', onBack: toLibrary },
    body: [
      toggle('crossfade', 'Crossfade'),
      toggle('gapless', 'Gapless playback'),
      toggle('normalize', v.words.normalize),
      { kind: 'checkbox', id: 'explicit', text: 'Allow explicit songs', checked: s.settings.explicit, onToggle: set({ explicit: !s.settings.explicit }) },
      { kind: 'dropdown', id: 'eq', label: 'Equalizer', options: [...EQ_PRESETS], value: s.settings.eq, onSelect: (st, o) => set({ eq: o })(st) },
      { kind: 'radio-group', id: 'quality', label: v.words.quality, options: [...QUALITIES], value: s.settings.quality, onSelect: (st, o) => set({ quality: o })(st) },
    ],
  };
}

function newPlaylistView(s: MusicState, v: MusicVariant): View<MusicState> {
  const draft = (p: Partial<MusicState['draft']>): Update<MusicState> => (st) => ({ ...st, draft: { ...st.draft, ...p } });
  const create: Update<MusicState> = (st) => {
    const name = st.draft.name.trim();
    if (!name) return st;
    const p: Playlist = { id: st.nextPlaylistId, name, description: st.draft.description, songs: [], private: st.draft.private };
    return { ...st, playlists: [...st.playlists, p], nextPlaylistId: st.nextPlaylistId + 1, page: 'library', tab: 'playlists' };
  };
  return {
    screenId: 'new-playlist',
    title: v.words.newPlaylist,
    nav: { title: v.words.newPlaylist, onBack: (st) => ({ ...st, page: 'library', tab: 'playlists' }) },
    body: [
      { kind: 'text-field', id: 'pl-name', label: 'Name', value: s.draft.name, onType: (st, t) => draft({ name: t })(st) },
      { kind: 'text-field', id: 'pl-desc', label: 'About', value: s.draft.description, multiline: true, onType: (st, t) => draft({ description: t })(st) },
      { kind: 'checkbox', id: 'pl-private', text: 'Private', checked: s.draft.private, onToggle: draft({ private: !s.draft.private }) },
      { kind: 'row', justify: 'end', children: [{ kind: 'button', id: 'create', text: v.words.create, primary: true, purpose: 'create the playlist', onClick: create }] },
    ],
  };
}

export const MUSIC_APP = defineApp<MusicState, MusicVariant>({
  id: 'music',
  name: 'Tempo',
  icon: 'music',
  domain: 'music',
  platform: 'mobile',
  variants: [
    {
      theme: { mode: 'dark', accent: 'green', font: 'Inter', density: 'comfortable', corner: 10 },
      labels: 'above',
      listHearts: true,
      newPlaylistLink: false,
      playerCard: false,
      words: { title: 'Tempo', tabs: ['Songs', 'Albums', 'Lists'], addTo: 'Add to playlist', create: 'Create', nowPlaying: 'Now playing', newPlaylist: 'New playlist', playAll: 'Play all', normalize: 'Normalize volume', quality: 'Streaming quality' },
    },
    {
      theme: { mode: 'light', accent: 'pink', font: 'Noto Sans', density: 'compact', corner: 4 },
      labels: 'left',
      listHearts: false,
      newPlaylistLink: true,
      playerCard: true,
      words: { title: 'Tempo', tabs: ['Tracks', 'Albums', 'Mixes'], addTo: 'Save to mix', create: 'Save', nowPlaying: 'Playing', newPlaylist: 'New mix', playAll: 'Play', normalize: 'Volume leveling', quality: 'Audio quality' },
    },
    {
      theme: { mode: 'light', accent: 'blue', font: 'Roboto Slab', density: 'comfortable', corner: 6 },
      labels: 'above',
      listHearts: true,
      newPlaylistLink: true,
      playerCard: false,
      words: { title: 'Tempo Music', tabs: ['Songs', 'Albums', 'Lists'], addTo: 'Add to list', create: 'Done', nowPlaying: 'Now playing', newPlaylist: 'New list', playAll: 'Play now', normalize: 'Normalize volume', quality: 'Streaming quality' },
    },
  ],
  init(rng) {
    const artists = rng.shuffle(ARTISTS);
    const albumNames = rng.shuffle(ALBUMS);
    const albums: Album[] = [];
    const songs: Song[] = [];
    const used = new Set<string>();
    for (let a = rng.int(4, 6) - 1; a >= 0; a--) {
      const album: Album = { name: albumNames[a], artist: artists[a] };
      albums.push(album);
      for (let k = rng.int(3, 5); k > 0; k--) {
        let title = '';
        do title = `${rng.pick(SONG_FIRST)} ${rng.pick(SONG_SECOND)}`;
        while (used.has(title));
        used.add(title);
        songs.push({ id: songs.length + 1, title, artist: album.artist, album: album.name, liked: rng.chance(0.25) });
      }
    }
    const ids = songs.map((x) => x.id);
    const playlists: Playlist[] = rng
      .shuffle(PLAYLISTS)
      .slice(0, rng.int(3, 5))
      .map((name, i) => ({ id: i + 1, name, description: '', songs: rng.shuffle(ids).slice(0, rng.int(2, 6)), private: rng.chance(0.3) }));
    const state: MusicState = {
      songs,
      albums,
      playlists,
      tab: 'songs',
      page: 'library',
      album: '',
      playlist: null,
      playerFrom: 'library',
      current: rng.pick(ids),
      playing: false,
      queue: [],
      shuffle: rng.chance(0.3),
      repeat: rng.pick(REPEAT_MODES),
      volume: rng.int(1, 9) / 10,
      adding: false,
      addChoice: '',
      draft: { name: '', description: '', private: false },
      settings: {
        crossfade: rng.chance(0.4),
        gapless: rng.chance(0.6),
        normalize: rng.chance(0.5),
        explicit: rng.chance(0.7),
        eq: rng.chance(0.5) ? 'Flat' : rng.pick(EQ_PRESETS),
        quality: rng.pick(QUALITIES),
      },
      nextPlaylistId: playlists.length + 1,
    };
    return { ...state, queue: librarySongs(state).map((x) => x.id) };
  },
  view(s, v) {
    const pl = s.page === 'playlist' ? s.playlists.find((p) => p.id === s.playlist) : undefined;
    if (pl) return playlistView(s, pl, v);
    if (s.page === 'album') return albumView(s, v);
    if (s.page === 'player') return playerView(s, v);
    if (s.page === 'settings') return settingsView(s, v);
    if (s.page === 'new-playlist') return newPlaylistView(s, v);
    return {
      screenId: `library-${s.tab}`,
      title: v.words.title,
      nav: {
        title: v.words.title,
        actions: [{ kind: 'icon-button', id: 'settings', icon: 'settings', purpose: 'open settings', onClick: (st) => ({ ...st, page: 'settings' }) }],
      },
      body: libraryBody(s, v),
      footer: miniPlayer(s),
    };
  },
});
