/**
 * A phone settings app: network switches on the main page, sub-pages for
 * display, sound and system with sliders, a radio group, dropdowns and a
 * text field, and confirm dialogs for airplane mode and reset.
 */
import { defineApp, type AppVariant, type Update, type View, type Widget } from '../app';
import { FIRST_NAMES } from '../data/names';
import { LANGUAGES } from '../data/places';

export const TIMEOUTS = ['30 seconds', '1 minute', '5 minutes', 'Never'] as const;
export const RINGTONES = ['Chime', 'Bells', 'Pulse', 'Harp', 'Echo'] as const;

export interface SettingsState {
  page: 'main' | 'display' | 'sound' | 'system';
  wifi: boolean;
  bluetooth: boolean;
  airplane: boolean;
  brightness: number; // [0, 1]
  dark: boolean;
  rotate: boolean;
  timeout: string;
  volume: number; // [0, 1]
  vibrate: boolean;
  ringtone: string;
  language: string;
  deviceName: string;
  confirm: 'none' | 'airplane' | 'reset';
  resets: number; // times "Reset settings" was confirmed
}

export interface SettingsVariant extends AppVariant {
  cards: boolean; // group the network switches in a card
  words: { wifi: string; airplane: string; display: string; reset: string; confirm: string };
}

type Values = Omit<SettingsState, 'page' | 'confirm' | 'resets' | 'deviceName'>;
export const DEFAULTS: Values = {
  wifi: true,
  bluetooth: false,
  airplane: false,
  brightness: 0.5,
  dark: false,
  rotate: true,
  timeout: '1 minute',
  volume: 0.5,
  vibrate: true,
  ringtone: 'Chime',
  language: 'English',
};

const set = (p: Partial<SettingsState>): Update<SettingsState> => (s) => ({ ...s, ...p });
const toMain = set({ page: 'main' });

function mainBody(s: SettingsState, v: SettingsVariant): Widget<SettingsState>[] {
  const network: Widget<SettingsState>[] = [
    { kind: 'switch', id: 'wifi', text: v.words.wifi, icon: 'wifi', checked: s.wifi, onToggle: set({ wifi: !s.wifi }) },
    { kind: 'switch', id: 'bluetooth', text: 'Bluetooth', icon: 'bluetooth', checked: s.bluetooth, onToggle: set({ bluetooth: !s.bluetooth }) },
    {
      kind: 'switch',
      id: 'airplane',
      text: v.words.airplane,
      icon: 'airplane',
      checked: s.airplane,
      onToggle: s.airplane ? set({ airplane: false }) : set({ confirm: 'airplane' }),
    },
  ];
  const pages: Widget<SettingsState>[] = [
    { kind: 'list-item', id: 'page.display', text: v.words.display, secondary: 'Brightness, timeout', icon: 'brightness', onClick: set({ page: 'display' }) },
    { kind: 'list-item', id: 'page.sound', text: 'Sound', secondary: 'Volume, ringtone', icon: 'volume', onClick: set({ page: 'sound' }) },
    { kind: 'list-item', id: 'page.system', text: 'System', secondary: 'Language, reset', icon: 'globe', onClick: set({ page: 'system' }) },
  ];
  return v.cards ? [{ kind: 'card', id: 'network', children: network }, ...pages] : [...network, ...pages];
}

function pageBody(s: SettingsState, v: SettingsVariant): Widget<SettingsState>[] {
  switch (s.page) {
    case 'display':
      return [
        { kind: 'slider', id: 'brightness', label: 'Brightness', icon: 'brightness', level: s.brightness, onSet: (st, l) => ({ ...st, brightness: l }) },
        { kind: 'switch', id: 'dark', text: 'Dark theme', checked: s.dark, onToggle: set({ dark: !s.dark }) },
        { kind: 'checkbox', id: 'rotate', text: 'Auto-rotate screen', checked: s.rotate, onToggle: set({ rotate: !s.rotate }) },
        { kind: 'radio-group', id: 'timeout', label: 'Screen timeout', options: [...TIMEOUTS], value: s.timeout, onSelect: (st, o) => ({ ...st, timeout: o }) },
      ];
    case 'sound':
      return [
        { kind: 'slider', id: 'volume', label: 'Media volume', icon: 'volume', level: s.volume, onSet: (st, l) => ({ ...st, volume: l }) },
        { kind: 'switch', id: 'vibrate', text: 'Vibrate for calls', checked: s.vibrate, onToggle: set({ vibrate: !s.vibrate }) },
        { kind: 'dropdown', id: 'ringtone', label: 'Ringtone', options: [...RINGTONES], value: s.ringtone, onSelect: (st, o) => ({ ...st, ringtone: o }) },
      ];
    case 'system':
      return [
        { kind: 'dropdown', id: 'language', label: 'Language', options: [...LANGUAGES], value: s.language, onSelect: (st, o) => ({ ...st, language: o }) },
        { kind: 'text-field', id: 'device-name', label: 'Device name', value: s.deviceName, onType: (st, t) => ({ ...st, deviceName: t }) },
        { kind: 'spacer', h: 4 },
        { kind: 'button', id: 'reset', text: v.words.reset, color: 'red', purpose: 'reset all settings', onClick: set({ confirm: 'reset' }) },
      ];
    default:
      return mainBody(s, v);
  }
}

