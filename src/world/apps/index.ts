/** Every app in the world. To add one: one import line and one entry below. */
import type { AnyApp } from '../app';
import { MAIL_APP } from './mail';
import { SETTINGS_APP } from './settings';
import { SHOP_APP } from './shop';
import { BOOKS_APP } from './books';
import { FLIGHTS_APP } from './flights';
import { HOTELS_APP } from './hotels';
import { CONTACTS_APP } from './contacts';
import { CALENDAR_APP } from './calendar';
import { NOTES_APP } from './notes';
import { MUSIC_APP } from './music';
import { NEWS_APP } from './news';
import { FILES_APP } from './files';

export const APPS: AnyApp[] = [
  MAIL_APP,
  SETTINGS_APP,
  SHOP_APP,
  BOOKS_APP,
  FLIGHTS_APP,
  HOTELS_APP,
  CONTACTS_APP,
  CALENDAR_APP,
  NOTES_APP,
  MUSIC_APP,
  NEWS_APP,
  FILES_APP,
];
