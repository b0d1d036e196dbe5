/**
 * Words of the fixture pages, written for this suite: button labels with
 * what they do (for function-style instructions), field labels, navigation,
 * list rows, products. Kept apart from the world's app data so the suite
 * also tests words the world's screens rarely show.
 */
import type { IconName } from '../world/types';

/** A text button's label and, in words, what pressing it does ("save the changes"). */
export interface Action {
  label: string;
  purpose: string;
}

export const ACTIONS: readonly Action[] = [
  { label: 'Save', purpose: 'save the changes' },
  { label: 'Cancel', purpose: 'cancel the edit' },
  { label: 'Apply', purpose: 'apply the filters' },
  { label: 'Reset', purpose: 'reset the form' },
  { label: 'Export', purpose: 'export the report' },
  { label: 'Print', purpose: 'print the page' },
  { label: 'Publish', purpose: 'publish the post' },
  { label: 'Preview', purpose: 'preview the page' },
  { label: 'Continue', purpose: 'go to the next step' },
  { label: 'Submit', purpose: 'submit the form' },
  { label: 'Retry', purpose: 'try again' },
  { label: 'Undo', purpose: 'undo the last change' },
  { label: 'Copy link', purpose: 'copy the link' },
  { label: 'Invite', purpose: 'invite a member' },
  { label: 'Upgrade', purpose: 'upgrade the plan' },
  { label: 'Subscribe', purpose: 'subscribe to the newsletter' },
  { label: 'Confirm', purpose: 'confirm the order' },
  { label: 'Sync now', purpose: 'sync the folder' },
  { label: 'Rename', purpose: 'rename the file' },
  { label: 'Duplicate', purpose: 'duplicate the page' },
];

/** Destructive or emphatic actions that get a coloured fill. */
export const COLOURED_ACTIONS: readonly Action[] = [
  { label: 'Delete', purpose: 'delete the item' },
  { label: 'Remove', purpose: 'remove the member' },
  { label: 'Discard', purpose: 'discard the draft' },
  { label: 'Approve', purpose: 'approve the request' },
  { label: 'Book now', purpose: 'book the room' },
  { label: 'Pay', purpose: 'pay the invoice' },
];

export const FIELD_LABELS: readonly string[] = [
  'Name', 'Email', 'Phone', 'City', 'Street', 'Company', 'Password', 'Username', 'Title', 'Country', 'Zip code', 'Website', 'Subject', 'Card number', 'Nickname', 'Job title',
];

export const FIELD_VALUES: readonly string[] = ['Ada Park', 'ada@park.io', 'Lisbon', 'Acme Ltd', 'Oslo', 'hello', 'Rio', 'Kim Lee'];

export const CHECK_LABELS: readonly string[] = ['Remember me', 'Send receipts', 'Show prices', 'Keep me posted', 'Public profile', 'Auto renew'];

export const SITE_NAMES: readonly string[] = ['Lumen', 'Tallyo', 'Brightdesk', 'Orchard', 'Quilly', 'Nimbus', 'Fernway', 'Cobalt'];

export const NAV_LINKS: readonly string[] = ['Home', 'Pricing', 'Blog', 'Docs', 'About', 'Careers', 'Support', 'Sign in', 'Contact', 'Status'];

export const TABS: readonly string[] = ['Overview', 'Activity', 'Members', 'Billing', 'Reports', 'Security', 'Usage', 'Alerts', 'History', 'Payments'];

export const ROW_NAMES: readonly string[] = [
  'Budget 2024', 'Team photo', 'Launch plan', 'Invoice 118', 'Roadmap', 'Minutes', 'Payroll', 'Logo draft', 'Press kit', 'Contract B', 'Survey', 'Backlog',
];

export const ROW_ACTIONS: readonly string[] = ['Open', 'View', 'Edit', 'Share'];

export const PRODUCTS: readonly { name: string; price: string }[] = [
  { name: 'Desk lamp', price: '$24' }, { name: 'Tea mug', price: '$9' }, { name: 'Backpack', price: '$58' }, { name: 'Notebook', price: '$6' },
  { name: 'Headphones', price: '$79' }, { name: 'Plant pot', price: '$15' }, { name: 'Umbrella', price: '$19' }, { name: 'Wall clock', price: '$32' },
];

export const TOPICS: readonly string[] = ['Workspace', 'Account', 'Project', 'Storage', 'Billing', 'Profile', 'Team', 'Library'];

/** Icons used for icon buttons in toolbars and nav bars (world icon names, so icon instructions parse). */
export const TOOL_ICONS: readonly IconName[] = [
  'edit', 'share', 'delete', 'download', 'upload', 'refresh', 'filter', 'sort', 'search', 'star', 'bookmark', 'archive', 'tag', 'lock', 'camera', 'image', 'settings', 'bell', 'home', 'menu',
];
