import { test, expect, type Page } from '@playwright/test';
import { expectAccessible } from './ui-data-runs';

async function clickWhereTheOracleWould(page: Page) {
  const next = page.getByTestId('next-step');
  await expect(next).toHaveAttribute('data-type', 'CLICK');
  const x = Number(await next.getAttribute('data-x'));
  const y = Number(await next.getAttribute('data-y'));
  const frame = page.getByTestId('world-screen');
  const zoom = Number(await frame.getAttribute('data-zoom'));
  await frame.click({ position: { x: x * zoom, y: y * zoom } });
}

test('World view: clicking a button on the screen changes the screen, and the oracle path reaches the goal', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/?view=world&app=mail&task=mail.compose&seed=3&backend=wasm');
  const state = page.getByTestId('world-state');
  await expect(state).toHaveAttribute('data-actions', '0');
  const before = await state.getAttribute('data-screen-id');

  await clickWhereTheOracleWould(page); // the Compose button
  await expect(state).toHaveAttribute('data-actions', '1');
  expect(await state.getAttribute('data-screen-id')).not.toBe(before);

  // The remaining steps with the "Do it" button: the goal predicate says when it is reached.
  for (let i = 0; i < 10 && (await page.getByTestId('goal-reached').count()) === 0; i++) {
    await page.getByTestId('next-step').getByRole('button', { name: 'Do it' }).click();
  }
  await expect(page.getByTestId('goal-reached')).toBeVisible();
  await expect(page.getByTestId('next-step')).toHaveAttribute('data-kind', 'reached');

  await page.getByTestId('reset').click();
  await expect(state).toHaveAttribute('data-actions', '0');
  expect(errors).toEqual([]);
});

test('World view: the URL keeps the chosen app, task and seed across a reload', async ({ page }) => {
  await page.goto('/?view=world&backend=wasm');
  await page.getByTestId('world-template').selectOption('mail.search');
  await page.reload();
  await expect(page.getByTestId('world-template')).toHaveValue('mail.search');
  expect(page.url()).toContain('task=mail.search');
});

test('World view: no serious or critical accessibility violations', async ({ page }) => {
  await page.goto('/?view=world&app=mail&task=mail.compose&seed=3&backend=wasm');
  await expect(page.getByTestId('world-state')).toHaveAttribute('data-actions', '0');
  await expectAccessible(page, 'main');
});
