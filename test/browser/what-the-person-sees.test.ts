// What the person sees is exactly as good or bad as what happened: a toast once and in view, and controls
// wide enough to read.

import { useWorkbenchPage } from '../support/browser';

jest.setTimeout(60_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 800 });

it('shows a toast once, in view above the grid, and not again after a reload', async () => {
  await session.page.waitForSelector('#menu button');
  await session.page.click('#menu button:text-is("Refresh data")');
  const toast = session.page.locator('#toast');
  await toast.waitFor({ state: 'visible' });
  expect(await toast.textContent()).toBe('No add-in formulas to refresh in this spreadsheet.');
  // In view and on top: the point at its middle is the toast, not a row number or a header drawn over it.
  const box = (await toast.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  const onTop = await session.page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.id, [box.x + 5, box.y + box.height / 2]);
  expect(onTop).toBe('toast');

  await session.page.reload({ waitUntil: 'networkidle' });
  await session.page.waitForFunction(() => Boolean((window as unknown as { workbenchGrid: { shape(): unknown } }).workbenchGrid.shape()));
  expect(await toast.isVisible()).toBe(false);
});

it('gives the scheduled refresh choice room to show "every hour"', async () => {
  const frame = await session.sidebar();
  await frame.click('#tab-metrics');
  const select = frame.locator('#schedule-frequency');
  await select.scrollIntoViewIfNeeded();
  // The select is as wide as its longest choice needs: nothing of "every week" is cut.
  const fits = await select.evaluate((element: HTMLSelectElement) => {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(element).font;
    probe.textContent = 'every week';
    document.body.appendChild(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    return element.getBoundingClientRect().width >= needed + 24; // the arrow and padding
  });
  expect(fits).toBe(true);
});