const PAGE_TITLES = { main: 'Settings', display: '', sound: 'Sound', system: 'System' } as const;

function confirmDialog(s: SettingsState, v: SettingsVariant): View<SettingsState>['overlay'] {
  if (s.confirm === 'none') return undefined;
  const close = set({ confirm: 'none' });
  if (s.confirm === 'airplane') {
    return {
      kind: 'dialog',
      id: 'confirm',
      title: `${v.words.airplane}?`,
      body: [{ kind: 'text', text: `${v.words.wifi} and Bluetooth will turn off.`, wrap: true }],
      actions: [
        { kind: 'button', id: 'confirm.cancel', text: 'Cancel', onClick: close },
        { kind: 'button', id: 'confirm.ok', text: v.words.confirm, primary: true, onClick: set({ confirm: 'none', airplane: true, wifi: false, bluetooth: false }) },
      ],
      onDismiss: close,
    };
  }
  return {
    kind: 'dialog',
    id: 'confirm',
    title: 'Reset all settings?',
    body: [{ kind: 'text', text: 'Your device name is kept.', wrap: true }],
    actions: [
      { kind: 'button', id: 'confirm.cancel', text: 'Cancel', onClick: close },
      { kind: 'button', id: 'confirm.ok', text: 'Reset', color: 'red', onClick: (st) => ({ ...st, ...DEFAULTS, confirm: 'none', resets: st.resets + 1 }) },
    ],
    onDismiss: close,
  };
}

export const SETTINGS_APP = defineApp<SettingsState, SettingsVariant>({
  id: 'settings',
  name: 'Settings',
  icon: 'settings',
  domain: 'settings',
  platform: 'mobile',
  variants: [
    {
      theme: { mode: 'light', accent: 'blue', font: 'Inter', density: 'comfortable', corner: 8 },
      labels: 'above',
      cards: false,
      words: { wifi: 'Wi-Fi', airplane: 'Airplane mode', display: 'Display', reset: 'Reset settings', confirm: 'Turn on' },
    },
    {
      theme: { mode: 'dark', accent: 'teal', font: 'Noto Sans', density: 'compact', corner: 4 },
      labels: 'left',
      cards: true,
      words: { wifi: 'WLAN', airplane: 'Flight mode', display: 'Screen', reset: 'Reset all', confirm: 'OK' },
    },
  ],
  init(rng) {
    const level = () => rng.int(1, 9) / 10;
    return {
      page: 'main',
      wifi: rng.chance(0.6),
      bluetooth: rng.chance(0.4),
      airplane: false,
      brightness: level(),
      dark: rng.chance(0.4),
      rotate: rng.chance(0.5),
      timeout: rng.pick(TIMEOUTS),
      volume: level(),
      vibrate: rng.chance(0.5),
      ringtone: rng.pick(RINGTONES),
      language: rng.chance(0.6) ? 'English' : rng.pick(LANGUAGES),
      deviceName: `${rng.pick(FIRST_NAMES)}'s phone`,
      confirm: 'none',
      resets: 0,
    };
  },
  view(s, v) {
    const title = s.page === 'display' ? v.words.display : PAGE_TITLES[s.page];
    return {
      screenId: s.page,
      title,
      nav: { title, onBack: s.page === 'main' ? undefined : toMain },
      body: pageBody(s, v),
      overlay: confirmDialog(s, v),
    };
  },
});
