import { describe, expect, it } from 'vitest';
import { PHASES } from '../../src/coevo/records';
import { VIEW_NAMES } from '../../src/ui/url';
import { CARDS, cardFor, cardForPhase, cardForView, cardIndex, cardLink, cardView, enterCard, leaveCard, paragraphs, type DiagramPart } from '../../src/ui/explain/cards';
import { demoScene, FINISHED_TOUR, LOOP_MS, VIEW_MS } from '../../src/ui/demo/scenes';

describe('explain cards', () => {
  it('has exactly one card per phase and per view, with unique ids and real text', () => {
    for (const p of PHASES) expect(CARDS.filter((c) => 'phase' in c.about && c.about.phase === p)).toHaveLength(1);
    for (const v of VIEW_NAMES) expect(CARDS.filter((c) => 'view' in c.about && c.about.view === v)).toHaveLength(1);
    expect(new Set(CARDS.map((c) => c.id)).size).toBe(CARDS.length);
    for (const c of CARDS) {
      expect(c.title.length).toBeGreaterThan(5);
      expect(paragraphs(c).length).toBeGreaterThan(0);
      for (const p of paragraphs(c)) expect(p.length).toBeGreaterThan(40);
    }
  });

  it('opens on the running phase in the loop view and on the view card elsewhere', () => {
    expect(cardFor('loop', 'distill')).toBe(cardForPhase('distill'));
    expect(cardFor('loop', null)).toBe(cardForView('loop'));
    expect(cardFor('grpo', 'distill')).toBe(cardForView('grpo'));
    expect(cardIndex(cardForView('loop').id)).toBe(0);
    expect(cardIndex('no-such-card')).toBe(-1);
  });

  it('lights the parts a card names while it shows, and clears them when it leaves', () => {
    let lit: readonly DiagramPart[] = [];
    const ctx = { highlight: (p: readonly DiagramPart[]) => (lit = p) };
    const card = cardForPhase('planner-grpo');
    enterCard(card, ctx);
    expect(lit).toContain('planner-grpo');
    expect(lit).toContain('grounder');
    leaveCard(card, ctx);
    expect(lit).toEqual([]);
    const calls: string[] = [];
    enterCard({ ...card, enter: () => calls.push('enter') }, ctx);
    leaveCard({ ...card, leave: () => calls.push('leave') }, ctx);
    expect(calls).toEqual(['enter', 'leave']);
  });
});

describe('demo scenes', () => {
  it('shows the loop with the phase card first, then the phase\'s view, then the loop again', () => {
    expect(demoScene('planner-grpo', 0)).toEqual({ view: 'loop', cardId: 'phase:planner-grpo' });
    expect(demoScene('planner-grpo', LOOP_MS + 1)).toEqual({ view: 'grpo', cardId: 'view:grpo' });
    expect(demoScene('planner-grpo', LOOP_MS + VIEW_MS + 1)).toEqual({ view: 'loop', cardId: 'phase:planner-grpo' });
    expect(demoScene('seed-data', LOOP_MS).view).toBe('data');
    // A clock tick from just before the phase began is its start.
    expect(demoScene('distill', -300).view).toBe('loop');
  });

  it('walks a finished run view by view, starting on its metrics, and round again', () => {
    expect(demoScene(null, 0)).toEqual({ view: 'metrics', cardId: 'view:metrics' });
    const shown = FINISHED_TOUR.map((_, i) => demoScene(null, i * VIEW_MS + 1).view);
    expect(shown).toEqual(['metrics', 'grpo', 'grounder', 'data', 'playground']);
    expect(demoScene(null, FINISHED_TOUR.length * VIEW_MS + 1)).toEqual({ view: 'metrics', cardId: 'view:metrics' });
    expect(demoScene(null, VIEW_MS + 1).cardId).toBe('view:grpo');
  });
});

describe('explain card links', () => {
  it('every card links to the view it describes: a view card to itself, a phase card to where its output shows', () => {
    expect(cardView(cardForView('grpo'))).toBe('grpo');
    expect(cardView(cardForPhase('seed-data'))).toBe('data');
    expect(cardView(cardForPhase('planner-grpo'))).toBe('grpo');
    expect(cardLink(cardForPhase('evaluate'))).toBe('Open the Metrics view');
    for (const c of CARDS) expect(VIEW_NAMES).toContain(cardView(c));
  });
});
