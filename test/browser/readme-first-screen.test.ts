// The README's three first steps, taken as a newcomer takes them: open the workbench, paste the token the
// page shows into Settings, type the README's formula into A1; the cell shows the README's value.

import type { Frame } from 'playwright-core';
import { gridSettled, useWorkbenchPage } from '../support/browser';
import { readmePromise } from '../support/readme';

jest.setTimeout(90_000);

// No --preset-token: step 2 is part of what is tested.
const session = useWorkbenchPage([], { width: 1280, height: 800 });

it('takes the three steps of the README to the value it prints', async () => {
  const promise = readmePromise();
  // Step 1 is the page itself. Step 2: the token the page shows is the one the README names.
  const shown = (await session.page.textContent('#demo-token')) ?? '';
  expect(shown).toBe(promise.token);
  const frame: Frame = await session.sidebar();
  await frame.click('#tab-settings');
  await frame.fill('#token', shown);
  await frame.click('#settings-form button[type="submit"]');
  await frame.waitForFunction(() => /^Saved/.test(document.querySelector('#settings-status')?.textContent ?? ''));

  // Step 3.
  await session.page.click('td[data-a1="A1"]');
  await session.page.waitForSelector('td.active[data-a1="A1"]');
  await session.page.fill('#formula', promise.formula);
  await session.page.press('#formula', 'Enter');
  // The grid draws the formula as typed at once: wait for the server's answer and the cells drawn from it.
  await session.page.evaluate(() => (window as unknown as { workbenchGrid: { written(): Promise<void> } }).workbenchGrid.written());
  await gridSettled(session.page);
  expect(await session.page.textContent('td[data-a1="A1"]')).toBe(promise.value);
});
