/**
 * What the grammar constraint (text/instructionConstraint.ts) may quote on a
 * state: the texts the screen shows and the goal, the values its dropdowns
 * and sliders can be set to, for the function style
 * what the screen's elements are for, and the visible elements a reference
 * with a role may name (its role word paired with that element's text or icon)
 * for the actions that element can take (none for an element that is not
 * interactive).
 */
import { goalSpans, rowConstraint, type ConstraintSource, type Referent, type RowConstraint } from '../text/instructionConstraint';
import { ROLE_WORDS } from '../text/phrasings';
import { ICON_WORDS } from '../world/icons';
import { rolesNaming, visibleElements } from '../world/verifier';
import { actionsOn, SELECTED_ROLES, TYPED_ROLES } from '../world/actionRoles';
import type { Tokenizer } from '../text/tokenizer';
import type { ActionType, Role, Screen } from '../world/types';

/** Every text the screen shows: element texts, labels and values. */
function screenTexts(screen: Screen): string[] {
  return screen.elements.flatMap((e) => [e.text, e.label, e.state.value].filter((t): t is string => t !== undefined));
}

/** A slider takes any whole percentage (world/env.ts reads "70%"). */
const PERCENTAGES = Array.from({ length: 101 }, (_, i) => `${i}%`);

/** What a SELECT may choose beyond the screen's texts: visible dropdowns' options, and percentages where a slider shows. */
function screenChoices(screen: Screen, shown = visibleElements(screen)): string[] {
  const options = shown.flatMap((e) => (e.role === 'dropdown' ? (e.options ?? []) : []));
  return shown.some((e) => e.role === 'slider') ? [...options, ...PERCENTAGES] : options;
}

/**
 * The actions an instruction may ask of an element of `role`: a field takes
 * its text by TYPE and a dropdown or slider its choice by SELECT, each one
 * step that lands on the element itself, so a click there (a focus, an
 * opened list) is only half of one; every other element takes a click.
 */
function instructedActions(role: Role): ActionType[] {
  // An open list's option keeps its click: it stands for its dropdown's SELECT but is clicked where it shows.
  const oneStep = TYPED_ROLES.has(role) || (SELECTED_ROLES.has(role) && role !== 'option');
  return oneStep ? actionsOn(role).filter((a) => a !== 'CLICK') : actionsOn(role);
}

export function constraintSource(screen: Screen, goal: string): ConstraintSource {
  const purposes = screen.elements.flatMap((e) => (e.purpose ? [e.purpose] : []));
  const shown = visibleElements(screen);
  const referents: Referent[] = shown.map((e) => ({
    texts: [e.text, e.label].filter((t): t is string => t !== undefined),
    ...(e.icon ? { icon: ICON_WORDS[e.icon] } : {}),
    roleWords: rolesNaming(e.role).map((r) => ROLE_WORDS[r]),
    // A heading or a plain text takes no action, and no oracle step in any split targets one.
    actions: e.interactive ? instructedActions(e.role) : [],
  }));
  return { goal, screenTexts: screenTexts(screen), purposes, referents, choices: screenChoices(screen, shown) };
}

/** One constraint per (screen, goal), shared by the rows that decode it (a GRPO group). */
export function screenConstraints(tok: Tokenizer, items: readonly { screen: Screen; goal: string }[], opts: { cot?: boolean } = {}): RowConstraint[] {
  const made = new Map<object, RowConstraint>();
  return items.map(({ screen, goal }) => {
    const key = made.get(screen);
    if (key) return key;
    const c = rowConstraint(tok, constraintSource(screen, goal), opts);
    made.set(screen, c);
    return c;
  });
}

/** The spans an instruction quotes, unescaped. */
export function quotedSpans(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
}

/** Whether every span `instruction` quotes is a text or choice of the screen or a span of the goal: what the constraint promises. */
export function quotesOnlyScreenOrGoal(instruction: string, screen: Screen, goal: string): boolean {
  const spans = quotedSpans(instruction);
  if (spans.length === 0) return true;
  const shown = new Set([...screenTexts(screen), ...screenChoices(screen)]);
  const fromGoal = new Set(goalSpans(goal));
  return spans.every((q) => shown.has(q) || fromGoal.has(q));
}
