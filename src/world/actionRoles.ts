/**
 * Which widgets each targeted action can change. The world acts by these
 * (env.ts): typing into a button or choosing an option of a checkbox changes
 * nothing, so an instruction that asks for it can never be carried out.
 */
import type { ActionType, Role } from './types';

/** Roles that take typed text. */
export const TYPED_ROLES: ReadonlySet<Role> = new Set(['text-field', 'search-box']);
/** Roles that take a chosen option or level (an option stands for its dropdown). */
export const SELECTED_ROLES: ReadonlySet<Role> = new Set(['dropdown', 'slider', 'option']);

/** The targeted actions (CLICK, TYPE, SELECT) an element of `role` can take: a click lands on anything. */
export function actionsOn(role: Role): ActionType[] {
  return ['CLICK', ...(TYPED_ROLES.has(role) ? (['TYPE'] as const) : []), ...(SELECTED_ROLES.has(role) ? (['SELECT'] as const) : [])];
}
