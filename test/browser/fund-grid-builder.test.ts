// The fund grid in Chromium on the workbench, as a new user meets it: the aggregate the grid builder offers,
// a misspelt name's error in the cell, the portfolio company beside every metric in the pickers, and
// *Insert a fund model* writing live PORTFOLIO_VALUE formulas (one per block, or one per cell) that show the demo fund's values.

import type { Frame } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { gridWritten, useWorkbenchPage } from '../support/browser';

jest.setTimeout(120_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });

interface GridCell {
  d: string;
  f?: string;
  error?: string;
}

async function finalStatus(frame: Frame, panel: string, status: string): Promise<string> {
  await frame.waitForFunction(
    ([p, s]) => !document.querySelector(p!)!.hasAttribute('aria-busy') && /\b(success|warning|error)\b/.test(document.querySelector(s!)!.className),
    [panel, status],
  );
  return (await frame.textContent(status)) ?? '';
}

const portfolioStatus = (frame: Frame) => finalStatus(frame, '#panel-portfolio', '#portfolio-status');

/** The cells the server stores (the runtime's sheet), rows from `row`, read through the grid's own route. */
async function stored(sheet: string, row: number, count: number): Promise<Array<Array<GridCell | null>>> {
  return session.page.evaluate(
    async ([s, r, n]) => {
      const page = (await (await fetch(`/api/grid/cells?sheet=${encodeURIComponent(s)}&row=${r}&count=${n}`)).json()) as {
        rows: Array<Array<GridCell | null>>;
      };
      return page.rows;
    },
    [sheet, row, count] as const,
  );
}

