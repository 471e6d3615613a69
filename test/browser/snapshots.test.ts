// Snapshot tables in Chromium on the workbench: insert a snapshot from the Metrics tab, restate a value
// in the emulator, click "Refresh snapshots", and find the new value in the table and the change in the
// Changes sheet (the runtime's cells, and the emulator's own record of the value).

import type { Frame } from 'playwright-core';
import { useWorkbenchPage } from '../support/browser';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });

async function finalStatus(frame: Frame): Promise<string> {
  await frame.waitForFunction(() => {
    const panel = document.querySelector('#panel-metrics')!;
    return !panel.hasAttribute('aria-busy') && /\b(success|warning|error|partial)\b/.test(document.querySelector('#metrics-status')!.className);
  });
  return (await frame.textContent('#metrics-status')) ?? '';
}

type Session = typeof session;

/** Selects `a1` on Sheet1 of `on`'s workbench, reloads until the grid has its cells, and lists the company's metrics in the sidebar. */
async function metricsListedAt(a1: string, on: Session = session): Promise<Frame> {
  await on.page.evaluate(async (cell) => {
    const response = await fetch('/api/select', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sheet: 'Sheet1', a1: cell }),
    });
    if (!response.ok) throw new Error(await response.text());
  }, a1);
  await on.page.reload({ waitUntil: 'networkidle' });
  const frame = await on.sidebar();
  await frame.click('#browse-form button[type="submit"]');
  expect(await finalStatus(frame)).toMatch(/metrics? loaded\.$/);
  return frame;
}

type GridCell = { d: string } | null;

async function sheetRows(sheet: string, count: number): Promise<string[][]> {
  return session.page.evaluate(
    async ([name, n]) => {
      const page = (await (await fetch(`/api/grid/cells?sheet=${encodeURIComponent(name)}&row=1&count=${n}`)).json()) as { rows: Array<Array<GridCell>> };
      return page.rows.map((row) => row.map((cell) => cell?.d ?? ''));
    },
    [sheet, count] as const,
  );
}

