/**
 * Reward checks: answers to exported rows with the rewards the TypeScript
 * code gives them, written as reward_checks.jsonl beside rewards.py, so that
 * `python3 rewards.py --check reward_checks.jsonl` recomputes every one from
 * the exported row's own columns and reports the largest difference. The
 * parity test runs it; anyone can rerun it on any export.
 *
 * Answers per row are chosen to reach every branch: inside, on and off the
 * box, off the screen, malformed points; the true instruction with the pool
 * hitting, half hitting and absent, the wrong action, a wrong value, text
 * that does not parse, and the true one in other case and spacing. Recorded
 * GRPO groups add the run's own instructions with the run's own groundings.
 */
import type { GroupRecord } from '../coevo/groupRecords';
import type { PlanWeighting } from '../learn/rewards';
import { parseInstruction, printInstruction } from '../text/grammar';
import { gradeGrounding, gradePlan, printPoint, type PlanGrade } from './answers';
import type { Json, RewardColumns } from './types';

/** What one pool grounder answered for the instruction, as the Python recorded pool replays it. */
export interface CheckGrounding {
  name: string;
  prior: number;
  point: [number, number] | null;
  confidence: number;
}

export interface RewardCheck {
  /** The exported file and 0-based row whose columns the reward reads; null for a worked example whose columns are inline. */
  file: string | null;
  row: number | null;
  columns?: RewardColumns;
  reward: 'grounding' | 'plan';
  completion: string;
  pool?: CheckGrounding[];
  weighting?: PlanWeighting;
  expected: { format: number; point: number; total: number } | PlanGrade;
}

const toBox = (b: RewardColumns['target_box']) => (b ? { x: b[0], y: b[1], w: b[2], h: b[3] } : undefined);

export function groundingChecks(file: string, row: number, c: RewardColumns): RewardCheck[] {
  const box = toBox(c.target_box);
  if (!box) return [];
  const screen = { width: c.screen_width, height: c.screen_height };
  const answers = [
    printPoint(box.x + box.w / 2, box.y + box.h / 2),
    printPoint(box.x + box.w, box.y), // the corner: edges count as inside
    printPoint(box.x + box.w + 3, box.y + box.h / 2),
    '(0, 0)',
    `(${screen.width - 1}, ${screen.height - 1})`,
    '( -20 , 5000 )',
    '(12.5, 7.25)',
    'click at 3, 4',
  ];
  return answers.map((completion) => {
    const r = gradeGrounding(completion, box, screen);
    return { file, row, reward: 'grounding', completion, expected: { format: r.format, point: r.point, total: r.total } };
  });
}

/** A fraction in [0, 1) that differs from row to row, so confidences are not all alike. */
const frac = (n: number) => (n * 0.6180339887) % 1;

export function planChecks(file: string, row: number, c: RewardColumns): RewardCheck[] {
  const box = toBox(c.target_box);
  const truth = { type: c.action_type as Parameters<typeof gradePlan>[1]['type'], value: c.action_value ?? undefined, box };
  const centre: [number, number] | null = box ? [box.x + box.w / 2, box.y + box.h / 2] : null;
  const hit = (name: string, prior: number, confidence: number): CheckGrounding => ({ name, prior, point: centre, confidence });
  const miss = (name: string, prior: number, confidence: number): CheckGrounding => ({ name, prior, point: [1, 1], confidence });
  const cases: { completion: string; pool: CheckGrounding[]; weighting?: PlanWeighting }[] = [
    { completion: c.instruction, pool: [hit('verifier', 1, 0.3 + 0.6 * frac(row + 1)), miss('grounder', 2, 0.8)] },
    { completion: c.instruction, pool: [hit('verifier', 1, 0.5), hit('grounder', 2, frac(row + 7))], weighting: 'uniform' },
    { completion: c.instruction, pool: [miss('verifier', 1, 0.9), hit('grounder', 2, 0.4)], weighting: 'prior' },
    { completion: c.instruction, pool: [] },
    { completion: `  ${c.instruction.toUpperCase()} .`, pool: [hit('verifier', 1, 0.7), { name: 'grounder', prior: 2, point: null, confidence: 0 }] },
    { completion: c.action_type === 'BACK' ? 'done' : 'go back', pool: [hit('verifier', 1, 0.7)] },
    { completion: 'blorp the frobnicator', pool: [hit('verifier', 1, 0.7)] },
  ];
  const changed = withOtherValue(c.instruction);
  if (changed) cases.push({ completion: changed, pool: [hit('verifier', 1, 0.6), hit('grounder', 2, 0.6)] });
  return cases.map(({ completion, pool, weighting }) => ({
    file,
    row,
    reward: 'plan',
    completion,
    pool,
    ...(weighting ? { weighting } : {}),
    expected: gradePlan(completion, truth, pool.map((g) => ({ point: g.point && { x: g.point[0], y: g.point[1] }, confidence: g.confidence, prior: g.prior })), weighting),
  }));
}

