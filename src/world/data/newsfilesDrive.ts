/**
 * Word lists for the Boxfile cloud drive: folder names, and file names built
 * as stem-tag.ext so each seed's drive (and each rename) is mostly new.
 */
export const TOP_FOLDERS = ['Work', 'Photos', 'Taxes', 'Recipes', 'School', 'Travel', 'Music', 'Projects', 'Invoices', 'Family', 'Garden', 'Clients'] as const;

export const SUB_FOLDERS = ['2023', '2024', 'Archive', 'Drafts', 'Scans', 'Receipts', 'Old', 'Shared', 'Final', 'Backup'] as const;

export const FILE_STEMS = [
  'budget', 'report', 'invoice', 'notes', 'summary', 'plan', 'photo', 'scan', 'receipt', 'letter',
  'slides', 'contract', 'menu', 'trip', 'resume', 'poster', 'draft', 'agenda', 'checklist', 'map',
] as const;

export const FILE_TAGS = [
  'march', 'april', 'june', 'final', 'v2', 'old', 'new', 'team', 'home', 'q3',
  'signed', 'oslo', 'lisbon', 'kids', 'copy', 'late', 'short', 'full', 'print', 'web',
] as const;

export const FILE_EXTS = ['pdf', 'docx', 'xlsx', 'jpg', 'png', 'txt', 'pptx', 'zip'] as const;

export const SHARE_ROLES = ['Viewer', 'Commenter', 'Editor'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];
