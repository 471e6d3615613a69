// The fund grid in Chromium on the workbench: load the demo fund's metric names in the Portfolio tab,
// tick one, build the "Reporting coverage" sheet, and check each status against the emulator's points.

import { companyLabels } from '../../src/core/formulas/fund-cells';
import type { Frame } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { useWorkbenchPage } from '../support/browser';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });

async function finalStatus(frame: Frame): Promise<string> {
  await frame.waitForFunction(() => {
    const panel = document.querySelector('#panel-portfolio')!;
    return !panel.hasAttribute('aria-busy') && /\b(success|warning|error|partial)\b/.test(document.querySelector('#portfolio-status')!.className);
  });
  return (await frame.textContent('#portfolio-status')) ?? '';
}

type GridCell = { d: string } | null;

/** The coverage sheet's rows as the server stores them (the runtime's sheet). */
async function sheetRows(count: number): Promise<string[][]> {
  return session.page.evaluate(async (n) => {
    const page = (await (await fetch(`/api/grid/cells?sheet=${encodeURIComponent('Reporting coverage')}&row=1&count=${n}`)).json()) as {
      rows: Array<Array<GridCell>>;
    };
    return page.rows.map((row) => row.map((cell) => cell?.d ?? ''));
  }, count);
}

it('builds the coverage sheet of the demo fund from the sidebar, each status as the emulator holds the points', async () => {
  const frame = await session.sidebar();
  await frame.click('#tab-portfolio');
  await frame.click('#grid-load');
  expect(await finalStatus(frame)).toMatch(/^\d+ metric names? across the fund's companies\.$/);
  const first = frame.locator('#grid-names input[type=checkbox]').first();
  const name = (await first.getAttribute('value'))!;
  await first.check();
  // Ticking a name offers its usual aggregate: with "last" a quarter is reported when its last month is.
  const how = await frame.inputValue('#grid-aggregate');
  await frame.fill('#grid-start', '2024-Q1');
  await frame.fill('#grid-end', '2024-Q2');
  await frame.click('#grid-coverage');
  expect(await finalStatus(frame)).toMatch(/^Built "Reporting coverage": \d+ companies × 1 metric × 2 periods \(\d+ blank cells? highlighted\)\.$/);
  await session.page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Reporting coverage');

  const state = await session.workbench.control.state();
  const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
  const rows = await sheetRows(1 + profiles.length);
  expect(rows[0]!.slice(0, 4)).toEqual(['Company', 'Metric', '2024-Q1', '2024-Q2']);
  const quarters: Array<[string, string[]]> = [
    ['2024-Q1', ['2024-01-01', '2024-02-01', '2024-03-01']],
    ['2024-Q2', ['2024-04-01', '2024-05-01', '2024-06-01']],
  ];
  let checked = 0;
  // Two companies of one name are told apart by their profile ids, as the sheet labels them.
  const labels = companyLabels(profiles);
  for (const profile of profiles) {
    const row = rows.find((r) => r[0] === labels.get(profile.id.toLowerCase()) && r[1] === name);
    expect(row).toBeDefined();
    const metrics = state.metrics.filter((m) => m.portfolio_company_profile_id === profile.id && m.name.trim().toLowerCase() === name.trim().toLowerCase());
    if (metrics.length === 0) {
      expect(row!.slice(2, 4)).toEqual(['no such metric', 'no such metric']);
      continue;
    }
    const metric = metrics[0]!;
    if (metrics.length > 1 || !['monthly', 'quarterly'].includes(metric.frequency)) continue;
    const filled = (date: string) => state.data_points.some((p) => p.metric_id === metric.id && p.date === date && p.value !== null && p.value !== '');
    const needed = (months: string[]) =>
      metric.frequency !== 'monthly' ? months.slice(0, 1) : how === 'last' ? months.slice(-1) : how === 'first' ? months.slice(0, 1) : months;
    const expected = quarters.map(([, months]) => (needed(months).every(filled) ? 'reported' : 'blank'));
    expect(row!.slice(2, 4)).toEqual(expected);
    checked++;
  }
  expect(checked).toBeGreaterThan(0);
});
