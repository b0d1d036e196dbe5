/**
 * Goal marks: a description line is marked "=" when the goal holds its whole
 * quoted text, "+" when they share a content word, and left alone otherwise;
 * the marks reach the planner's prompt only when its config asks for them.
 */
import { describe, expect, it } from 'vitest';
import { goalMark, markScreen } from '../../src/text/goalMarks';
import { promptIds, promptTokenCount } from '../../src/models/plannerData';
import { defaultTokenizer } from '../../src/text/vocab';

const goal = 'Find a place to stay in Malaga for 2 guests';
const words = goal.toLowerCase().split(' ');

describe('goal marks', () => {
  it('marks whole texts, shared content words, and nothing else', () => {
    expect(goalMark('link "Malaga"', words)).toBe('=');
    expect(goalMark('dropdown "Guests" value="2 guests"', words)).toBe('=');
    expect(goalMark('button "Find stays"', words)).toBe('+');
    expect(goalMark('link "Osaka"', words)).toBe('');
    // "for" and "the" say nothing about which line the goal means.
    expect(goalMark('text "Stays for the weekend"', ['for', 'the'])).toBe('');
    expect(goalMark('icon heart', words)).toBe('');
  });

  it('marks only the lines it should, keeping the rest of the description byte for byte', () => {
    const screen = 'heading "Staybnb"\nsearch "Destination"\nlink "Malaga"\nbutton "Find stays"';
    expect(markScreen(goal, screen)).toBe('heading "Staybnb"\nsearch "Destination"\n= link "Malaga"\n+ button "Find stays"');
  });

  it('changes the prompt only when asked', () => {
    const tok = defaultTokenizer();
    const parts = { goal, screen: 'link "Malaga"\nlink "Osaka"', history: [] };
    expect(promptTokenCount(tok, parts, true)).toBeGreaterThan(promptTokenCount(tok, parts, false));
    expect(promptIds(tok, parts, 64, false)).not.toEqual(promptIds(tok, parts, 64, true));
    expect(tok.decode(promptIds(tok, parts, 64, true).filter((t) => t > 6))).toContain('= link "Malaga"');
  });
});
