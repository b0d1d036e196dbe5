/** Task templates for the phone settings app. */
import type { Random } from '../../learn/random';
import { RINGTONES, TIMEOUTS, type SettingsState } from '../apps/settings';
import { FIRST_NAMES } from '../data/names';
import { LANGUAGES } from '../data/places';
import { defineTemplate, onOff, pct } from './template';

const base = { appId: 'settings', platform: 'mobile', domain: 'settings' } as const;
const page = (name: 'display' | 'sound' | 'system') => ({ do: 'click', id: `page.${name}` }) as const;

/** A level at least 0.2 away from `now`, in steps of 0.1. */
function newLevel(rng: Random, now: number): string {
  const levels = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].filter((l) => Math.abs(l - now) >= 0.2);
  return pct(rng.pick(levels));
}
const near = (level: number, p: string) => Math.abs(level - parseInt(p, 10) / 100) < 0.025;

function switchTemplate(id: 'wifi' | 'bluetooth', words: string) {
  return defineTemplate<SettingsState>({
    id: `settings.${id}`,
    ...base,
    sample: (_rng, s) => ({ state: onOff(!s[id]) }),
    phrasings: [(p) => `Turn ${p.state} ${words}`, (p) => `Switch ${words} ${p.state}`, (p) => `Please set ${words} to ${p.state} on my phone`],
    goal: (p, s) => s[id] === (p.state === 'on'),
    plan: () => [{ do: 'click', id }],
  });
}

export const SETTINGS_TEMPLATES = [
  switchTemplate('wifi', 'Wi-Fi'),
  switchTemplate('bluetooth', 'Bluetooth'),
  defineTemplate<SettingsState>({
    id: 'settings.airplane',
    ...base,
    sample: (_rng, s) => (s.airplane ? null : {}),
    phrasings: [() => 'Turn on airplane mode', () => 'Put the phone in flight mode', () => 'Enable airplane mode and confirm'],
    goal: (_p, s) => s.airplane,
    plan: () => [{ do: 'click', id: 'airplane' }, { do: 'click', id: 'confirm.ok' }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.brightness',
    ...base,
    sample: (rng, s) => ({ level: newLevel(rng, s.brightness) }),
    phrasings: [(p) => `Set the screen brightness to ${p.level}`, (p) => `Change brightness to ${p.level}`, (p) => `Make the display ${p.level} bright`],
    goal: (p, s) => near(s.brightness, p.level),
    plan: (p) => [page('display'), { do: 'select', id: 'brightness', option: p.level }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.volume',
    ...base,
    sample: (rng, s) => ({ level: newLevel(rng, s.volume) }),
    phrasings: [(p) => `Set media volume to ${p.level}`, (p) => `Change the volume to ${p.level}`],
    goal: (p, s) => near(s.volume, p.level),
    plan: (p) => [page('sound'), { do: 'select', id: 'volume', option: p.level }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.dark',
    ...base,
    sample: (_rng, s) => ({ state: onOff(!s.dark) }),
    phrasings: [(p) => `Turn ${p.state} the dark theme`, (p) => `Switch dark mode ${p.state}`],
    goal: (p, s) => s.dark === (p.state === 'on'),
    plan: () => [page('display'), { do: 'click', id: 'dark' }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.rotate',
    ...base,
    sample: (_rng, s) => ({ state: s.rotate ? 'off' : 'on' }),
    phrasings: [(p) => `Turn ${p.state} auto-rotate`, (p) => `${p.state === 'on' ? 'Let' : 'Stop'} the screen rotate automatically`],
    goal: (p, s) => s.rotate === (p.state === 'on'),
    plan: () => [page('display'), { do: 'click', id: 'rotate' }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.timeout',
    ...base,
    sample: (rng, s) => ({ timeout: rng.pick(TIMEOUTS.filter((t) => t !== s.timeout)) }),
    phrasings: [(p) => `Set the screen timeout to ${p.timeout}`, (p) => `Make the screen turn off after ${p.timeout}`],
    goal: (p, s) => s.timeout === p.timeout,
    plan: (p) => [page('display'), { do: 'click', id: `timeout.${TIMEOUTS.indexOf(p.timeout as (typeof TIMEOUTS)[number])}` }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.ringtone',
    ...base,
    sample: (rng, s) => ({ ringtone: rng.pick(RINGTONES.filter((t) => t !== s.ringtone)) }),
    phrasings: [(p) => `Change the ringtone to ${p.ringtone}`, (p) => `Use ${p.ringtone} as my ringtone`],
    goal: (p, s) => s.ringtone === p.ringtone,
    plan: (p) => [page('sound'), { do: 'select', id: 'ringtone', option: p.ringtone }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.language',
    ...base,
    sample: (rng, s) => ({ language: rng.pick(LANGUAGES.filter((l) => l !== s.language)) }),
    phrasings: [(p) => `Set the phone language to ${p.language}`, (p) => `Switch the language to ${p.language}`],
    goal: (p, s) => s.language === p.language,
    plan: (p) => [page('system'), { do: 'select', id: 'language', option: p.language }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.device-name',
    ...base,
    sample: (rng, s) => ({ name: rng.pick(FIRST_NAMES.filter((n) => !s.deviceName.startsWith(n))) + ' tablet' }),
    phrasings: [(p) => `Rename the device to "${p.name}"`, (p) => `Change the device name to ${p.name}`],
    goal: (p, s) => s.deviceName === p.name,
    plan: (p) => [page('system'), { do: 'type', id: 'device-name', text: p.name }],
  }),
  defineTemplate<SettingsState>({
    id: 'settings.reset',
    ...base,
    sample: () => ({}),
    phrasings: [() => 'Reset all settings', () => 'Restore the default settings and confirm'],
    goal: (_p, s) => s.resets > 0,
    plan: () => [page('system'), { do: 'click', id: 'reset' }, { do: 'click', id: 'confirm.ok' }],
  }),
];
