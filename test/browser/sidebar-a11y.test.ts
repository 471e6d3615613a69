// The sidebar against WCAG 2.1 A and AA in Chromium on the workbench: axe-core over every tab in the states an
// analyst meets (settings empty and set, a search, a preview, a job running, cancelled and finished, an error,
// the portfolio tools, the installation check), the contrast axe does not check (hover, focus, fields' edges),
// and a keyboard-only run (token, search, insert, preview, export, Cancel) that follows the focus at each step.

import type { Frame, Page } from 'playwright-core';
import { outcomeOf, pageSettled, sidebarLoaded, useWorkbenchPage } from '../support/browser';
import { contrastShortfalls, expectNoAxeViolations } from '../support/axe';

jest.setTimeout(300_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 900 });

/** Every API request held until the test releases it: a job stays running while the test looks at it. */
const HELD_MS = 600_000;

const PANELS = {
  metrics: ['#panel-metrics', '#metrics-status'],
  export: ['#panel-export', '#export-status'],
  portfolio: ['#panel-portfolio', '#portfolio-status'],
  settings: ['#panel-settings', '#settings-status'],
} as const;

/** A fresh page on Sheet1 with the selection given, the sidebar's first loads over. */
async function freshPage(selection = 'A1'): Promise<Frame> {
  await session.page.evaluate(async (a1) => {
    await fetch('/api/select', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheet: 'Sheet1', a1 }) });
  }, selection);
  // Settled on the sidebar's first loads and the grid's drawing (not on a quiet network: 0.5 s more a page).
  await session.page.reload();
  await pageSettled(session.page);
  return session.sidebar();
}

async function showTab(frame: Frame, tab: keyof typeof PANELS): Promise<void> {
  await frame.click(`#tab-${tab}`);
  await frame.waitForSelector(`${PANELS[tab][0]}:not([hidden])`);
}

/** Runs an action of `tab` by clicking `selector` and answers its outcome. */
async function act(frame: Frame, tab: keyof typeof PANELS, selector: string): Promise<{ line: string; tone: string }> {
  await frame.click(selector);
  return outcomeOf(frame, PANELS[tab][0], PANELS[tab][1]);
}

/** axe over the whole sidebar (hidden tabs are skipped by axe), and the hover, focus and edge contrast of the tab shown. */
async function expectAccessible(frame: Frame, tab: keyof typeof PANELS, state: string): Promise<void> {
  await expectNoAxeViolations(frame, state);
  expect(await contrastShortfalls(frame, PANELS[tab][0])).toEqual([]);
  // One filled (primary) button in the tab, and no two controls of the tab share a name.
  const primaries = await frame.$$eval(`${PANELS[tab][0]} button.action`, (buttons) =>
    buttons.filter((b) => (b as HTMLElement).offsetParent !== null).map((b) => b.textContent),
  );
  expect(primaries).toHaveLength(1);
  const names = await frame.$$eval(`${PANELS[tab][0]} button`, (buttons) =>
    buttons.filter((b) => (b as HTMLElement).offsetParent !== null).map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim() ?? ''),
  );
  expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  // A heading names the tab, inside the page's main landmark.
  expect(await frame.$eval(`${PANELS[tab][0]} h2`, (h) => Boolean(h.closest('main')) && h.textContent)).toBeTruthy();
}

/** Pastes tab-separated rows at Sheet1!A1 without selecting them. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate(async (rows) => {
    await fetch('/api/paste', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sheet: 'Sheet1', a1: 'A1', text: rows }),
    });
  }, text);
}

async function select(page: Page, a1: string): Promise<void> {
  await page.evaluate(async (range) => {
    await fetch('/api/select', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheet: 'Sheet1', a1: range }) });
  }, a1);
}

/** A daily metric of the workbench's company and five days of it at A1:B6, the header naming it by id (a wide export). */
async function exportableRows(): Promise<string> {
  const { control, companyId } = session.workbench;
  const { metrics } = await control.fixtures({ metrics: [{ company_id: companyId, name: `A11y export ${Date.now()}`, frequency: 'daily', unit: 'number' }] });
  const id = metrics[0]!.id;
  await paste(session.page, ['Day\t' + id, ...[1, 2, 3, 4, 5].map((d) => `2024-03-0${d}\t${d * 10}`)].join('\n'));
  return id;
}

/** Releases the held API and stops holding it: what a held job sent is answered, and it ends. */
async function releaseApi(): Promise<void> {
  await session.workbench.control.faults({ reset: true });
  await session.workbench.control.release();
}

