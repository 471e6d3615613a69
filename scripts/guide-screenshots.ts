// Takes the screenshots of docs/guide.md from the workbench in Debian's Chromium, so that the guide shows what the
// add-in shows today. Run after `npm run build`: `npm run docs:screenshots` (npx tsx scripts/guide-screenshots.ts).
//
// Each journey is driven as an analyst would (clicks in the sidebar, the grid, the add-on menu) on the workbench's
// demo data, and each screenshot is taken only after the script has read the text the guide says is there: when
// the sidebar says anything else, the script names the screenshot, what it expected and what it read, and exits
// non-zero, writing nothing more. A screenshot is a crop (the 300 px sidebar, or a corner of the grid), so the
// images stay small (docs/images holds about 500 KB; test/build/guide.test.ts keeps it under 600 KB).
//
// Journeys can be named to take only theirs, for instance `npx tsx scripts/guide-screenshots.ts exporter`: settings,
// metrics, formulas, menu, exporter, portfolio, check. Settings always runs first, since the others need the token. The
// workbench starts from the same demo data every time, so a full run takes the same pictures (apart from the
// emulator's port in Settings and the check's lines, and today's date in the snapshot list).

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { DEMO_IDS } from '../emulator/demo-data';
import { launchBrowser, sidebarFrame } from '../test/support/browser';
import { ROOT } from '../test/support/built-bundle';
import { startWorkbench, type RunningWorkbench } from '../test/support/workbench-process';

export const IMAGES = path.join(ROOT, 'docs', 'images');

/** A journey ended somewhere other than where its screenshot says. */
class WrongState extends Error {}

const MRR = DEMO_IDS.metrics.monthlyRecurringRevenue;
const WAIT_MS = 30_000;

let page: Page;
let workbench: RunningWorkbench;
const taken: string[] = [];

/** Waits until `selector` in `frame` holds text matching `expected`; otherwise says which screenshot it was for. */
async function expectText(frame: Frame | Page, selector: string, expected: RegExp, shot: string, timeout = WAIT_MS): Promise<string> {
  try {
    await frame.waitForFunction(
      ([s, source, flags]) => new RegExp(source, flags).test(document.querySelector(s)?.textContent ?? ''),
      [selector, expected.source, expected.flags] as const,
      { timeout },
    );
  } catch {
    const actual = await frame.evaluate((s) => document.querySelector(s)?.textContent ?? '(no such element)', selector).catch(() => '(unreadable)');
    throw new WrongState(`${shot}: expected ${selector} to match ${String(expected)}, but it reads "${actual}".`);
  }
  return await frame.evaluate((s) => document.querySelector(s)?.textContent ?? '', selector);
}

/** The final status line of a sidebar tab: its busy mark gone and a tone set. */
async function settled(frame: Frame, tab: 'metrics' | 'export' | 'portfolio' | 'settings', expected: RegExp, shot: string, timeout = WAIT_MS): Promise<string> {
  try {
    await frame.waitForFunction(
      (t) => {
        const panel = document.querySelector(`#panel-${t}`)!;
        return !panel.hasAttribute('aria-busy') && /\b(success|warning|error|partial)\b/.test(document.querySelector(`#${t}-status`)!.className);
      },
      tab,
      { timeout },
    );
  } catch {
    throw new WrongState(`${shot}: the ${tab} tab did not finish within ${timeout / 1000} s.`);
  }
  return expectText(frame, `#${tab}-status`, expected, shot, 1_000);
}

/** An element, or a rectangle of the page (cells of the grid a journey wrote). */
async function shoot(name: string, target: Locator | { x: number; y: number; width: number; height: number }): Promise<void> {
  if ('screenshot' in target) await target.screenshot({ path: path.join(IMAGES, name), animations: 'disabled' });
  else await page.screenshot({ path: path.join(IMAGES, name), clip: target, animations: 'disabled' });
  taken.push(name);
  console.log(`  ${name}`);
}

/** The 300 px sidebar as the person sees it. */
const aside = (): Locator => page.locator('aside');