it('inserts a snapshot, lists it, and refreshes it from the sidebar: the restated value in its cell and in the Changes sheet', async () => {
  const { workbench, page } = session;
  const created = await workbench.control.fixtures({
    metrics: [{ company_id: workbench.companyId, name: 'Browser snapshot metric', frequency: 'monthly', unit: 'number' }],
  });
  const metric = created.metrics[0]!.id;
  await workbench.control.fixtures({
    data_points: ['2024-01-01', '2024-02-01', '2024-03-01'].map((date, i) => ({ metric_id: metric, date, value: String(10 + i) })),
  });
  // An empty corner of Sheet1.
  const frame = await metricsListedAt('M2');
  await frame.check(`#metric-${metric}`);
  await frame.check('#mode-snapshot');
  await frame.check('#insert-headers');
  await frame.fill('#insert-start', '2024-01-01');
  await frame.fill('#insert-end', '2024-03-31');
  await frame.click('#insert-form button[type="submit"]');
  expect(await finalStatus(frame)).toMatch(/^Wrote 3 rows of values to Sheet1!M2:N5\./);
  expect(await frame.textContent('#snapshot-list')).toContain('Sheet1!M2:N5');
  expect(await frame.textContent('#snapshot-list')).toContain('Browser snapshot metric · 2024-01-01 to 2024-03-31');

  await workbench.control.fixtures({
    data_points: [{ metric_id: metric, date: '2024-02-01', value: '77', source: { source_type: 'update_request', label: 'Browser restatement' } }],
  });
  await frame.click('#refresh-snapshots');
  expect(await finalStatus(frame)).toBe('Refreshed 1 of 1 snapshot; 1 value changed (listed in "Changes").');
  expect(await frame.getAttribute('#metrics-status', 'class')).toContain('success');
  expect(await frame.textContent('#snapshot-list')).toContain('refreshed');

  // The emulator's value is what the table (a number unit: two decimals) and the Changes row show.
  const held = (await workbench.control.state()).data_points.find((p) => p.metric_id === metric && p.date === '2024-02-01')!;
  expect(held.value).toBe('77');
  const table = await sheetRows('Sheet1', 5);
  expect(table.map((row) => row.slice(12, 14))).toEqual([
    ['', ''],
    ['Date', 'Browser snapshot metric'],
    ['1/1/2024', '10.00'],
    ['2/1/2024', `${held.value}.00`],
    ['3/1/2024', '12.00'],
  ]);
  const changes = await sheetRows('Changes', 3);
  expect(changes[0]!.slice(0, 8)).toEqual(['Time', 'Metric', 'Period', 'Old value', 'New value', 'Source', 'Refresh', 'Range']);
  expect(changes[1]!.slice(1, 8)).toEqual([
    'Browser snapshot metric',
    '2024-02-01',
    '11',
    held.value,
    'update_request: Browser restatement',
    'Refresh snapshots (sidebar)',
    'Sheet1!M2:N5',
  ]);
  expect(changes[2]!.every((cell) => cell === '')).toBe(true);
  // The person stays on their sheet, and the record's hidden sheet has no tab.
  const tabs = await page.locator('.tabs button').allTextContents();
  expect(tabs).toContain('Changes');
  expect(tabs).not.toContain('Portfolio Metrics snapshots');

  // An editor rewrites the record's signature cell: the refresh refuses it, and the list says it is not yours to refresh.
  await page.evaluate(async () => {
    const body = JSON.stringify({ sheet: 'Portfolio Metrics snapshots', a1: 'C2', input: 'forged' });
    const response = await fetch('/api/cell', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (!response.ok) throw new Error(await response.text());
  });
  await frame.click('#refresh-snapshots');
  expect(await finalStatus(frame)).toMatch(
    /^Refreshed 0 of 1 snapshot; 0 values changed\. The definition of the snapshot recorded at Sheet1!M2:N5 was changed by someone else/,
  );
  expect(await frame.getAttribute('#metrics-status', 'class')).toContain('warning');
  expect(await frame.textContent('#snapshot-list')).toContain('not refreshed for you: inserted by someone else or changed since (insert it again)');
});

// A workbench of its own: its snapshot must not be among those the other tests refresh, whatever the order.
describe('number formats', () => {
  const own = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });

  it("shows a snapshot's values in the grid as money, percentage points and numbers with separators, and its dates in the one date format", async () => {
    const { workbench, page } = own;
    const created = await workbench.control.fixtures({
      metrics: [
        { company_id: workbench.companyId, name: 'Browser revenue', frequency: 'monthly', unit: 'USD' },
        { company_id: workbench.companyId, name: 'Browser margin', frequency: 'monthly', unit: 'percent' },
        { company_id: workbench.companyId, name: 'Browser users', frequency: 'monthly', unit: 'number' },
      ],
    });
    const [revenue, margin, users] = created.metrics.map((m) => m.id) as [string, string, string];
    await workbench.control.fixtures({
      data_points: [
        { metric_id: revenue, date: '2024-01-01', value: '61372.9266666667' },
        { metric_id: margin, date: '2024-01-01', value: '62.3' },
        { metric_id: users, date: '2024-01-01', value: '1365834.0' },
      ],
    });
    const frame = await metricsListedAt('B8', own);
    for (const id of [revenue, margin, users]) await frame.check(`#metric-${id}`);
    await frame.check('#mode-snapshot');
    await frame.fill('#insert-start', '2024-01-01');
    await frame.fill('#insert-end', '2024-01-31');
    await frame.click('#insert-form button[type="submit"]');
    expect(await finalStatus(frame)).toMatch(/^Wrote 1 row of values to Sheet1!B8:E9\./);

    // What the page draws, cell by cell.
    // The date as Sheets shows a date (a formula's too), each number in its metric's unit.
    const shown = ['1/1/2024', '$61,372.93', '62.30%', '1,365,834.00'];
    const cells = ['B9', 'C9', 'D9', 'E9'];
    // Read in one look once all four are drawn: the grid may draw its page again (empty until its cells arrive)
    // between one read and the next.
    const drawn = await (
      await page.waitForFunction(
        (a1s) => {
          const texts = a1s.map((a1) => document.querySelector(`td[data-a1="${a1}"]`)?.textContent ?? '');
          return texts.every((text) => text !== '') && texts;
        },
        [...cells, 'C8'],
      )
    ).jsonValue();
    expect(drawn).toEqual([...shown, 'Browser revenue']);
  });
});

it('schedules a refresh from the sidebar and turns it off: one trigger of the person, then none', async () => {
  const { page } = session;
  await page.reload({ waitUntil: 'networkidle' });
  const frame = await session.sidebar();
  const triggers = (): Promise<Array<{ handlerFunction: string; owner: string }>> => page.evaluate(async () => (await fetch('/api/triggers')).json());
  expect(await triggers()).toEqual([]);

  await frame.selectOption('#schedule-frequency', 'daily');
  await frame.click('#schedule-refresh');
  expect(await finalStatus(frame)).toMatch(/^Your snapshots here are refreshed every day with your connection\. It has not run yet\.$/);
  expect(await frame.textContent('#schedule-status')).toMatch(/refreshed every day/);
  expect(await triggers()).toEqual([expect.objectContaining({ handlerFunction: 'runScheduledSnapshotRefresh' })]);

  // Rescheduling replaces it: still one.
  await frame.selectOption('#schedule-frequency', 'hourly');
  await frame.click('#schedule-refresh');
  expect(await finalStatus(frame)).toMatch(/refreshed every hour/);
  expect(await triggers()).toHaveLength(1);

  await frame.click('#cancel-refresh');
  expect(await finalStatus(frame)).toMatch(/^Scheduled refresh is off/);
  expect(await frame.getAttribute('#schedule-status', 'data-state')).toBe('off');
  expect(await triggers()).toEqual([]);
});
