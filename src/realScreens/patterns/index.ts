/** Every pattern by name. */
import type { Pattern } from '../types';
import { buttonRow } from './buttonRow';
import { cards } from './cards';
import type { PatternFn } from './common';
import { dialog } from './dialog';
import { form } from './form';
import { list } from './list';
import { tabs } from './tabs';
import { toolbar } from './toolbar';

export const PATTERN_FNS: Readonly<Record<Pattern, PatternFn>> = {
  'button-row': buttonRow,
  'form': form,
  'tabs': tabs,
  'dialog': dialog,
  'list': list,
  'toolbar': toolbar,
  'cards': cards,
};
