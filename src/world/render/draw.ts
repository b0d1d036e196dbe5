/**
 * renderScreen: paints a Screen with Canvas 2D, as a pure function of the
 * Screen (no randomness, no clock), in a window or a worker. Elements are
 * painted in list order; a dialog dims everything painted before it.
 *
 * Conventions the layout can rely on:
 * - text stays inside its element's box (clipped, squeezed when too long);
 * - fields (text-field, search-box, dropdown) show state.value, else their
 *   text or label as a muted placeholder; a focused field shows a caret;
 * - list-item and card text may hold "title\nsubtitle";
 * - nav-bar text is drawn in the gap its child buttons leave free;
 * - `color` fills buttons, icon buttons (as a round FAB), app icons, cards
 *   (top band), checked controls and tints text/links/icons of rows;
 * - disabled elements are drawn at reduced opacity.
 * The caller sets the transform (e.g. ctx.scale for 2× output).
 */
import type { Role, Screen } from '../types';
import { themeColors } from './palette';
import type { Ctx2D, Painter, RenderOptions, WidgetPainter } from './painter';
import { paintAppIcon, paintBackButton, paintButton, paintIconButton, paintLink } from './widgets/buttons';
import { paintCard, paintDialog, paintListItem, paintMenuItem, paintNavBar, paintTab } from './widgets/containers';
import { paintHeading, paintImage, paintText } from './widgets/content';
import { paintCheckbox, paintRadio, paintSlider, paintSwitch } from './widgets/controls';
import { paintDropdown, paintOption, paintSearchBox, paintTextField } from './widgets/fields';
import { mix } from './palette';

export const WIDGET_PAINTERS: Readonly<Record<Role, WidgetPainter>> = {
  'button': paintButton,
  'icon-button': paintIconButton,
  'link': paintLink,
  'text-field': paintTextField,
  'search-box': paintSearchBox,
  'checkbox': paintCheckbox,
  'switch': paintSwitch,
  'radio': paintRadio,
  'dropdown': paintDropdown,
  'option': paintOption,
  'tab': paintTab,
  'list-item': paintListItem,
  'menu-item': paintMenuItem,
  'dialog': paintDialog,
  'slider': paintSlider,
  'card': paintCard,
  'nav-bar': paintNavBar,
  'back-button': paintBackButton,
  'app-icon': paintAppIcon,
  'heading': paintHeading,
  'text': paintText,
  'image': paintImage,
};

export const SUPPORTED_ROLES = Object.keys(WIDGET_PAINTERS) as Role[];

function paintBackground(p: Painter): void {
  const { ctx, screen, colors } = p;
  if (screen.appId === 'launcher') {
    // The home screen has a wallpaper: a deep gradient of the accent, so white app labels read on it.
    const g = ctx.createLinearGradient(0, 0, screen.width * 0.4, screen.height);
    g.addColorStop(0, mix(colors.accent, '#000000', colors.dark ? 0.55 : 0.25));
    g.addColorStop(1, mix(colors.accent, '#000000', colors.dark ? 0.8 : 0.6));
    ctx.fillStyle = g;
  } else {
    ctx.fillStyle = colors.page;
  }
  ctx.fillRect(0, 0, screen.width, screen.height);
}

export function renderScreen(ctx: Ctx2D, screen: Screen, options: RenderOptions = {}): void {
  const p: Painter = {
    ctx,
    screen,
    colors: themeColors(screen.theme),
    options,
    pad: screen.theme.density === 'compact' ? 0.75 : 1,
  };
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.shadowColor = 'transparent';
  ctx.imageSmoothingEnabled = true;
  paintBackground(p);
  for (const el of screen.elements) {
    ctx.save();
    if (el.state.disabled) ctx.globalAlpha = 0.4;
    WIDGET_PAINTERS[el.role](p, el);
    ctx.restore();
  }
  ctx.restore();
}
