/**
 * The phone's home screen: one app-icon per mobile app, in a grid. Its
 * elements have ids `app.<appId>` so a click opens that app.
 */
import type { AnyApp } from '../app';
import { fitText } from '../textWidth';
import { LAUNCHER_THEME } from '../theme';
import type { FontFamily, Screen, TextStyle, UIElement } from '../types';
import { SCREEN_SIZE } from '../types';

export const LAUNCHER_ID = 'launcher';

export function launcherScreen(apps: readonly AnyApp[], font: FontFamily, variant: number): Screen {
  const { width: W, height: H } = SCREEN_SIZE.mobile;
  const theme = { ...LAUNCHER_THEME, font };
  const label: TextStyle = { family: font, size: 7, weight: 500 };
  const clock: TextStyle = { family: font, size: 10, weight: 600 };
  const cols = 3;
  const cellW = Math.floor((W - 8) / cols);
  const cellH = 38;
  const elements: UIElement[] = [
    { id: 'clock', role: 'heading', box: { x: 6, y: 6, w: 30, h: 13 }, text: '9:41', state: {}, interactive: false, style: clock },
  ];
  apps.forEach((app, i) => {
    const col = i % cols;
    const row = Math.floor(i / cols);
    elements.push({
      id: `app.${app.id}`,
      role: 'app-icon',
      box: { x: 4 + col * cellW + 2, y: 28 + row * cellH, w: cellW - 4, h: cellH - 4 },
      text: fitText(app.name, cellW - 6, label),
      icon: app.icon,
      purpose: `open ${app.name}`,
      state: {},
      interactive: true,
      style: label,
    });
  });
  return { platform: 'mobile', width: W, height: H, appId: LAUNCHER_ID, variant, screenId: 'home', title: 'Home', theme, elements };
}
