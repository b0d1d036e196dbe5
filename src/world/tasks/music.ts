/** Task templates for the Tempo music player. */
import type { Random } from '../../learn/random';
import { REPEAT_MODES, albumSongs, librarySongs, neighbour, songById, type MusicState, type MusicToggle, type RepeatMode, type Song } from '../apps/music';
import { EQ_PRESETS, PLAYLISTS, QUALITIES } from '../data/mediaMusic';
import { defineTemplate, onOff, pct, type Intent, type Params } from './template';

const base = { appId: 'music', platform: 'mobile', domain: 'music' } as const;
const song = (s: MusicState, p: Params): Song | undefined => songById(s, Number(p.song));
const songParams = (x: Song): Params => ({ song: String(x.id), title: x.title, artist: x.artist });
const pickSong = (rng: Random, s: MusicState, extra: (x: Song) => Params = () => ({})): Params => {
  const x = rng.pick(s.songs);
  return { ...songParams(x), ...extra(x) };
};
const NEAR_TOP = 5; // rows of the Songs tab reachable with a scroll or two
const tab = (i: number): Intent => ({ do: 'click', id: `lib.${i}` });
/**
 * Starts a song: straight from the Songs tab when it is near the top, else
 * through its album, as a person would rather than scroll a long list.
 */
const playSong = (p: Params, s: MusicState): Intent[] => {
  const click: Intent = { do: 'click', id: `song-${p.song}` };
  if (librarySongs(s).findIndex((x) => x.id === Number(p.song)) < NEAR_TOP) return [click];
  const album = s.albums.findIndex((a) => a.name === song(s, p)?.album);
  return [tab(1), { do: 'click', id: `album-${album}` }, click];
};
const settings: Intent = { do: 'click', id: 'settings' };

/** A level at least 0.2 away from `now`, in steps of 0.1. */
function newLevel(rng: Random, now: number): string {
  const levels = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].filter((l) => Math.abs(l - now) >= 0.2);
  return pct(rng.pick(levels));
}

const TOGGLES: { key: MusicToggle; words: string }[] = [
  { key: 'crossfade', words: 'crossfade between songs' },
  { key: 'gapless', words: 'gapless playback' },
  { key: 'normalize', words: 'volume normalization' },
  { key: 'explicit', words: 'explicit songs' },
];

