/**
 * A form with labelled fields, either labels beside the fields or above
 * them, a checkbox with its label, and submit buttons; the instructions
 * printed above the form repeat a field's label and a button's words.
 */
import { ACTIONS, CHECK_LABELS, FIELD_LABELS, FIELD_VALUES, TOPICS } from '../vocab';
import { button, draw, field, hint, labelText, type PatternFn, type Plan } from './common';

export const form: PatternFn = (m, rng) => {
  const beside = rng.chance(0.5);
  const labels = draw(rng, FIELD_LABELS, 3);
  const [submit, cancel] = draw(rng, ACTIONS, 2);
  const check = rng.pick(CHECK_LABELS);
  const fields = labels.map((l) => ({ name: l, label: labelText(m, l, beside ? 'lbl w' : 'small'), field: field(m, l, !beside) }));
  const chkId = m.register({ role: 'checkbox', label: check, interactive: true });
  const chkLabel = labelText(m, check);
  const bSubmit = button(m, submit);
  const bCancel = button(m, cancel, { ghost: true });
  const typed = rng.pick(fields);
  const rows = fields.map((f) => (beside ? m.box('row', f.label.html + f.field.html) : m.box('col', f.label.html + f.field.html)));
  const html = [
    m.heading(`${rng.pick(TOPICS)} details`),
    m.text(`Enter ${typed.name.toLowerCase()}, then ${submit.label}.`, bSubmit.id),
    beside ? rows.join('') : m.box('row', rows.slice(0, 2).join('')) + rows[2],
    m.box('row', `<span class="chk" data-rs="${chkId}"></span>${chkLabel.html}`),
    m.box('row', bSubmit.html + bCancel.html),
    m.text(hint(rng, cancel.label), bCancel.id, 'small'),
  ].join('');
  const other = fields.find((f) => f !== typed) ?? typed;
  const plans: Plan[] = [
    {
      style: 'text',
      targetId: typed.field.id,
      ref: { style: 'text', text: typed.name, role: 'text-field' },
      type: { value: rng.pick(FIELD_VALUES) },
    },
    {
      style: 'relation',
      targetId: other.field.id,
      ref: { style: 'relation', role: 'text-field', relation: beside ? 'right of' : 'below', anchor: other.name },
    },
    { style: 'relation', targetId: chkId, ref: { style: 'relation', role: 'checkbox', relation: 'left of', anchor: check } },
    { style: 'text', targetId: bSubmit.id, ref: { style: 'text', text: submit.label, role: 'button' } },
    { style: 'function', targetId: bCancel.id, ref: { style: 'function', purpose: cancel.purpose } },
  ];
  return { html, plans };
};
