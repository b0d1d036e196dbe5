/** Every app in the world. To add one: one import line and one entry below. */
import type { AnyApp } from '../app';
import { MAIL_APP } from './mail';
import { SETTINGS_APP } from './settings';

export const APPS: AnyApp[] = [
  MAIL_APP,
  SETTINGS_APP,
];
