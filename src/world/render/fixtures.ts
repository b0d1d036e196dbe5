/**
 * Hand-built Screens for developing and testing the renderer without the
 * world generator: a web mail inbox, the same inbox with a compose dialog
 * and an open dropdown, a mobile settings screen and a mobile home screen.
 * Together they use every Role.
 */
import type { Box, ElementState, Role, Screen, Theme, UIElement } from '../types';
import { SCREEN_SIZE } from '../types';

type Extra = Partial<Omit<UIElement, 'id' | 'role' | 'box' | 'state'>> & { state?: ElementState };

const INTERACTIVE: ReadonlySet<Role> = new Set<Role>([
  'button', 'icon-button', 'link', 'text-field', 'search-box', 'checkbox', 'switch', 'radio',
  'dropdown', 'option', 'tab', 'list-item', 'menu-item', 'slider', 'back-button', 'app-icon',
]);

function el(id: string, role: Role, [x, y, w, h]: [number, number, number, number], extra: Extra = {}): UIElement {
  const box: Box = { x, y, w, h };
  return { id, role, box, interactive: INTERACTIVE.has(role), ...extra, state: extra.state ?? {} };
}

function screen(platform: Screen['platform'], head: Pick<Screen, 'appId' | 'variant' | 'screenId' | 'title'>, theme: Theme, elements: UIElement[]): Screen {
  return { platform, ...SCREEN_SIZE[platform], ...head, theme, elements };
}

const MAILS: [string, string][] = [
  ['Anna Lee', 'Lunch on Friday?'],
  ['GitHub', '[coevo] New pull request #42'],
  ['Travel Deals', 'Flights to Lisbon from $89'],
  ['Mom', 'Photos from the weekend'],
];

function inboxElements(): UIElement[] {
  const rows = MAILS.flatMap(([from, subject], i): UIElement[] => {
    const y = 34 + i * 20;
    return [
      el(`mail-${i}`, 'list-item', [64, y, 117, 20], { text: `${from}\n${subject}`, parent: 'panel', purpose: 'open the message', state: { selected: i === 0 } }),
      el(`select-${i}`, 'checkbox', [53, y + 6, 9, 9], { parent: 'panel', purpose: 'select the message', state: { checked: i === 0 } }),
      el(`star-${i}`, 'icon-button', [183, y + 5, 10, 10], { icon: i === 1 ? 'star' : 'star-outline', parent: 'panel', purpose: 'star the message', state: { selected: i === 1 } }),
    ];
  });
  return [
    el('nav', 'nav-bar', [0, 0, 200, 18], { text: 'Mailbox', icon: 'mail' }),
    el('search', 'search-box', [58, 3.5, 86, 11], { text: 'Search mail', parent: 'nav', purpose: 'search mail' }),
    el('bell', 'icon-button', [152, 3, 12, 12], { icon: 'bell', parent: 'nav', purpose: 'show notifications' }),
    el('settings', 'icon-button', [166, 3, 12, 12], { icon: 'settings', parent: 'nav', purpose: 'open settings' }),
    el('profile', 'icon-button', [182, 2.5, 13, 13], { icon: 'account', color: 'purple', parent: 'nav', purpose: 'open your profile' }),
    el('compose', 'button', [4, 23, 42, 13], { text: 'Compose', icon: 'edit', purpose: 'write a new message' }),
    el('f-inbox', 'menu-item', [0, 40, 48, 11], { text: 'Inbox', icon: 'mail', state: { selected: true } }),
    el('f-starred', 'menu-item', [0, 51, 48, 11], { text: 'Starred', icon: 'star' }),
    el('f-sent', 'menu-item', [0, 62, 48, 11], { text: 'Sent', icon: 'send' }),
    el('f-drafts', 'menu-item', [0, 73, 48, 11], { text: 'Drafts', icon: 'note' }),
    el('f-trash', 'menu-item', [0, 84, 48, 11], { text: 'Trash', icon: 'delete', color: 'red' }),
    el('storage', 'text', [4, 112, 44, 9], { text: '2.1 GB used', style: { family: 'Inter', size: 6, weight: 400 } }),
    el('panel', 'card', [50, 21, 147, 104]),
    el('t-primary', 'tab', [52, 22, 38, 12], { text: 'Primary', parent: 'panel', state: { selected: true } }),
    el('t-social', 'tab', [90, 22, 38, 12], { text: 'Social', parent: 'panel' }),
    el('t-updates', 'tab', [128, 22, 40, 12], { text: 'Updates', parent: 'panel' }),
    el('refresh', 'icon-button', [180, 23, 10, 10], { icon: 'refresh', parent: 'panel', purpose: 'check for new mail' }),
    ...rows,
    el('older', 'link', [54, 115, 48, 9], { text: 'Older mail', parent: 'panel', purpose: 'show older messages' }),
    el('count', 'text', [148, 115, 44, 9], { text: '1–4 of 128', parent: 'panel', style: { family: 'Inter', size: 6.5, weight: 400 } }),
  ];
}