it('has no WCAG 2.1 A/AA violation in Settings: no token, a token set, a field error, the installation check', async () => {
  const frame = await freshPage();
  await showTab(frame, 'settings');
  await expectAccessible(frame, 'settings', 'Settings, a token set');

  expect(await act(frame, 'settings', '#remove-token')).toEqual({ line: 'The token was removed.', tone: 'success' });
  try {
    await expectAccessible(frame, 'settings', 'Settings, no token');
    // An error about a field is tied to it: aria-invalid, and its sentence named by aria-describedby.
    const companyId = await frame.inputValue('#company-id');
    await frame.fill('#company-id', '');
    expect((await act(frame, 'settings', '#test-connection')).tone).toBe('error');
    expect(await frame.getAttribute('#company-id', 'aria-invalid')).toBe('true');
    expect(
      await frame.$eval('#company-id', (field) =>
        (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent),
      ),
    ).toContain('Enter a company id to test the connection with.');
    await expectAccessible(frame, 'settings', 'Settings, a field error shown');
    await frame.fill('#company-id', companyId);
    expect(await frame.getAttribute('#company-id', 'aria-invalid')).toBeNull();
  } finally {
    await frame.fill('#token', session.workbench.token);
    expect((await act(frame, 'settings', '#settings-form button[type="submit"]')).tone).toBe('success');
  }

  await frame.click('#installation-check-run');
  await frame.waitForFunction(
    () =>
      /\b(success|error)\b/.test(document.querySelector('#installation-check-status')!.className) && !document.querySelector('#installation-check[data-busy]'),
  );
  await expectAccessible(frame, 'settings', 'Settings, the installation check reported');
});

it('has no violation in Metrics: loaded, searched, an error; the list is one tab stop with short names, its count said once', async () => {
  const frame = await freshPage();
  await showTab(frame, 'metrics');
  await expectAccessible(frame, 'metrics', 'Metrics, nothing loaded');
  expect((await act(frame, 'metrics', '#browse-form button[type="submit"]')).tone).toBe('success');
  await expectAccessible(frame, 'metrics', 'Metrics, loaded');

  await frame.fill('#metric-search', 'headcount');
  await frame.waitForFunction(() => /^\d+ of \d+ metrics shown\.$/.test(document.querySelector('#metric-count')!.textContent ?? ''));
  const list = await frame.$$eval('#metric-list input[type="checkbox"]', (boxes) =>
    boxes.map((box) => ({
      tabIndex: (box as HTMLInputElement).tabIndex,
      name: (box.getAttribute('aria-labelledby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(', '),
    })),
  );
  expect(list.length).toBeGreaterThan(1);
  expect(list.filter((box) => box.tabIndex === 0)).toHaveLength(1);
  // The name and its company: a few words, not the ~25 of name, company, frequency, unit and latest value.
  for (const box of list) expect(box.name.split(/\s+/).length).toBeLessThanOrEqual(8);
  expect(await frame.getAttribute('#metric-count', 'role')).toBe('status');
  await expectAccessible(frame, 'metrics', 'Metrics, search results');

  expect(await act(frame, 'metrics', '#insert-form button[type="submit"]')).toEqual({ line: 'Choose one or more metrics first.', tone: 'error' });
  expect(
    await frame.$eval('#metric-list', (field) =>
      (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent),
    ),
  ).toContain('Choose one or more metrics first.');
  await expectAccessible(frame, 'metrics', 'Metrics, an error shown');
});

it('has no violation in Export: a preview, a job running with its progress, cancelled, then resumed to its end', async () => {
  await exportableRows();
  const frame = await freshPage('A1:B6');
  await showTab(frame, 'export');
  await expectAccessible(frame, 'export', 'Export, before anything');
  expect((await act(frame, 'export', '#export-use-selection')).tone).toBe('success');
  expect(await frame.$$('#export-results table.preview')).toHaveLength(1);
  // The preview is read once, through the status line: its report is not a live region of its own.
  expect(
    await frame.$$eval('#export-results, #export-results *', (nodes) => nodes.filter((n) => n.matches('[aria-live], [role="status"], [role="alert"]')).length),
  ).toBe(0);
  await expectAccessible(frame, 'export', 'Export, preview shown');

  await session.workbench.control.faults({ latencyMs: HELD_MS });
  try {
    await frame.click('#export-form button[type="submit"]');
    await frame.waitForSelector('.progress.running button.cancel');
    // Work under way, but not aria-busy: the progress must be heard.
    expect(await frame.$eval('#panel-export', (panel) => [panel.hasAttribute('data-busy'), panel.getAttribute('aria-busy')])).toEqual([true, null]);
    await expectNoAxeViolations(frame, 'Export, a job running with its progress');
    const cancelAnswered = session.page.waitForResponse((response) => response.url().endsWith('/rpc/cancelExport'));
    await frame.click('.progress button.cancel');
    await cancelAnswered;
  } finally {
    await releaseApi();
  }
  expect((await outcomeOf(frame, '#panel-export', '#export-status')).line).toMatch(/^Cancelled\./);
  await expectAccessible(frame, 'export', 'Export, cancelled with its report');

  expect((await act(frame, 'export', '#export-resume button')).tone).toBe('success');
  await expectAccessible(frame, 'export', 'Export, finished with its report');
});

it('has no violation in Portfolio: its tools, the fund grid names, an import to confirm, an audit built', async () => {
  await paste(session.page, 'Name\tShoe size\nA11y Co\t9');
  const frame = await freshPage('A1:B2');
  await showTab(frame, 'portfolio');
  await expectAccessible(frame, 'portfolio', 'Portfolio');
  expect((await act(frame, 'portfolio', '#grid-load')).tone).toBe('success');
  await expectAccessible(frame, 'portfolio', 'Portfolio, the fund grid names');
  expect((await act(frame, 'portfolio', '#import-profiles')).tone).toBe('warning');
  await frame.waitForSelector('#import-ignore-columns');
  await expectAccessible(frame, 'portfolio', 'Portfolio, an import with a column to confirm');
  expect((await act(frame, 'portfolio', '#audit-build')).tone).toMatch(/success|warning/);
  await expectAccessible(frame, 'portfolio', 'Portfolio, an audit built');
  expect((await act(frame, 'portfolio', '#undo-a-push')).tone).toMatch(/success|warning/);
  await expectAccessible(frame, 'portfolio', 'Portfolio, the pushes to undo');
});

/** The focused element in the sidebar: its id, or its tag, class and text. */
async function focused(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const node = document.activeElement as HTMLElement | null;
    if (!node || node === document.body) return 'body';
    return node.id ? `#${node.id}` : `${node.tagName.toLowerCase()}.${node.className}: ${node.textContent?.trim() ?? ''}`;
  });
}