/** A corner of the grid under the whole formula bar: the rows and columns a journey wrote, not the whole page. */
async function shootGrid(name: string, width = 620, height = 230): Promise<void> {
  const box = (await page.locator('#sheet-scroll').boundingBox())!;
  // From the bar's top, however tall it is: an error sentence beside it wraps onto more lines.
  const bar = (await page.locator('.bar').boundingBox())!;
  await page.screenshot({ path: path.join(IMAGES, name), clip: { x: box.x, y: bar.y, width, height: height + box.y - bar.y }, animations: 'disabled' });
  taken.push(name);
  console.log(`  ${name}`);
}

async function post(route: string, body: unknown): Promise<void> {
  await page.evaluate(
    async ([r, b]) => {
      const response = await fetch(r, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      if (!response.ok) throw new Error(`${r}: ${await response.text()}`);
    },
    [route, body] as const,
  );
}

/** Selects `a1` on `sheet` and reloads the page until it is quiet, so the grid shows it and the sidebar is fresh. */
async function select(sheet: string, a1: string): Promise<Frame> {
  await post('/api/select', { sheet, a1 });
  await page.reload({ waitUntil: 'networkidle' });
  return sidebarFrame(page);
}

async function clickCell(a1: string): Promise<void> {
  await page.click(`td[data-a1="${a1}"]`);
  await page.waitForSelector(`td.active[data-a1="${a1}"]`);
}

/** Clicks an item of the add-on menu and waits for the toast it shows. */
async function menuToast(caption: string, expected: RegExp, shot: string): Promise<string> {
  await page.evaluate(() => {
    const toast = document.getElementById('toast')!;
    toast.style.display = 'none';
    toast.textContent = '';
  });
  await page.click(`#menu button:text-is("${caption}")`);
  return expectText(page, '#toast', expected, shot);
}

async function shootToast(name: string): Promise<void> {
  const box = (await page.locator('#toast').boundingBox())!;
  // The toast and the grid rows above it, as the person sees it at the bottom left of the sheet.
  const x = Math.max(0, box.x - 16);
  await page.screenshot({
    path: path.join(IMAGES, name),
    clip: { x, y: box.y - 12, width: Math.min(900, box.width + 32), height: box.height + 24 },
    animations: 'disabled',
  });
  taken.push(name);
  console.log(`  ${name}`);
}

async function settings(): Promise<void> {
  console.log('Settings and Formula access');
  const frame = await sidebarFrame(page);
  await frame.click('#tab-settings');
  await frame.fill('#token', workbench.token);
  await frame.click('#settings-form button[type="submit"]');
  await settled(frame, 'settings', /^Saved|accepted/, 'settings.png');
  await expectText(frame, '#token-status', /^A token is set/, 'settings.png');
  await frame.click('#test-connection');
  await settled(frame, 'settings', /^Connected\. This token sees \d+ metrics of company .+, and it is a fund with 32 portfolio companies\.$/, 'settings.png');
  await frame.evaluate(() => window.scrollTo(0, 0));
  await shoot('settings.png', aside());
  await expectText(frame, '#formula-access-list', /\S/, 'formula-access.png');
  await shoot('formula-access.png', frame.locator('#formula-access'));
}

async function metrics(): Promise<void> {
  console.log('The metric browser, formulas and snapshots');
  let frame = await select('Sheet1', 'B2');
  await frame.click('#tab-metrics');
  await frame.click('#browse-form button[type="submit"]');
  await settled(frame, 'metrics', /^\d+ metrics loaded\.$/, 'metrics-browse.png');
  await frame.fill('#metric-search', 'recurring revenue');
  await frame.check(`#metric-${MRR}`);
  await expectText(frame, `#metric-list`, /Latest [\d.]+ on \d{4}-\d\d-\d\d/, 'metrics-browse.png');
  await frame.locator('#browse-form').evaluate((form) => form.scrollIntoView());
  await shoot('metrics-browse.png', aside());

  // A live formula at B2: six months with a header row.
  await frame.fill('#insert-start', '2024-01-01');
  await frame.fill('#insert-end', '2024-06-30');
  await frame.check('#mode-formula');
  await frame.check('#insert-headers');
  await frame.click('#insert-form button[type="submit"]');
  await settled(frame, 'metrics', /^Inserted =METRIC_VALUES\(/, 'metrics-formula.png');
  await expectText(page, 'td[data-a1="C4"]', /^[\d,.]+$/, 'metrics-formula.png');
  await clickCell('B2');
  await shootGrid('metrics-formula.png', 560, 190);

  // A snapshot of the same values at E2.
  await clickCell('E2');
  await frame.check('#mode-snapshot');
  await frame.click('#insert-form button[type="submit"]');
  await settled(frame, 'metrics', /^Wrote 6 rows of values to Sheet1!E2:F8\./, 'snapshot-refreshed.png');
  await expectText(frame, '#snapshot-list', /Sheet1!E2:F8/, 'snapshot-refreshed.png');

  // The API's value for March is restated; Refresh snapshots writes it and lists the change.
  await workbench.control.fixtures({
    data_points: [{ metric_id: MRR, date: '2024-03-01', value: '59900.5', source: { source_type: 'update_request', label: 'Restated by the CFO' } }],
  });
  await frame.click('#refresh-snapshots');
  await settled(frame, 'metrics', /^Refreshed 1 of 1 snapshot; 1 value changed \(listed in "Changes"\)\.$/, 'snapshot-refreshed.png');
  await frame.locator('#snapshot-list').evaluate((e) => e.closest('fieldset')!.scrollIntoView());
  await shoot('snapshot-refreshed.png', aside());

  await page.click('.tabs button:text-is("Changes")');
  await expectText(page, 'td[data-a1="F2"]', /^update_request: Restated by the CFO$/, 'changes-sheet.png');
  await shootGrid('changes-sheet.png', 900, 80);

  frame = await select('Sheet1', 'A1');
  await frame.selectOption('#schedule-frequency', 'daily');
  await frame.click('#schedule-refresh');
  await settled(frame, 'metrics', /^Your snapshots here are refreshed every day with your connection\./, 'schedule.png');
  await expectText(frame, '#schedule-status', /refreshed every day/, 'schedule.png');
  await shoot('schedule.png', frame.locator('#snapshot-list').locator('xpath=ancestor::fieldset'));
  await frame.click('#cancel-refresh');
  await settled(frame, 'metrics', /^Scheduled refresh is off/, 'schedule.png');
}

async function formulas(): Promise<void> {
  console.log('A formula that needs an aggregate');
  // A quarter of a monthly metric: refused without an aggregate, summed with one.
  await post('/api/cell', { sheet: 'Sheet1', a1: 'A2', input: `=METRIC_VALUE("${MRR}", "2024-Q1")` });
  await post('/api/cell', { sheet: 'Sheet1', a1: 'A3', input: `=METRIC_VALUE("${MRR}", "2024-Q1", "sum")` });
  await select('Sheet1', 'A2');
  await expectText(page, 'td[data-a1="A3"]', /^[\d,.]+$/, 'formula-error.png');
  await expectText(
    page,
    '#cell-error',
    /^"2024-Q1" is calendar quarter 1 of 2024, longer than one period of "Monthly Recurring Revenue", a monthly metric\. Give an aggregate as the third argument/,
    'formula-error.png',
  );
  // As wide as the sentence beside the bar, so the picture holds all of it.
  const sentence = (await page.locator('#cell-error').boundingBox())!;
  const grid = (await page.locator('#sheet-scroll').boundingBox())!;
  await shootGrid('formula-error.png', Math.ceil(sentence.x + sentence.width - grid.x), 100);
}

async function menuItems(): Promise<void> {
  console.log('Refresh data, Freeze and Make live');
  // A live table of its own at B20, whatever the other journeys left.
  await post('/api/cell', { sheet: 'Sheet1', a1: 'B20', input: `=METRIC_VALUES("${MRR}", "2024-01-01", "2024-03-31", "headers")` });
  await select('Sheet1', 'B20');
  await expectText(page, 'td[data-a1="C22"]', /^[\d,.]+$/, 'refresh-data.png');
  await menuToast('Refresh data', /^Refreshed \d+ formulas? with fresh data\./, 'refresh-data.png');
  await shootToast('refresh-data.png');

  await clickCell('B20');
  await menuToast('Freeze selection (values only)', /^Froze 1 formula into values: B20:C23\./, 'freeze.png');
  await shootToast('freeze.png');
  await menuToast('Make selection live', /^Made 1 range live again: B20:C23\./, 'make-live.png');
  await shootToast('make-live.png');
}

async function exporter(): Promise<void> {
  console.log('The exporter');
  let frame = await select('Sheet1', 'A1');
  await frame.click('#browse-form button[type="submit"]');
  await settled(frame, 'metrics', /metrics loaded/, 'export-preview.png');
  await frame.fill('#new-name', 'Bookings');
  await frame.selectOption('#new-frequency', 'monthly');
  await frame.fill('#new-unit', 'USD');
  await frame.click('#create-form button[type="submit"]');
  await settled(frame, 'metrics', /^Created "Bookings"\.$/, 'export-preview.png');

  const rows = ['Month\tBookings', ...Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}-01\t${(12000 + i * 850).toFixed(2)}`)];
  rows[6] = '2024-06-15\t17100.00'; // not the start of a month: refused, with the right date
  await post('/api/paste', { sheet: 'Sheet1', a1: 'H1', text: rows.join('\n') });
  frame = await select('Sheet1', 'H1:I13');
  await frame.click('#tab-export');
  await frame.click('#export-use-selection');
  await expectText(frame, '#export-status', /^Sheet1!H1:I13: 13 rows, 2 columns\./, 'export-preview.png');
  // The header names the metric exactly, so the selection reads as the wide layout: one column per metric.
  if (!(await frame.isChecked('#layout-wide'))) throw new WrongState('export-preview.png: a header naming a metric was not read as the wide layout.');
  await frame.click('#export-preview');
  await frame.waitForSelector('table.preview');
  await expectText(
    frame,
    '#export-results .status',
    /^12 (rows|values) read: 11 to send \(11 to create, 0 to overwrite a different value, 0 unchanged, sent again\), 0 skipped, 1 failed\.$/,
    'export-preview.png',
  );
  await expectText(frame, 'table.preview', /2024-06-15 is not the start of a monthly period: use 2024-06-01/, 'export-preview.png');
  await frame.locator('#export-results').evaluate((e) => e.scrollIntoView());
  await shoot('export-preview.png', aside());

  await frame.check('#export-normalise');
  await frame.click('#export-form button[type="submit"]');
  await expectText(frame, '.progress-text', /^Finished\.$/, 'export-report.png');
  await expectText(frame, '#export-results > .status', /^12 values read \(12 rows × 1 metric column\): 12 created/, 'export-report.png');
  await shoot('export-report.png', aside());

  // A long export that waits for the API's rate limit, is cancelled, and is resumed from the reopened tab.
  frame = await select('Sheet1', 'A1');
  await frame.click('#browse-form button[type="submit"]');
  await settled(frame, 'metrics', /metrics loaded/, 'export-waiting.png');
  await frame.fill('#new-name', 'Daily signups (sheet)');
  await frame.selectOption('#new-frequency', 'daily');
  await frame.click('#create-form button[type="submit"]');
  await settled(frame, 'metrics', /^Created/, 'export-waiting.png');
  const start = Date.UTC(2022, 0, 1);
  const days = Array.from({ length: 900 }, (_, i) => `${new Date(start + i * 86_400_000).toISOString().slice(0, 10)}\t${40 + (i % 17)}`);
  await post('/api/paste', { sheet: 'Sheet1', a1: 'L1', text: ['Day\tSignups', ...days].join('\n') });
  frame = await select('Sheet1', 'L1:M901');
  await frame.click('#tab-export');
  await frame.click('#export-use-selection');
  await expectText(frame, '#export-status', /^Sheet1!L1:M901: 901 rows, 2 columns\./, 'export-waiting.png');
  const daily = await frame.waitForFunction(
    () =>
      Array.from(document.querySelectorAll<HTMLOptionElement>('#export-metric option')).find((o) => o.textContent?.startsWith('Daily signups (sheet)'))?.value,
  );
  await frame.selectOption('#export-metric', (await daily.jsonValue())!);
  // A small rate limit whose window outlasts a step, so the sidebar waits between steps, as it would on a busy API.
  await workbench.control.rateLimit({ limit: 12, windowSeconds: 25, retryAfter: true, freshWindow: true });
  await frame.click('#export-form button[type="submit"]');
  await expectText(
    frame,
    '.progress-text',
    /(^Waiting \d+ s for the API's rate limit…$)|(^[\d,]+ of 900 · waiting for the API's rate limit · about .+ left$)/,
    'export-waiting.png',
  );
  // Cancel at once after the picture: the wait for the rate limit ends by itself within seconds.
  await shoot('export-waiting.png', aside());
  await frame.click('.progress button.cancel', { timeout: 5_000 });
  await expectText(frame, '.progress-text', /^Cancelled: what was not sent can be resumed\.$/, 'export-cancelled.png');
  await expectText(frame, '#export-results > .status', /^900 rows read: \d+ created.*, \d+ not sent \(export cancelled\)\.$/, 'export-cancelled.png');
  await shoot('export-cancelled.png', frame.locator('#export-results'));

  await workbench.control.rateLimit({ limit: 500, windowSeconds: 300, retryAfter: false });
  await page.reload({ waitUntil: 'networkidle' });
  frame = await sidebarFrame(page);
  await frame.click('#tab-export');
  await expectText(
    frame,
    '#export-resume .hint',
    /^The export of Sheet1!L1:M901 stopped with \d+ of 900 done\. Resuming sends only what was not confirmed\.$/,
    'export-resume.png',
  );
  await shoot('export-resume.png', frame.locator('#export-resume'));
  await frame.click('#export-resume button');
  await expectText(frame, '.progress-text', /^Finished\.$/, 'export-resume.png', 60_000);
  await expectText(frame, '#export-results > .status', /^900 rows read: 900 created/, 'export-resume.png');
}

async function portfolio(): Promise<void> {
  console.log('Portfolio tools');
  let frame = await select('Sheet1', 'A30');
  await frame.click('#tab-portfolio');
  await frame.click('#grid-load');
  await settled(frame, 'portfolio', /^\d+ metric names? across the fund's companies\.$/, 'portfolio-grid.png');
  await frame.check('#grid-names input[type=checkbox][value="Revenue"]');
  await frame.fill('#grid-periods', '2024-Q1, 2024-Q2');
  await frame.check('#grid-kind-metric');
  await frame.check('#grid-mode-formula');
  await frame.click('#grid-insert');
  await settled(
    frame,
    'portfolio',
    /^Inserted =PORTFOLIO_METRIC\("Revenue( \(sum\))?", \{"2024-Q1","2024-Q2"\}, "[^"]+"\) at Sheet1!A30\./,
    'portfolio-grid.png',
  );
  await frame.locator('#grid-load').evaluate((e) => e.closest('fieldset')!.scrollIntoView());
  await shoot('portfolio-grid.png', aside());

  // A fund model of Revenue for 2024-Q2 at A100, clear of the other journeys' cells: one block, its Unit
  // column, and the "Companies with a value" line under its 32 companies; then its provenance sheet.
  const chooseRevenue = async (at: string): Promise<Frame> => {
    const fresh = await select('Sheet1', at);
    await fresh.click('#tab-portfolio');
    await fresh.click('#grid-load');
    await settled(fresh, 'portfolio', /^\d+ metric names? across the fund's companies\.$/, 'fund-model.png');
    await fresh.check('#grid-names input[type=checkbox][value="Revenue"]');
    await fresh.fill('#grid-periods', '2024-Q2');
    return fresh;
  };
  frame = await chooseRevenue('A100');
  await frame.click('#grid-model');
  await settled(
    frame,
    'portfolio',
    /^Inserted a fund model at Sheet1!A100:C133: 32 companies × 1 period × 1 metric \(Revenue \(sum\)\)/,
    'fund-model.png',
    60_000,
  );
  // The block is 34 rows: a taller page for this picture alone, cropped to its three columns.
  await page.setViewportSize({ width: 1200, height: 1100 });
  await select('Sheet1', 'A1');
  // The grid opens at its top: scroll it so that row 100 is just under the column letters.
  await page.locator('#sheet-scroll').evaluate((scroller) => {
    scroller.scrollTop = 2200;
  });
  await page.waitForSelector('td[data-a1="A100"]');
  await page.locator('#sheet-scroll').evaluate((scroller) => {
    scroller.scrollTop += document.querySelector('td[data-a1="A100"]')!.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 40;
  });
  await expectText(page, 'td[data-a1="C100"]', /^Unit$/, 'fund-model.png');
  await expectText(page, 'td[data-a1="A133"]', /^Companies with a value$/, 'fund-model.png');
  await expectText(page, 'td[data-a1="B133"]', /^\d+ of 32$/, 'fund-model.png', 60_000);
  // The picture leaves out rows 105 to 129 (a dashed line marks the cut), so it stays small: the block's head, its
  // Unit column, its last companies and the line under them.
  await page.evaluate(() => {
    for (let row = 105; row <= 129; row++) document.querySelector<HTMLElement>(`td[data-a1="A${row}"]`)!.parentElement!.style.display = 'none';
    document
      .querySelector('td[data-a1="A130"]')!
      .parentElement!.querySelectorAll('td')
      .forEach((td) => {
        td.style.borderTop = '2px dashed #5f6368';
      });
  });
  const first = (await page.locator('td[data-a1="A100"]').boundingBox())!;
  const last = (await page.locator('td[data-a1="C133"]').boundingBox())!;
  await shoot('fund-model.png', { x: first.x, y: first.y, width: last.x + last.width - first.x, height: last.y + last.height - first.y });
  await page.setViewportSize({ width: 1200, height: 560 });

  frame = await chooseRevenue('A1');
  await frame.click('#grid-provenance');
  await settled(
    frame,
    'portfolio',
    /^Built "Provenance": 32 companies × 1 period × 1 metric \(Revenue \(sum\)\), 32 rows, \d+ with a value and its source\.$/,
    'provenance-sheet.png',
    60_000,
  );
  await page.click('.tabs button:text-is("Provenance")');
  await expectText(page, 'td[data-a1="E1"]', /^Source$/, 'provenance-sheet.png');
  await expectText(page, 'td[data-a1="B2"]', /^Revenue/, 'provenance-sheet.png');
  await shootGrid('provenance-sheet.png', 520, 100);

  await frame.click('#audit-build');
  await settled(frame, 'portfolio', /^Built "Portfolio audit": 32 companies × \d+ properties, \d+% complete/, 'audit-build.png', 60_000);
  await page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Portfolio audit');
  await shoot('audit-build.png', aside());
  await page.waitForFunction((id) => {
    const texts = Array.from(document.querySelectorAll('td'), (td) => td.textContent);
    return texts.includes(id) && texts.includes('Headquarters');
  }, DEMO_IDS.profile(4));
  const target = await page.evaluate((profileId) => {
    const cells = Array.from(document.querySelectorAll<HTMLTableCellElement>('td'));
    const column = cells.find((td) => td.textContent === 'Headquarters')!.dataset.a1!.replace(/\d+$/, '');
    const row = cells.find((td) => td.textContent === profileId && td.dataset.a1!.startsWith('A'))!.dataset.a1!.slice(1);
    return `${column}${row}`;
  }, DEMO_IDS.profile(4));
  await post('/api/cell', { sheet: 'Portfolio audit', a1: target, input: 'Lisbon' });
  frame = await select('Portfolio audit', target);
  await frame.click('#tab-portfolio');
  await frame.click('#audit-push');
  // The push asks first, naming how many cells go to which fund.
  await expectText(frame, '#portfolio-results .confirm p', /^Push 1 changed cell to the fund [0-9a-f-]+\?$/, 'audit-push.png');
  await frame.click('#audit-push-confirm');
  await settled(frame, 'portfolio', /^The fund [0-9a-f-]+: \d+ cells compared: 1 (created|updated), \d+ unchanged\.$/, 'audit-push.png');
  await shoot('audit-push.png', aside());

  // Under the push's report: the Pushes sheet, then Undo's confirmation listing this push (kept, not undone).
  await frame.click('#portfolio-results [data-push-log]');
  await settled(frame, 'portfolio', /^The "Pushes" sheet lists every value pushed from this spreadsheet: \d+ so far\.$/, 'pushes-sheet.png');
  await page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Pushes');
  await expectText(page, 'td[data-a1="C2"]', /\S/, 'pushes-sheet.png');
  await shootGrid('pushes-sheet.png', 720, 80);
  await frame.click('#portfolio-results [data-undo-push]');
  await expectText(
    frame,
    '#portfolio-results [data-undo-description]',
    /^Audit push.* of .+ \(Push [^)]+ in the Pushes sheet\), \d+ values? stored: /,
    'undo-push.png',
  );
  await shoot('undo-push.png', frame.locator('#portfolio-results .undo-chooser'));
  await frame.click('#portfolio-results [data-undo-keep]');

  const contacts = ['Email\tFirst name\tLast name', 'ana.lima@example.com\tAna\tLima', 'not an email\tNobody\t', 'ben.okafor@example.com\tBen\tOkafor'];
  await post('/api/paste', { sheet: 'Sheet1', a1: 'A70', text: contacts.join('\n') });
  frame = await select('Sheet1', 'A70:C73');
  await frame.click('#tab-portfolio');
  await frame.click('#import-contacts');
  await settled(frame, 'portfolio', /^3 rows read: 2 created, 1 failed\.$/, 'import-contacts.png');
  await expectTone(frame, 'import-contacts.png', 'partial');
  await shoot('import-contacts.png', aside());

  // The import wrote each contact's id beside its row: a note to the first of them.
  frame = await select('Sheet1', 'A71');
  await frame.click('#tab-portfolio');
  await frame.fill('#note-content', 'Met at the **annual meeting**: interested in the Q3 update.');
  await frame.click('#note-form button[type="submit"]');
  await settled(frame, 'portfolio', /^Note added to 1 contact\.$/, 'note-contacts.png');
  await expectTone(frame, 'note-contacts.png', 'success');
  await frame.locator('#note-form').evaluate((e) => e.scrollIntoView());
  await shoot('note-contacts.png', aside());

  frame = await select('Sheet1', 'R1');
  await frame.click('#tab-portfolio');
  await frame.fill('#notes-profile', DEMO_IDS.profile(1));
  await frame.click('#notes-form button[type="submit"]');
  await settled(frame, 'portfolio', /^Wrote \d+ notes to Sheet1!R1:U\d+\.$/, 'note-contacts.png');
  await expectTone(frame, 'note-contacts.png', 'success');
  await expectText(page, 'td[data-a1="R1"]', /^Name$/, 'note-contacts.png');
}

/** The Portfolio tab's status line has `tone`. */
async function expectTone(frame: Frame, shot: string, tone: 'success' | 'warning' | 'error' | 'partial'): Promise<void> {
  const status = await frame.$eval('#portfolio-status', (e) => ({ className: e.className, text: e.textContent }));
  if (!status.className.includes(tone)) throw new WrongState(`${shot}: expected a ${tone} status line, but it is "${status.className}": "${status.text}".`);
}

async function installationCheck(): Promise<void> {
  console.log('Check this installation');
  const frame = await select('Sheet1', 'A1');
  await frame.click('#tab-settings');
  await frame.click('#installation-check-run');
  await frame.waitForFunction(() => /\b(success|error)\b/.test(document.querySelector('#installation-check-status')!.className), undefined, {
    timeout: 120_000,
  });
  await expectText(frame, '#installation-check-list', /Permissions granted/, 'installation-check.png');
  await expectText(frame, '#installation-check-status', /The report is also on the "Installation check" sheet\./, 'installation-check.png');
  await frame.locator('#installation-check').evaluate((e) => e.scrollIntoView());
  await shoot('installation-check.png', aside());
}

async function main(): Promise<void> {
  mkdirSync(IMAGES, { recursive: true });
  const [started, browser] = await Promise.all([startWorkbench(), launchBrowser()]);
  workbench = started;
  try {
    page = await browser.newPage({ viewport: { width: 1200, height: 560 } });
    await page.goto(workbench.url, { waitUntil: 'networkidle' });
    const only = process.argv.slice(2);
    const journeys: Array<[string, () => Promise<void>]> = [
      ['settings', settings],
      ['metrics', metrics],
      ['formulas', formulas],
      ['menu', menuItems],
      ['exporter', exporter],
      ['portfolio', portfolio],
      ['check', installationCheck],
    ];
    for (const [name, journey] of journeys) {
      if (name !== 'settings' && only.length > 0 && !only.includes(name)) continue;
      await journey();
    }
    console.log(`${taken.length} screenshots in docs/images.`);
  } finally {
    await browser.close();
    await workbench.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof WrongState ? `Screenshot not taken: ${error.message}` : error);
  process.exit(1);
});
