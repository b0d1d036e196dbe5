/**
 * What the grammar constraint (text/instructionConstraint.ts) may quote on a
 * state: the texts the screen shows and the goal, the values its dropdowns
 * and sliders can be set to, for the function style
 * what the screen's elements are for, and the visible elements a reference
 * with a role may name (its role word paired with that element's text or icon)
 * for the actions that element can take (none for an element that is not
 * interactive, no click by the text and role an earlier step clicked it by).
 */
import { goalSpans, rowConstraint, type ConstraintSource, type Referent, type RowConstraint } from '../text/instructionConstraint';
import { ROLE_WORDS } from '../text/phrasings';
import { ICON_WORDS } from '../world/icons';
import { rolesNaming, visibleElements } from '../world/verifier';
import { actionsOn, SELECTED_ROLES, TYPED_ROLES } from '../world/actionRoles';
import { parseInstruction } from '../text/grammar';
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

/** The (text, role) pairs that earlier instructions clicked by: `click the "Travel" link` gives ("Travel", link). */
function clickedPairs(history: readonly string[]): { text: string; role: Role }[] {
  return history.flatMap((line) => {
    const i = parseInstruction(line);
    return i?.action === 'CLICK' && i.ref?.style === 'text' && i.ref.role ? [{ text: i.ref.text, role: i.ref.role }] : [];
  });
}

export function constraintSource(screen: Screen, goal: string, history: readonly string[] = []): ConstraintSource {
  const purposes = screen.elements.flatMap((e) => (e.purpose ? [e.purpose] : []));
  const shown = visibleElements(screen);
  const clicked = clickedPairs(history);
  const referents: Referent[] = shown.map((e) => {
    const texts = [e.text, e.label].filter((t): t is string => t !== undefined);
    const naming = rolesNaming(e.role);
    // Repeating a step is a miss: no oracle step in 8,000 training states or any split clicks a text-and-role pair a history step clicked.
    const clickedBy = clicked.filter((c) => texts.includes(c.text) && naming.includes(c.role)).map((c) => c.text);
    return {
      texts,
      ...(e.icon ? { icon: ICON_WORDS[e.icon] } : {}),
      roleWords: naming.map((r) => ROLE_WORDS[r]),
      // A heading or a plain text takes no action, and no oracle step in any split targets one.
      actions: e.interactive ? instructedActions(e.role) : [],
      ...(clickedBy.length > 0 ? { clickedBy } : {}),
    };
  });
  return { goal, screenTexts: screenTexts(screen), purposes, referents, choices: screenChoices(screen, shown) };
}

/** What a row's constraint depends on: the screen, the goal and the steps taken. */
export interface ConstraintItem {
  screen: Screen;
  goal: string;
  history?: readonly string[];
}

/** One constraint per (screen, goal, history), shared by the rows that decode it (a GRPO group). */
export function screenConstraints(tok: Tokenizer, items: readonly ConstraintItem[], opts: { cot?: boolean } = {}): RowConstraint[] {
  const made = new Map<Screen, Map<string, RowConstraint>>();
  return items.map(({ screen, goal, history = [] }) => {
    const byScreen = made.get(screen) ?? new Map<string, RowConstraint>();
    made.set(screen, byScreen);
    const key = `${goal}\n${history.join('\n')}`;
    const hit = byScreen.get(key);
    if (hit) return hit;
    const c = rowConstraint(tok, constraintSource(screen, goal, history), opts);
    byScreen.set(key, c);
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