/** The instruction with another typed value or option (a wrong value), when it carries one. */
function withOtherValue(text: string): string | null {
  const i = parseInstruction(text);
  if (!i || i.value === undefined) return null;
  return printInstruction({ ...i, value: `${i.value} extra words here` });
}

/** The recorded GRPO groups' samples: the run's own instructions and groundings, as worked examples. */
export function groupChecks(groups: readonly GroupRecord[]): RewardCheck[] {
  const out: RewardCheck[] = [];
  for (const g of groups) {
    const b = g.truth.box;
    const columns: RewardColumns = {
      coevo_id: `${g.runId}/group/${g.iteration}/${g.batch}/${g.group}`,
      task_kind: 'planning',
      action_type: g.truth.type,
      action_value: g.truth.value ?? null,
      target_box: b ? [b.x, b.y, b.w, b.h] : null,
      screen_width: g.screen.width,
      screen_height: g.screen.height,
      instruction: g.truth.instruction,
    };
    for (const s of g.samples) {
      // Unparsed samples were not grounded; the pool then answers nothing.
      const pool: CheckGrounding[] = g.pool.map((m, j) => {
        const gr = s.groundings[j];
        return { name: m.name, prior: m.prior, point: gr?.point ? [gr.point.x, gr.point.y] : null, confidence: gr?.confidence ?? 0 };
      });
      const truth = { type: g.truth.type, value: g.truth.value, box: b };
      const expected = gradePlan(s.instruction, truth, pool.map((p) => ({ point: p.point && { x: p.point[0], y: p.point[1] }, confidence: p.confidence, prior: p.prior })), g.weighting);
      out.push({ file: null, row: null, columns, reward: 'plan', completion: s.instruction, pool, weighting: g.weighting, expected });
    }
  }
  return out;
}

/** METHOD.md §3's worked numbers and the plan reward's branches, with inline columns. */
export function workedChecks(): RewardCheck[] {
  const screen = { screen_width: 1000, screen_height: 1000 };
  const grounding: RewardColumns = { coevo_id: 'worked/point', task_kind: 'grounding', action_type: 'CLICK', action_value: null, target_box: [400, 400, 200, 200], ...screen, instruction: 'click the "OK" button' };
  const points = ['(500, 500)', '(600, 500)', '(800, 500)', '(1000, 1000)', '(500,500)', '500, 500'];
  const out: RewardCheck[] = points.map((completion) => {
    const r = gradeGrounding(completion, { x: 400, y: 400, w: 200, h: 200 }, { width: 1000, height: 1000 });
    return { file: null, row: null, columns: grounding, reward: 'grounding', completion, expected: { format: r.format, point: r.point, total: r.total } };
  });
  const typing: RewardColumns = { coevo_id: 'worked/type', task_kind: 'planning', action_type: 'TYPE', action_value: 'Lunch on Friday', target_box: [10, 10, 100, 20], ...screen, instruction: 'type "Lunch on Friday" into the "Subject" text field' };
  const scrolling: RewardColumns = { coevo_id: 'worked/scroll', task_kind: 'planning', action_type: 'SCROLL', action_value: 'down', target_box: null, ...screen, instruction: 'scroll down' };
  const both: CheckGrounding[] = [
    { name: 'a', prior: 1, point: [50, 20], confidence: 0.9 },
    { name: 'b', prior: 2, point: [50, 20], confidence: 0.2 },
  ];
  const first: CheckGrounding[] = [both[0], { ...both[1], point: [500, 500] }];
  for (const [columns, completion, pool] of [
    [typing, 'type "Lunch on Friday" into the "Subject" text field', both],
    [typing, 'type "Lunch on Friday" into the "Subject" text field', first],
    [typing, 'type "Dinner" into the "Subject" text field', both],
    [typing, 'type "Lunch Friday" into the "Subject" text field', first],
    [typing, 'blorp the frobnicator', both],
    [scrolling, 'scroll down', []],
    [scrolling, 'scroll up', []],
    [scrolling, 'go back', []],
  ] as [RewardColumns, string, CheckGrounding[]][]) {
    const b = columns.target_box;
    const truth = { type: columns.action_type as 'TYPE', value: columns.action_value ?? undefined, box: b ? { x: b[0], y: b[1], w: b[2], h: b[3] } : undefined };
    const expected = gradePlan(completion, truth, pool.map((p) => ({ point: p.point && { x: p.point[0], y: p.point[1] }, confidence: p.confidence, prior: p.prior })));
    out.push({ file: null, row: null, columns, reward: 'plan', completion, pool, expected });
  }
  return out;
}

export function checkLines(checks: readonly RewardCheck[]): Json[] {
  return checks.map((c) => JSON.parse(JSON.stringify(c)) as Json);
}