export const MUSIC_TEMPLATES = [
  defineTemplate<MusicState>({
    id: 'music.play',
    ...base,
    sample: (rng, s) => pickSong(rng, s),
    phrasings: [(p) => `Play "${p.title}"`, (p) => `Put on ${p.title} by ${p.artist}`, (p) => `I want to hear ${p.artist}'s song ${p.title}`],
    goal: (p, s) => s.current === Number(p.song) && s.playing,
    plan: (p, s) => playSong(p, s),
  }),
  defineTemplate<MusicState>({
    id: 'music.like',
    ...base,
    sample: (rng, s) => pickSong(rng, s, (x) => ({ state: x.liked ? 'unlike' : 'like' })),
    phrasings: [
      (p) => `${p.state === 'like' ? 'Like' : 'Unlike'} the song "${p.title}"`,
      (p) => (p.state === 'like' ? `Add ${p.title} by ${p.artist} to my liked songs` : `Remove ${p.title} from my liked songs`),
      (p) => (p.state === 'like' ? `Heart the track ${p.title}` : `Take the heart off ${p.title}`),
    ],
    goal: (p, s) => song(s, p)?.liked === (p.state === 'like'),
    plan: (p, s) => [...playSong(p, s), { do: 'click', id: 'like' }],
  }),
  defineTemplate<MusicState>({
    id: 'music.add-to-playlist',
    ...base,
    sample: (rng, s) => {
      const pairs = s.playlists.flatMap((pl, i) => s.songs.filter((x) => !pl.songs.includes(x.id)).map((x) => ({ pl, i, x })));
      if (!pairs.length) return null;
      const { pl, i, x } = rng.pick(pairs);
      return { ...songParams(x), playlist: String(pl.id), name: pl.name, index: String(i) };
    },
    phrasings: [
      (p) => `Add "${p.title}" to my ${p.name} playlist`,
      (p) => `Put ${p.artist}'s ${p.title} on the playlist ${p.name}`,
      (p) => `Save the song ${p.title} to "${p.name}"`,
    ],
    goal: (p, s) => s.playlists.find((pl) => pl.id === Number(p.playlist))?.songs.includes(Number(p.song)) === true,
    plan: (p, s) => [...playSong(p, s), { do: 'click', id: 'add-to-playlist' }, { do: 'click', id: `pick.${p.index}` }, { do: 'click', id: 'add.ok' }],
  }),
  defineTemplate<MusicState>({
    id: 'music.new-playlist',
    ...base,
    sample: (rng, s) => ({ name: rng.pick(PLAYLISTS.filter((n) => !s.playlists.some((p) => p.name === n))), private: rng.chance(0.5) ? 'yes' : 'no' }),
    phrasings: [
      (p) => `Create a ${p.private === 'yes' ? 'private' : 'public'} playlist called "${p.name}"`,
      (p) => `Make a new ${p.private === 'yes' ? 'private ' : ''}playlist named ${p.name}${p.private === 'yes' ? '' : ' that anyone can see'}`,
      (p) => `Start a playlist "${p.name}"${p.private === 'yes' ? ' and keep it private' : ', not private'}`,
    ],
    goal: (p, s) => s.playlists.some((pl) => pl.name === p.name && pl.private === (p.private === 'yes')),
    plan: (p) => [
      tab(2),
      { do: 'click', id: 'new-playlist' },
      { do: 'type', id: 'pl-name', text: p.name },
      ...(p.private === 'yes' ? [{ do: 'click', id: 'pl-private' } as const] : []),
      { do: 'click', id: 'create' },
    ],
  }),
  defineTemplate<MusicState>({
    id: 'music.remove',
    ...base,
    sample: (rng, s) => {
      const pairs = s.playlists.flatMap((pl) => pl.songs.map((id) => ({ pl, x: songById(s, id)! })));
      if (!pairs.length) return null;
      const { pl, x } = rng.pick(pairs);
      return { ...songParams(x), playlist: String(pl.id), name: pl.name };
    },
    phrasings: [(p) => `Remove "${p.title}" from the ${p.name} playlist`, (p) => `Take ${p.title} off my ${p.name} list`, (p) => `I don't want ${p.title} in "${p.name}" any more`],
    goal: (p, s) => s.playlists.find((pl) => pl.id === Number(p.playlist))?.songs.includes(Number(p.song)) === false,
    plan: (p) => [tab(2), { do: 'click', id: `playlist-${p.playlist}` }, { do: 'click', id: `remove-${p.song}` }],
  }),
  defineTemplate<MusicState>({
    id: 'music.play-album',
    ...base,
    sample: (rng, s) => {
      const i = rng.int(0, s.albums.length - 1);
      return { album: s.albums[i].name, artist: s.albums[i].artist, index: String(i) };
    },
    phrasings: [(p) => `Play the album "${p.album}" from the start`, (p) => `Put on ${p.artist}'s album ${p.album}`, (p) => `Listen to the whole ${p.album} album`],
    goal: (p, s) => {
      const ids = albumSongs(s, p.album).map((x) => x.id);
      return s.playing && s.current === ids[0] && s.queue.join() === ids.join();
    },
    plan: (p) => [tab(1), { do: 'click', id: `album-${p.index}` }, { do: 'click', id: 'play-all' }],
  }),
  defineTemplate<MusicState>({
    id: 'music.play-playlist',
    ...base,
    sample: (rng, s) => {
      const pl = rng.pick(s.playlists.filter((x) => x.songs.length));
      return { playlist: String(pl.id), name: pl.name };
    },
    phrasings: [(p) => `Play my ${p.name} playlist`, (p) => `Start the playlist "${p.name}" from the first song`],
    goal: (p, s) => {
      const ids = s.playlists.find((x) => x.id === Number(p.playlist))?.songs ?? [];
      return s.playing && s.current === ids[0] && s.queue.join() === ids.join();
    },
    plan: (p) => [tab(2), { do: 'click', id: `playlist-${p.playlist}` }, { do: 'click', id: 'play-all' }],
  }),
  defineTemplate<MusicState>({
    id: 'music.shuffle',
    ...base,
    sample: (rng, s) => pickSong(rng, s, () => ({ state: onOff(!s.shuffle) })),
    phrasings: [(p) => `Play "${p.title}" with shuffle ${p.state}`, (p) => `Start ${p.title} and turn shuffle ${p.state}`],
    goal: (p, s) => s.current === Number(p.song) && s.shuffle === (p.state === 'on'),
    plan: (p, s) => [...playSong(p, s), { do: 'click', id: 'shuffle' }],
  }),
  defineTemplate<MusicState>({
    id: 'music.repeat',
    ...base,
    sample: (rng, s) => pickSong(rng, s, () => ({ mode: rng.pick(REPEAT_MODES.filter((m) => m !== s.repeat)) })),
    phrasings: [
      (p) => `Play "${p.title}" with repeat set to ${p.mode}`,
      (p) => (p.mode === 'one' ? `Put ${p.title} on repeat` : p.mode === 'all' ? `Play ${p.title} and repeat the whole queue` : `Play ${p.title} with repeat turned off`),
    ],
    goal: (p, s) => s.current === Number(p.song) && s.repeat === p.mode,
    plan: (p, s) => {
      const presses = (REPEAT_MODES.indexOf(p.mode as RepeatMode) - REPEAT_MODES.indexOf(s.repeat) + REPEAT_MODES.length) % REPEAT_MODES.length;
      return [...playSong(p, s), ...Array.from({ length: presses }, (): Intent => ({ do: 'click', id: 'repeat' }))];
    },
  }),
  defineTemplate<MusicState>({
    id: 'music.skip',
    ...base,
    sample: (rng, s) => {
      const options = ([1, -1] as const).filter((d) => neighbour(s, d) !== undefined);
      if (!options.length) return null;
      const d = rng.pick(options);
      const to = songById(s, neighbour(s, d)!)!;
      return { direction: d === 1 ? 'next' : 'previous', ...songParams(to), from: songById(s, s.current)!.title };
    },
    phrasings: [
      (p) => `Skip to the ${p.direction} song`,
      (p) => (p.direction === 'next' ? `Skip ${p.from} and go on to ${p.title}` : `Go back from ${p.from} to ${p.title}`),
      (p) => `Open the player and press ${p.direction} once`,
    ],
    goal: (p, s) => s.current === Number(p.song),
    plan: (p) => [{ do: 'click', id: 'mini' }, { do: 'click', id: p.direction }],
  }),
  defineTemplate<MusicState>({
    id: 'music.volume',
    ...base,
    sample: (rng, s) => ({ level: newLevel(rng, s.volume) }),
    phrasings: [(p) => `Set the music volume to ${p.level}`, (p) => `Change Tempo's volume to ${p.level}`, (p) => `Open the player and put the volume at ${p.level}`],
    goal: (p, s) => Math.abs(s.volume - parseInt(p.level, 10) / 100) < 0.025,
    plan: (p) => [{ do: 'click', id: 'mini' }, { do: 'select', id: 'volume', option: p.level }],
  }),
  defineTemplate<MusicState>({
    id: 'music.equalizer',
    ...base,
    sample: (rng, s) => ({ preset: rng.pick(EQ_PRESETS.filter((e) => e !== s.settings.eq)) }),
    phrasings: [(p) => `Set the equalizer to ${p.preset}`, (p) => `Use the ${p.preset.toLowerCase()} equalizer preset`, (p) => `Change the EQ in the music settings to ${p.preset}`],
    goal: (p, s) => s.settings.eq === p.preset,
    plan: (p) => [settings, { do: 'select', id: 'eq', option: p.preset }],
  }),
  defineTemplate<MusicState>({
    id: 'music.quality',
    ...base,
    sample: (rng, s) => ({ quality: rng.pick(QUALITIES.filter((q) => q !== s.settings.quality)) }),
    phrasings: [(p) => `Set the streaming quality to ${p.quality.toLowerCase()}`, (p) => `Stream music in ${p.quality.toLowerCase()} quality`],
    goal: (p, s) => s.settings.quality === p.quality,
    plan: (p) => [settings, { do: 'click', id: `quality.${QUALITIES.indexOf(p.quality as (typeof QUALITIES)[number])}` }],
  }),
  defineTemplate<MusicState>({
    id: 'music.setting',
    ...base,
    sample: (rng, s) => {
      const t = rng.pick(TOGGLES);
      return { setting: t.key, words: t.words, state: onOff(!s.settings[t.key]) };
    },
    phrasings: [(p) => `Turn ${p.state} ${p.words}`, (p) => `In Tempo's settings, switch ${p.words} ${p.state}`, (p) => `I want ${p.words} ${p.state === 'on' ? 'enabled' : 'disabled'}`],
    goal: (p, s) => s.settings[p.setting as MusicToggle] === (p.state === 'on'),
    plan: (p) => [settings, { do: 'click', id: p.setting }],
  }),
];