/** Whether the focused element is clear of the tab's sticky status line and of a running job's fixed box. */
async function focusInSight(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const node = document.activeElement as HTMLElement;
    const box = node.getBoundingClientRect();
    const panel = node.closest('[role="tabpanel"]');
    const covers = [panel?.querySelector(':scope > .status:not(:empty)'), document.querySelector('.progress.running')].filter(
      (cover): cover is Element => Boolean(cover) && !cover!.contains(node),
    );
    const hidden = covers.find((cover) => {
      const over = cover.getBoundingClientRect();
      return box.bottom > over.top && box.top < over.bottom;
    });
    return hidden
      ? `${node.id || node.tagName} (${box.top}-${box.bottom}) under ${hidden.id || hidden.className} (${hidden.getBoundingClientRect().top})`
      : 'in sight';
  });
}

/** Presses Tab until the focus is on `selector` (at most `limit` presses), checking at each stop that it is in sight. */
async function tabTo(frame: Frame, selector: string, limit = 40, key = 'Tab'): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await frame.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await session.page.keyboard.press(key);
    expect(await focusInSight(frame)).toBe('in sight');
  }
  throw new Error(`${selector} not reached in ${limit} presses of ${key}: the focus is on ${await focused(frame)}`);
}

it('goes token → search → insert → preview → export → Cancel with the keyboard alone, the focus on the control or its result', async () => {
  const { page } = session;
  await exportableRows();
  // The insert goes to H1, away from the rows to export.
  const frame = await freshPage('H1');
  await page.focus('iframe#sidebar');
  await tabTo(frame, '[role="tab"][aria-selected="true"]', 3);

  // The token.
  await tabTo(frame, '#tab-settings', 4, 'ArrowLeft');
  await page.keyboard.press('Tab');
  expect(await focused(frame)).toBe('#token');
  await page.keyboard.type(session.workbench.token);
  await page.keyboard.press('Enter');
  expect((await outcomeOf(frame, '#panel-settings', '#settings-status')).tone).toBe('success');
  expect(await focused(frame)).toBe('#token');

  // Load and search.
  await page.keyboard.press('Shift+Tab');
  expect(await focused(frame)).toBe('#tab-settings');
  await page.keyboard.press('ArrowRight');
  expect(await focused(frame)).toBe('#tab-metrics');
  await tabTo(frame, '#browse-form button[type="submit"]', 4);
  await page.keyboard.press('Enter');
  expect((await outcomeOf(frame, '#panel-metrics', '#metrics-status')).tone).toBe('success');
  expect(await frame.evaluate(() => document.activeElement === document.querySelector('#browse-form button[type="submit"]'))).toBe(true);
  await tabTo(frame, '#metric-search', 3);
  await page.keyboard.type('headcount');
  await frame.waitForFunction(() => /^\d+ of \d+ metrics shown\.$/.test(document.querySelector('#metric-count')!.textContent ?? ''));
  // The list is one tab stop: Tab reaches its first box, the arrows move within it, Space ticks.
  await tabTo(frame, '#metric-list input[type="checkbox"]', 3);
  const first = await focused(frame);
  await page.keyboard.press('ArrowDown');
  const second = await focused(frame);
  expect(second).not.toBe(first);
  await page.keyboard.press('Space');
  expect(await frame.evaluate(() => (document.activeElement as HTMLInputElement).checked)).toBe(true);
  // Out of the list in one press, or two when the metric focused has a source link (Open), the list's one link in the tab order.
  expect(await frame.$$eval('#metric-list :is(input, a[href])', (nodes) => nodes.filter((n) => (n as HTMLElement).tabIndex >= 0).length)).toBeLessThanOrEqual(
    2,
  );
  await page.keyboard.press('Tab');
  if (await frame.evaluate(() => document.activeElement?.matches('#metric-list a'))) await page.keyboard.press('Tab');
  expect(await frame.evaluate(() => document.querySelector('#metric-list')!.contains(document.activeElement))).toBe(false);

  // Insert, at H1.
  await tabTo(frame, '#insert-form button[type="submit"]', 15);
  await page.keyboard.press('Enter');
  expect((await outcomeOf(frame, '#panel-metrics', '#metrics-status')).tone).toBe('success');
  expect(await frame.evaluate(() => document.activeElement === document.querySelector('#insert-form button[type="submit"]'))).toBe(true);

  // Preview the rows at A1:B6.
  await select(page, 'A1:B6');
  await tabTo(frame, '#tab-metrics', 30, 'Shift+Tab');
  await page.keyboard.press('ArrowRight');
  expect(await focused(frame)).toBe('#tab-export');
  await tabTo(frame, '#export-use-selection', 4);
  await page.keyboard.press('Enter');
  expect((await outcomeOf(frame, '#panel-export', '#export-status')).tone).toBe('success');
  expect(await focused(frame)).toBe('#export-use-selection');
  await tabTo(frame, '#export-preview', 20);
  await page.keyboard.press('Enter');
  expect((await outcomeOf(frame, '#panel-export', '#export-status')).tone).toBe('success');
  expect(await focused(frame)).toBe('#export-preview');

  // Export, held at the API, then Cancel.
  await page.keyboard.press('Tab');
  expect(await frame.evaluate(() => document.activeElement === document.querySelector('#export-form button[type="submit"]'))).toBe(true);
  await session.workbench.control.faults({ latencyMs: HELD_MS });
  try {
    await page.keyboard.press('Enter');
    await frame.waitForSelector('.progress.running button.cancel');
    // Held while the job runs, but focused still (aria-disabled, not disabled): the focus is not on the body.
    expect(
      await frame.evaluate(() => {
        const button = document.activeElement as HTMLButtonElement;
        return button === document.querySelector('#export-form button[type="submit"]') && button.getAttribute('aria-disabled') === 'true' && !button.disabled;
      }),
    ).toBe(true);
    // Pressing it again does nothing while the job runs.
    await page.keyboard.press('Enter');
    expect(await frame.$$('.progress')).toHaveLength(1);
    await page.keyboard.press('Tab');
    expect(await focused(frame)).toMatch(/^button\.cancel: Cancel$/);
    expect(await focusInSight(frame)).toBe('in sight');
    const cancelAnswered = page.waitForResponse((response) => response.url().endsWith('/rpc/cancelExport'));
    await page.keyboard.press('Enter');
    await cancelAnswered;
    // Cancel keeps the focus until the job ends.
    expect(await focused(frame)).toMatch(/^button\.cancel/);
  } finally {
    await releaseApi();
  }
  expect((await outcomeOf(frame, '#panel-export', '#export-status')).line).toMatch(/^Cancelled\./);
  // Cancel gone, the focus is on the report's summary, not the body.
  expect(await frame.evaluate(() => document.activeElement === document.querySelector('#export-results > p.status'))).toBe(true);
  await sidebarLoaded(frame);
});
