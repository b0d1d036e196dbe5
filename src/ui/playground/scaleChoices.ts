/** The scales the Playground offers for a person's screenshot, by the text size a person can judge on it. */
import { DEFAULT_TEXT_PX, WORLD_TEXT_PX, type ScaleChoice } from '../../ownScreen/tiles';

export interface ScaleOption {
  id: string;
  label: string;
  choice: ScaleChoice;
}

const byText = (px: number, about: string): ScaleOption => ({
  id: `text-${px}`,
  label: `text about ${px} px${about} → ×${(WORLD_TEXT_PX / px).toFixed(2)}`,
  choice: { kind: 'text', textPx: px },
});

export const SCALE_OPTIONS: readonly ScaleOption[] = [
  byText(10, ''),
  byText(12, ''),
  byText(DEFAULT_TEXT_PX, ' (most desktop pages)'),
  byText(16, ''),
  byText(20, ''),
  byText(28, ' (a phone or HiDPI screenshot)'),
  { id: 'fit', label: 'fit the whole image into one screen (text gets tiny)', choice: { kind: 'fit' } },
];

export const DEFAULT_SCALE = `text-${DEFAULT_TEXT_PX}`;
