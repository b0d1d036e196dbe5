/**
 * Themes and the sizes derived from them. Density drives every size, so a
 * compact and a comfortable variant of one app lay out differently (more rows
 * on screen, different scroll positions), not just in colour.
 */
import type { Platform, TextStyle, Theme } from './types';

export interface Metrics {
  pad: number; // inner padding of the screen and of containers
  gap: number; // space between siblings
  control: number; // height of buttons, fields, dropdowns
  row: number; // height of a list item
  icon: number; // side of an icon button
  nav: number; // height of the nav bar
  option: number; // height of a dropdown option or menu item
  text: number; // body text size
  small: number; // secondary text size
  title: number; // heading size
}

export function metricsFor(platform: Platform, theme: Theme): Metrics {
  const compact = theme.density === 'compact';
  if (platform === 'web') {
    return compact
      ? { pad: 3, gap: 2, control: 11, row: 13, icon: 10, nav: 15, option: 10, text: 7, small: 7, title: 9 }
      : { pad: 4, gap: 3, control: 12, row: 15, icon: 11, nav: 17, option: 11, text: 8, small: 7, title: 10 };
  }
  return compact
    ? { pad: 4, gap: 3, control: 13, row: 16, icon: 12, nav: 18, option: 12, text: 8, small: 7, title: 10 }
    : { pad: 5, gap: 4, control: 14, row: 19, icon: 13, nav: 20, option: 13, text: 8, small: 7, title: 10 };
}

export type TextTone = 'body' | 'muted' | 'title' | 'strong' | 'small';

export function textStyle(theme: Theme, m: Metrics, tone: TextTone): TextStyle {
  switch (tone) {
    case 'title':
      return { family: theme.font, size: m.title, weight: 700 };
    case 'strong':
      return { family: theme.font, size: m.text, weight: 600 };
    case 'small':
    case 'muted':
      return { family: theme.font, size: m.small, weight: 400 };
    default:
      return { family: theme.font, size: m.text, weight: 400 };
  }
}

/** The launcher's look on a phone; apps bring their own themes. */
export const LAUNCHER_THEME: Theme = { mode: 'dark', accent: 'blue', font: 'Inter', density: 'comfortable', corner: 6 };

/** The theme of a screen whose pixels come from elsewhere (a real page, a person's screenshot): Screen wants one, and nothing draws it. */
export const UNDRAWN_THEME: Theme = { mode: 'light', accent: 'blue', font: 'Inter', density: 'comfortable', corner: 2 };