async function post(route: string, body: unknown): Promise<void> {
  await session.page.evaluate(
    async ([r, b]) => {
      const response = await fetch(r, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      if (!response.ok) throw new Error(`${r}: ${await response.text()}`);
    },
    [route, body] as const,
  );
}

/** The sidebar on a freshly loaded page, whatever tab or state an earlier test left (tests run in any order). */
async function freshSidebar(): Promise<Frame> {
  await session.page.reload({ waitUntil: 'networkidle' });
  return session.sidebar();
}

async function loadNames(frame: Frame): Promise<void> {
  await frame.click('#tab-portfolio');
  await frame.click('#grid-load');
  expect(await portfolioStatus(frame)).toMatch(/^\d+ metric names? across the fund's companies\.$/);
}

/** Unticks every name, so a test's choice is its own. */
async function untickAll(frame: Frame): Promise<void> {
  for (const box of await frame.locator('#grid-names input[type=checkbox]:checked').all()) await box.uncheck();
}

it('offers last for a balance and sum for a flow, keeps the choice the person made, and writes it into the formula', async () => {
  const frame = await freshSidebar();
  await loadNames(frame);
  await untickAll(frame);
  await frame.check('#grid-names input[value="Cash"]');
  expect(await frame.inputValue('#grid-aggregate')).toBe('last');
  await frame.uncheck('#grid-names input[value="Cash"]');
  await frame.check('#grid-names input[value="Revenue"]');
  expect(await frame.inputValue('#grid-aggregate')).toBe('sum');
  // Once the person chooses, ticking another name leaves their choice.
  await frame.selectOption('#grid-aggregate', 'average');
  await frame.uncheck('#grid-names input[value="Revenue"]');
  await frame.check('#grid-names input[value="Cash"]');
  expect(await frame.inputValue('#grid-aggregate')).toBe('average');
  await frame.selectOption('#grid-aggregate', 'last');

  await post('/api/select', { sheet: 'Sheet1', a1: 'H1' });
  await frame.fill('#grid-periods', '');
  await frame.fill('#grid-start', '2024-Q1');
  await frame.fill('#grid-end', '2024-Q2');
  await frame.check('#grid-kind-metric');
  await frame.check('#grid-mode-formula');
  await frame.click('#grid-insert');
  // The aggregate is written with the name it belongs to.
  expect(await portfolioStatus(frame)).toBe(
    `Inserted =PORTFOLIO_METRIC("Cash (last)", {"2024-Q1","2024-Q2"}, "${DEMO_IDS.fund}") at Sheet1!H1. It updates with "Refresh data".`,
  );
  // The workbench recalculates the formula as Sheets would: Cash at quarter end, no "Give an aggregate" sentences.
  const state = await session.workbench.control.state();
  const rows = await stored('Sheet1', 1, 34);
  expect(rows[0]![7]!.f).toBe(`=PORTFOLIO_METRIC("Cash (last)", {"2024-Q1","2024-Q2"}, "${DEMO_IDS.fund}")`);
  expect(rows[0]!.slice(7, 10).map((cell) => cell?.d)).toEqual(['Company', '2024-Q1', '2024-Q2']);
  const shown = rows.slice(1).map((row) => row.slice(7, 10).map((cell) => cell?.d ?? ''));
  expect(shown.some((row) => /Give an aggregate|monthly values: type/.test(row.join(' ')))).toBe(false);
  let checked = 0;
  for (const [company, q1, q2] of shown) {
    const profile = state.portfolio_company_profiles.find((p) => p.company_id === DEMO_IDS.fund && p.name === company);
    const metrics = state.metrics.filter((m) => profile && m.portfolio_company_profile_id === profile.id && m.name.trim().toLowerCase() === 'cash');
    if (metrics.length !== 1 || metrics[0]!.frequency !== 'monthly') continue;
    const valueOn = (date: string) => state.data_points.find((p) => p.metric_id === metrics[0]!.id && p.date === date)?.value ?? null;
    const expected = (date: string) => (valueOn(date) === null || valueOn(date) === '' ? '' : String(Number(valueOn(date))));
    expect([q1, q2].map((text = '') => (text === '' ? '' : String(Number(text.replace(/,/g, '')))))).toEqual([expected('2024-03-01'), expected('2024-06-01')]);
    checked++;
  }
  expect(checked).toBeGreaterThan(0);
});

/** Types into a cell through the page, as a person does; the workbench recalculates it as Sheets would. */
async function typeInto(a1: string, input: string): Promise<void> {
  await session.page.click(`td[data-a1="${a1}"]`);
  await session.page.waitForSelector(`td.active[data-a1="${a1}"]`);
  await session.page.fill('#formula', input);
  await session.page.press('#formula', 'Enter');
  await gridWritten(session.page);
}

it('shows a misspelt metric name as an error naming the nearest name, in the cell and for the whole table', async () => {
  await session.page.reload({ waitUntil: 'networkidle' });
  await post('/api/select', { sheet: 'Sheet1', a1: 'A1' });
  await typeInto('A3', '=PORTFOLIO_METRIC("Net Brun", "2024-01")');
  await session.page.waitForFunction(() => document.querySelector('td[data-a1="A3"]')?.textContent === '#ERROR!');
  await typeInto('A4', '=PORTFOLIO_VALUE("Aurora Robotics", "Monthly Recuring Revenue", "2024-01")');
  await session.page.waitForFunction(() => document.querySelector('td[data-a1="A4"]')?.textContent === '#ERROR!');
  const [table, one] = await stored('Sheet1', 3, 2);
  expect(table![0]!.error).toBe(`No metric named "Net Brun" in fund ${DEMO_IDS.fund}; did you mean "Net Burn"?`);
  expect(one![0]!.error).toBe(`No metric named "Monthly Recuring Revenue" in fund ${DEMO_IDS.fund}; did you mean "Monthly Recurring Revenue"?`);
  // The page shows the sentence on hover, as Sheets does.
  expect(await session.page.getAttribute('td[data-a1="A3"]', 'title')).toBe(table![0]!.error);
});

it('names the portfolio company beside every fund metric in the browser, the export menu and the grid builder, and filters by it', async () => {
  const frame = await freshSidebar();
  const state = await session.workbench.control.state();
  const burns = state.metrics.filter((m) => m.company_id === DEMO_IDS.fund && m.name === 'Net Burn' && m.portfolio_company_profile_id);
  expect(burns.length).toBeGreaterThan(1);
  // A company's label: its name, followed by its profile id where two of the fund's companies share the name.
  const nameOf = (profileId: string) => {
    const name = state.portfolio_company_profiles.find((p) => p.id === profileId)!.name.trim();
    const shared =
      state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund && p.name.trim().toLowerCase() === name.toLowerCase()).length > 1;
    return shared ? `${name} (${profileId})` : name;
  };

  await frame.click('#tab-metrics');
  await frame.click('#browse-form button[type="submit"]');
  await frame.waitForFunction(() => /metrics? loaded\.$/.test(document.querySelector('#metrics-status')?.textContent ?? ''));
  await frame.fill('#metric-search', 'net burn');
  const listed = await frame.$$eval('#metric-list li.metric', (items) =>
    items.map((li) => ({ name: li.querySelector('.metric-name')?.textContent, company: li.querySelector('.metric-company')?.textContent ?? null })),
  );
  expect(
    listed
      .filter((m) => m.company)
      .map((m) => m.company)
      .sort(),
  ).toEqual(burns.map((m) => nameOf(m.portfolio_company_profile_id!)).sort());
  // Grouped under each company's heading, companies in order.
  const headings = await frame.$$eval('#metric-list li.metric-group', (items) => items.map((li) => li.textContent ?? ''));
  expect(headings).toEqual([...headings].sort((a, b) => a.localeCompare(b)));
  expect(headings.length).toBe(new Set(listed.map((m) => m.company).filter(Boolean)).size);
  // The company filter leaves one company's metrics.
  const company = nameOf(burns[0]!.portfolio_company_profile_id!);
  await frame.selectOption('#metric-company', company);
  const filtered = await frame.$$eval('#metric-list li.metric .metric-company', (spans) => spans.map((s) => s.textContent));
  expect(filtered).toEqual(['Net Burn'].map(() => company));
  await frame.fill('#metric-search', '');
  expect(new Set(await frame.$$eval('#metric-list li.metric .metric-company', (spans) => spans.map((s) => s.textContent)))).toEqual(new Set([company]));
  await frame.selectOption('#metric-company', '');

  // The export menu: each company's metrics under its name, each option naming it too.
  await frame.click('#tab-export');
  await frame.check('#layout-long');
  await frame.waitForFunction(() => document.querySelectorAll('#export-metric optgroup').length > 1);
  const options = await frame.$$eval('#export-metric option', (items) =>
    (items as HTMLOptionElement[]).map((o) => ({ text: o.textContent ?? '', group: (o.parentElement as HTMLOptGroupElement).label ?? null, value: o.value })),
  );
  for (const burn of burns) {
    const option = options.find((o) => o.value === burn.id)!;
    expect(option.text).toBe(`Net Burn (monthly) · ${nameOf(burn.portfolio_company_profile_id!)}`);
    expect(option.group).toBe(nameOf(burn.portfolio_company_profile_id!));
  }
  await frame.selectOption('#export-metric-company', company);
  const narrowed = await frame.$$eval('#export-metric option', (items) => items.map((o) => o.textContent ?? '').filter((t) => t !== 'Choose a metric'));
  expect(narrowed.length).toBeGreaterThan(0);
  expect(narrowed.every((text) => text.endsWith(` · ${company}`))).toBe(true);
  await frame.selectOption('#export-metric-company', '');

  // The grid builder: each name with the companies that have it, and a filter to one company's names.
  await loadNames(frame);
  const burnLabel = await frame.locator('#grid-names label', { hasText: /^Net Burn \(/ }).getAttribute('title');
  expect(burnLabel!.split(', ').sort()).toEqual(burns.map((m) => nameOf(m.portfolio_company_profile_id!)).sort());
  await frame.selectOption('#grid-company', company);
  const names = await frame.$$eval('#grid-names input[type=checkbox]', (boxes) => boxes.map((b) => (b as HTMLInputElement).value));
  const own = new Set(
    state.metrics.filter((m) => m.portfolio_company_profile_id === burns[0]!.portfolio_company_profile_id).map((m) => m.name.trim().toLowerCase()),
  );
  expect(names.map((n) => n.toLowerCase()).sort()).toEqual([...own].sort());
  await frame.selectOption('#grid-company', '');
});

it('inserts a fund model of one live PORTFOLIO_VALUE per block over its companies, periods and metric name cell, the aggregate in the name', async () => {
  await post('/api/select', { sheet: 'Sheet1', a1: 'M1' });
  const frame = await freshSidebar();
  await loadNames(frame);
  await untickAll(frame);
  await frame.check('#grid-names input[value="MRR"]');
  // Each name offers its own aggregate beside it: last for a balance such as MRR; the model writes it into the name.
  expect(await frame.inputValue('#grid-names select[data-name="MRR"]')).toBe('last');
  await frame.selectOption('#grid-aggregate', '');
  await frame.fill('#grid-periods', '');
  await frame.fill('#grid-start', '2024-04');
  await frame.fill('#grid-end', '2024-06');
  await frame.click('#grid-model');
  expect(await portfolioStatus(frame)).toMatch(
    /^Inserted a fund model at Sheet1!M1:Q34: 32 companies × 3 periods × 1 metric \(MRR \(last\)\), 1 PORTFOLIO_VALUE formula, one per block filling its companies × periods \(one execution each when Sheets recalculates\), and under each block a line counting the companies with a value\. /,
  );
  const rows = await stored('Sheet1', 1, 34);
  expect(rows[0]!.slice(12, 16).map((cell) => cell?.d)).toEqual(['MRR (last)', '2024-04', '2024-05', '2024-06']);
  const redwood = rows.findIndex((row) => row[12]?.d === 'Redwood Fintech');
  expect(rows[1]![13]!.f).toBe('=PORTFOLIO_VALUE($M2:$M33, $M$1, N$1:Q$1)');
  expect(rows[redwood]![13]?.f ?? '').toBe('');
  expect(rows[33]![12]!.d).toBe('Companies with a value');
  expect(rows[33]![13]!.f).toBe('=COUNT(N2:N33)&" of 32"');
  // Recalculated by the workbench as Sheets would: the values PORTFOLIO_METRIC shows for Redwood Fintech (as displayed).
  await session.page.waitForFunction((row) => /^632,?739\.25$/.test(document.querySelector(`td[data-a1="P${row}"]`)?.textContent ?? ''), redwood + 1);
  const shown = (await stored('Sheet1', redwood + 1, 1))[0]!.slice(13, 16).map((cell) => Number((cell?.d ?? '').replace(/,/g, '')));
  [633679.8333333334, 629619.0833333334, 632739.25].forEach((value, i) => expect(shown[i]).toBeCloseTo(value, 1));
  // Companies without MRR show text, never an error, so the coverage line counts the others and a SUM row adds them.
  const column = async () => (await stored('Sheet1', 2, 32)).map((row) => row[13]);
  await session.page.waitForFunction(() => /^\d+ of 32$/.test(document.querySelector('td[data-a1="N34"]')?.textContent ?? ''));
  const cells = await column();
  expect(cells.some((cell) => cell?.error)).toBe(false);
  expect(cells.filter((cell) => cell?.d === 'no metric "MRR"').length).toBeGreaterThan(0);
  const numbers = cells.filter((cell) => /^-?[\d,]+(\.\d+)?$/.test(cell?.d ?? ''));
  expect((await stored('Sheet1', 34, 1))[0]![13]!.d).toBe(`${numbers.length} of 32`);
  await typeInto('N35', '=SUM(N2:N33)');
  await session.page.waitForFunction(() => /^[\d,]+(\.\d+)?$/.test(document.querySelector('td[data-a1="N35"]')?.textContent ?? ''));
  const total = Number(((await stored('Sheet1', 35, 1))[0]![13]!.d ?? '').replace(/,/g, ''));
  expect(total).toBeCloseTo(
    numbers.reduce((sum, cell) => sum + Number(cell!.d.replace(/,/g, '')), 0),
    0,
  );
  // Another name typed into the block's name cell recomputes the whole block: Redwood's MRR becomes its Revenue.
  await typeInto('M1', 'Revenue (sum)');
  await session.page.waitForFunction((row) => {
    const text = document.querySelector(`td[data-a1="P${row}"]`)?.textContent ?? '';
    return /^[\d,]+(\.\d+)?$/.test(text) && !/^632,?739\.25$/.test(text);
  }, redwood + 1);

  // One formula per cell, on request: each value cell refers to its company, period and the name cell.
  await post('/api/select', { sheet: 'Sheet1', a1: 'R1' });
  await frame.check('#grid-model-cells');
  await frame.click('#grid-model');
  expect(await portfolioStatus(frame)).toMatch(/^Inserted a fund model at Sheet1!R1:V34: .*, 128 PORTFOLIO_VALUE formulas, one per cell /);
  const perCell = await stored('Sheet1', 1, 34);
  expect(perCell[redwood]![18]!.f).toBe(`=PORTFOLIO_VALUE($R${redwood + 1}, $R$1, S$1)`);
  await frame.uncheck('#grid-model-cells');
});

it('shows from the click what Insert a fund model is doing (its blocks, an indeterminate bar), and takes the bar away once the model is written', async () => {
  await post('/api/select', { sheet: 'Sheet1', a1: 'X1' });
  const frame = await freshSidebar();
  await loadNames(frame);
  await untickAll(frame);
  await frame.check('#grid-names input[value="Cash"]');
  await frame.fill('#grid-periods', '');
  await frame.fill('#grid-start', '2024-04');
  await frame.fill('#grid-end', '2024-05');
  // Clicked and read in one task of the page: what the person sees before the server can have answered.
  const atClick = await frame.evaluate(() => {
    document.querySelector<HTMLButtonElement>('#grid-model')!.click();
    const box = document.querySelector('#portfolio-results [data-activity]');
    const bar = box?.querySelector('progress');
    return {
      status: document.querySelector('#portfolio-status')!.textContent,
      statusRole: document.querySelector('#portfolio-status')!.getAttribute('role'),
      label: box?.querySelector('.progress-label')?.textContent ?? null,
      barName: bar?.getAttribute('aria-label') ?? null,
      indeterminate: bar ? !bar.hasAttribute('value') : null,
      boxLive: box?.getAttribute('aria-live') ?? null,
      elapsedHidden: box?.querySelector('[data-activity-elapsed]')?.getAttribute('aria-hidden') ?? null,
      busy: document.querySelector('#panel-portfolio')!.getAttribute('aria-busy'),
    };
  });
  // Said once, by the status line; the bar is named by it, its seconds are not read out, and it is no live region of its own.
  expect(atClick).toEqual({
    status: atClick.label,
    statusRole: 'status',
    label: 'Inserting 1 block (one per metric), a row for every company of the fund…',
    barName: atClick.label,
    indeterminate: true,
    boxLive: 'off',
    elapsedHidden: 'true',
    busy: 'true',
  });
  expect(await portfolioStatus(frame)).toMatch(/^Inserted a fund model at Sheet1!X1:/);
  expect(await frame.locator('#portfolio-results [data-activity]').count()).toBe(0);
}, 300_000);

it("builds the provenance sheet for the model's choice: each company's value and where it came from, each month's for a quarter", async () => {
  const frame = await freshSidebar();
  await loadNames(frame);
  await untickAll(frame);
  await frame.check('#grid-names input[value="MRR"]');
  // No aggregate beside the name: the value asks for one, and the source still lists each month's.
  await frame.selectOption('#grid-names select[data-name="MRR"]', '');
  await frame.fill('#grid-periods', '2024-Q2');
  await frame.click('#grid-provenance');
  expect(await portfolioStatus(frame)).toMatch(/^Built "Provenance": 32 companies × 1 period × 1 metric \(MRR\), 32 rows, \d+ with a value and its source\.$/);
  const rows = await stored('Provenance', 1, 33);
  expect(rows[0]!.slice(0, 6).map((cell) => cell?.d)).toEqual(['Company', 'Metric', 'Period', 'Value', 'Source', 'Source link']);
  const redwood = rows.find((row) => row[0]?.d === 'Redwood Fintech')!;
  expect(redwood.slice(1, 4).map((cell) => cell?.d)).toEqual(['MRR', '2024-Q2', expect.stringMatching(/^3 monthly values: type "MRR \(sum\)"/)]);
  // June's source on the demo data is the unknown one (docs/functions.md shows it for "2024-06").
  expect(redwood[4]!.d).toMatch(/^2024-04: [^;]+; 2024-05: [^;]+; 2024-06: unknown: Unknown source$/);
  expect(redwood[5]!.d).toMatch(/^2024-04: https:\/\/\S+; 2024-05: https:\/\/\S+$/);
});