const webMail = screen(
  'web',
  { appId: 'mail', variant: 0, screenId: 'inbox', title: 'Inbox' },
  { mode: 'light', accent: 'blue', font: 'Inter', density: 'comfortable', corner: 4 },
  inboxElements(),
);

const webCompose = screen(
  'web',
  { appId: 'mail', variant: 2, screenId: 'compose', title: 'New message' },
  { mode: 'light', accent: 'purple', font: 'Noto Sans', density: 'compact', corner: 6 },
  [
    ...inboxElements(),
    el('dialog', 'dialog', [28, 12, 144, 108], { text: 'New message' }),
    el('close', 'icon-button', [157, 16, 11, 11], { icon: 'close', parent: 'dialog', purpose: 'close the dialog' }),
    el('to', 'text-field', [36, 32, 128, 13], { label: 'To', state: { value: 'anna@example.com' }, parent: 'dialog' }),
    el('subject', 'text-field', [36, 48, 128, 13], { label: 'Subject', text: 'Subject', parent: 'dialog', state: { focused: true } }),
    el('priority', 'dropdown', [36, 64, 56, 13], { label: 'Priority', state: { value: 'Normal', expanded: true }, parent: 'dialog' }),
    el('receipt', 'checkbox', [100, 65, 64, 11], { text: 'Read receipt', parent: 'dialog', state: { checked: true } }),
    el('plain', 'radio', [100, 79, 30, 10], { text: 'Plain', parent: 'dialog', state: { checked: true } }),
    el('rich', 'radio', [130, 79, 36, 10], { text: 'Rich text', parent: 'dialog' }),
    el('attach', 'link', [100, 90, 44, 10], { text: 'Attach', icon: 'upload', parent: 'dialog', purpose: 'attach a file' }),
    el('cancel', 'button', [95, 103, 34, 12], { text: 'Cancel', parent: 'dialog', purpose: 'discard the message' }),
    el('send', 'button', [132, 103, 34, 12], { text: 'Send', icon: 'send', parent: 'dialog', purpose: 'send the message' }),
    el('menu', 'card', [36, 78, 56, 35], { parent: 'dialog' }),
    el('o-high', 'option', [37, 79, 54, 11], { text: 'High', color: 'red', parent: 'menu' }),
    el('o-normal', 'option', [37, 90, 54, 11], { text: 'Normal', color: 'green', parent: 'menu', state: { selected: true } }),
    el('o-low', 'option', [37, 101, 54, 11], { text: 'Low', color: 'gray', parent: 'menu' }),
  ],
);

