/**
 * The automation API on window.coevo: what headless runs and Playwright tests
 * use to drive the real app through the same worker the UI uses.
 */
import { getEngine } from './engine';
import type { StepCheckOptions, StepCheckResult } from '../../workers/api';

export interface CoevoAutomation {
  stepCheck(options: StepCheckOptions): Promise<StepCheckResult>;
}

declare global {
  interface Window {
    coevo?: CoevoAutomation;
  }
}

export function installAutomation(): void {
  window.coevo = {
    stepCheck: (options) => getEngine().runStepCheck(options),
  };
}
