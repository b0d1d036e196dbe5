/**
 * A task template: how to sample a concrete task from an app's data, how to
 * say its goal, when it is reached, and how the oracle solves it (as
 * intents naming element ids; tasks/oracle.ts turns them into steps).
 */
import type { Random } from '../../learn/random';
import type { Domain, Platform } from '../types';

export type Params = Record<string, string>;

/** One oracle move, by element id. A list of ids means "the first that exists" (ids can differ by variant). */
export type Intent =
  | { do: 'click'; id: string | string[] }
  | { do: 'type'; id: string | string[]; text: string }
  | { do: 'select'; id: string | string[]; option: string }
  | { do: 'back' };

export interface TaskTemplate<S = unknown> {
  id: string; // '<app>.<what>'
  appId: string;
  platform: Platform;
  domain: Domain;
  /** Params drawn from the app's initial state, such that the goal is not yet reached; null if this state allows none. */
  sample(rng: Random, state: S): Params | null;
  phrasings: ((p: Params) => string)[];
  goal(p: Params, state: S): boolean;
  plan(p: Params, state: S): Intent[];
}

export type AnyTemplate = TaskTemplate<unknown>;

export function defineTemplate<S>(t: TaskTemplate<S>): AnyTemplate {
  if (t.phrasings.length < 2) throw new Error(`template ${t.id}: give at least two phrasings`);
  return t as unknown as AnyTemplate;
}

/** Helpers shared by templates. */
export const pct = (level: number) => `${Math.round(level * 100)}%`;
export const onOff = (on: boolean) => (on ? 'on' : 'off');