const mobileSettings = screen(
  'mobile',
  { appId: 'settings', variant: 1, screenId: 'main', title: 'Settings' },
  { mode: 'dark', accent: 'green', font: 'Noto Sans', density: 'comfortable', corner: 8 },
  [
    el('nav', 'nav-bar', [0, 0, 120, 22], { text: 'Settings' }),
    el('back', 'back-button', [2, 3, 16, 16], { parent: 'nav', purpose: 'go back' }),
    el('find', 'icon-button', [101, 3, 16, 16], { icon: 'search', parent: 'nav', purpose: 'search settings' }),
    el('h-network', 'heading', [8, 25, 80, 10], { text: 'Network', style: { family: 'Noto Sans', size: 8, weight: 700 } }),
    el('network', 'card', [4, 36, 112, 50]),
    el('wifi', 'switch', [9, 38, 102, 15], { text: 'Wi-Fi', parent: 'network', state: { checked: true } }),
    el('bluetooth', 'switch', [9, 53, 102, 15], { text: 'Bluetooth', parent: 'network' }),
    el('airplane', 'switch', [9, 68, 102, 15], { text: 'Airplane mode', parent: 'network', state: { checked: false, disabled: true } }),
    el('h-display', 'heading', [8, 89, 80, 10], { text: 'Display', style: { family: 'Noto Sans', size: 8, weight: 700 } }),
    el('l-bright', 'text', [8, 100, 60, 9], { text: 'Brightness' }),
    el('brightness', 'slider', [8, 109, 104, 11], { label: 'Brightness', state: { level: 0.65 }, purpose: 'set the brightness' }),
    el('mode', 'dropdown', [8, 123, 104, 15], { label: 'Theme', state: { value: 'Dark theme' } }),
    el('ring', 'radio', [8, 142, 48, 12], { text: 'Ring', state: { checked: true } }),
    el('vibrate', 'radio', [58, 142, 54, 12], { text: 'Vibrate' }),
    el('language', 'list-item', [0, 157, 120, 24], { text: 'Language\nEnglish (US)', icon: 'language', color: 'blue' }),
    el('tabs', 'nav-bar', [0, 184, 120, 24]),
    el('b-home', 'icon-button', [0, 185, 40, 23], { text: 'Home', icon: 'home', parent: 'tabs' }),
    el('b-search', 'icon-button', [40, 185, 40, 23], { text: 'Search', icon: 'search', parent: 'tabs' }),
    el('b-settings', 'icon-button', [80, 185, 40, 23], { text: 'Settings', icon: 'settings', parent: 'tabs', state: { selected: true } }),
  ],
);

const APPS: [string, UIElement['icon'], UIElement['color']][] = [
  ['Mail', 'mail', 'blue'], ['Music', 'music', 'pink'], ['Camera', 'camera', 'gray'], ['Photos', 'image', 'yellow'],
  ['Calendar', 'calendar', 'red'], ['Notes', 'note', 'orange'], ['Files', 'folder', 'teal'], ['Settings', 'settings', 'gray'],
  ['Maps', 'map', 'green'], ['News', 'news', 'red'], ['Shop', 'cart', 'purple'], ['Phone', 'phone', 'green'],
];

const mobileHome = screen(
  'mobile',
  { appId: 'launcher', variant: 0, screenId: 'home', title: 'Home' },
  { mode: 'light', accent: 'blue', font: 'Roboto Slab', density: 'comfortable', corner: 6 },
  [
    el('clock', 'heading', [8, 10, 104, 26], { text: '9:41', style: { family: 'Inter', size: 22, weight: 500 }, color: undefined }),
    el('date', 'text', [8, 36, 104, 10], { text: 'Tuesday, June 3', style: { family: 'Inter', size: 7.5, weight: 500 } }),
    el('search', 'search-box', [8, 52, 104, 15], { text: 'Search apps' }),
    ...APPS.map(([name, icon, color], i) =>
      el(`app-${name.toLowerCase()}`, 'app-icon', [4 + (i % 4) * 28, 76 + Math.floor(i / 4) * 34, 28, 32], { text: name, icon, color, purpose: `open ${name}` }),
    ),
    el('widget', 'card', [6, 180, 108, 24]),
    el('cover', 'image', [9, 183, 18, 18], { icon: 'music', color: 'pink', parent: 'widget' }),
    el('song', 'text', [31, 183, 60, 9], { text: 'Blue in Green', parent: 'widget', style: { family: 'Inter', size: 7, weight: 600 } }),
    el('artist', 'text', [31, 192, 60, 9], { text: 'Miles Davis', parent: 'widget', style: { family: 'Inter', size: 6.5, weight: 400 } }),
    el('play', 'icon-button', [95, 185, 14, 14], { icon: 'play', color: 'pink', parent: 'widget', purpose: 'play music' }),
  ],
);

export const FIXTURES: Readonly<Record<string, Screen>> = {
  'web-mail': webMail,
  'web-compose': webCompose,
  'mobile-settings': mobileSettings,
  'mobile-home': mobileHome,
};

export const FIXTURE_NAMES = Object.keys(FIXTURES);
