// The sidebar in a real Chromium, on the workbench: the built page, the built server code, the emulator.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { DEMO_IDS, HTML_METRIC_NAME } from '../../emulator/demo-data';
import { pageSettled, sidebarFrame, useWorkbenchFreshPages } from '../support/browser';
import { ROOT } from '../support/built-bundle';
import type { RunningWorkbench } from '../support/workbench-process';

jest.setTimeout(90_000);

let workbench: RunningWorkbench;
let page: Page;

useWorkbenchFreshPages(
  {
    viewport: { width: 1280, height: 900 },
    // Each test starts on Sheet1, whichever sheet an earlier test left active (an audit build shows its own sheet).
    beforePage: async (w) => {
      const selected = await fetch(`${w.url}/api/select`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sheet: 'Sheet1', a1: 'A1' }),
      });
      if (!selected.ok) throw new Error(`the workbench did not select Sheet1: ${await selected.text()}`);
    },
    // Until the sidebar's first loads are over and the grid has drawn: it re-reads the sheet after each of the
    // sidebar's calls, and a click on a cell it is redrawing is lost.
    goto: 'settled',
  },
  (w, p) => {
    workbench = w;
    page = p;
  },
  // The owner's token saved from the start; the one test that saves another puts it back, whatever happens.
  ['--preset-token'],
);

const sidebar = (): Promise<Frame> => sidebarFrame(page);

async function settings(frame: Frame, token: string): Promise<string> {
  await frame.click('#tab-settings');
  await frame.fill('#token', token);
  await frame.click('#settings-form button[type="submit"]');
  await frame.waitForFunction(() => /^Saved/.test(document.querySelector('#settings-status')?.textContent ?? ''));
  return (await frame.textContent('#token-status')) ?? '';
}

async function statusOf(frame: Frame, selector: string): Promise<string> {
  await frame.waitForFunction((s) => {
    const el = document.querySelector(s);
    return el && /(success|error)/.test(el.className) && el.textContent;
  }, selector);
  return (await frame.textContent(selector)) ?? '';
}

async function cell(a1: string): Promise<string> {
  return (await page.textContent(`td[data-a1="${a1}"]`)) ?? '';
}

it('saves a token, shows only that it is set, and tests the connection', async () => {
  const frame = await sidebar();
  expect(await settings(frame, workbench.token)).toBe('A token is set.');
  // Saved again unchanged (the workbench started with it), so not tested again; a new token is (sidebar-server.test.ts).
  expect(await frame.textContent('#settings-status')).toMatch(/^Saved\./);
  expect(await frame.inputValue('#token')).toBe(''); // never sent back to the page
  await frame.click('#test-connection');
  expect(await statusOf(frame, '#settings-status')).toMatch(
    /^Connected\. This token sees \d+ metrics of company .+, and it is a fund with 32 portfolio companies\.$/,
  );
  mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
  await (await page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-settings.png') });
});

it('refuses a wrong token at Save, saying so, and keeps the one saved before', async () => {
  const frame = await sidebar();
  const before = await settings(frame, workbench.token);
  await frame.fill('#token', 'not-the-right-token');
  await frame.click('#settings-form button[type="submit"]');
  expect(await statusOf(frame, '#settings-status')).toBe(
    `The API at ${workbench.emulatorUrl} refused this token (HTTP 401), so it was not saved; the token saved before is kept. Paste the whole token again, as the platform's API support sent it.`,
  );
  expect(await frame.getAttribute('#settings-status', 'class')).toBe('status error');
  expect(await frame.textContent('#token-status')).toBe(before);
  await frame.click('#test-connection');
  expect(await statusOf(frame, '#settings-status')).toMatch(/^Connected\./);
});

it('browses metrics, renders HTML in a name as text, and inserts a snapshot and a formula', async () => {
  const frame = await sidebar();
  await frame.click('#tab-metrics');
  await frame.click('#browse-form button[type="submit"]');
  expect(await statusOf(frame, '#metrics-status')).toMatch(/^\d+ metrics loaded\.$/);

  // A metric name with HTML is shown as its literal text, and creates no element.
  const names = await frame.$$eval('.metric-name', (els) => els.map((e) => e.textContent));
  expect(names).toContain(HTML_METRIC_NAME);
  expect(await frame.$$('.metric-list img, .metric-list b')).toHaveLength(0);

  await frame.fill('#metric-search', 'headcount');
  // The fund's listing holds its portfolio companies' Headcount metrics too: the search keeps them all and nothing else.
  const found = await frame.$$eval('.metric-name', (els) => els.map((e) => e.textContent ?? ''));
  expect(found.length).toBeGreaterThan(0);
  expect(found.length).toBeLessThan(names.length);
  expect(found.filter((name) => !/headcount/i.test(name))).toEqual([]);
  await frame.check(`#metric-${DEMO_IDS.metrics.headcount}`);

  // A snapshot at B2: the header row names the metric, values follow.
  await page.click('td[data-a1="B2"]');
  await page.waitForSelector('td.active[data-a1="B2"]');
  await frame.fill('#insert-start', '2024-01-01');
  await frame.fill('#insert-end', '2024-12-31');
  await frame.check('#mode-snapshot');
  await frame.check('#insert-headers');
  await frame.click('#insert-form button[type="submit"]');
  expect(await statusOf(frame, '#metrics-status')).toBe(
    'Wrote 4 rows of values to Sheet1!B2:C6. "Refresh snapshots" in this tab writes them again with the values the API holds then.',
  );
  await page.waitForFunction(
    () => document.querySelector('td[data-a1="C2"]')?.textContent === 'Headcount' && document.querySelector('td[data-a1="B3"]')?.textContent === '1/1/2024',
  );
  // The value the emulator holds for Headcount in January 2024, read apart from the add-in.
  const state = await workbench.control.state();
  const january = state.data_points.find((p) => p.metric_id === DEMO_IDS.metrics.headcount && p.date === '2024-01-01');
  expect(january?.value).toEqual(expect.any(String));
  expect(Number(await cell('C3'))).toBe(Number(january!.value));

  // A live formula at E2 shows its results in the grid.
  await page.click('td[data-a1="E2"]');
  await page.waitForSelector('td.active[data-a1="E2"]');
  await frame.check('#mode-formula');
  await frame.click('#insert-form button[type="submit"]');
  expect(await statusOf(frame, '#metrics-status')).toMatch(/^Inserted =METRIC_VALUES\(/);
  await page.waitForFunction(() => document.querySelector('td[data-a1="F2"]')?.textContent === 'Headcount');
  // Dates returned by a custom function take the locale's default date format, as in Sheets, and so do the
  // snapshot's: one date format. Numbers a formula returns take the automatic format, the snapshot's its
  // metric's unit (docs/reference.md, "Number and date formats").
  expect(await cell('E3')).toBe('1/1/2024');
  expect(await cell('B3')).toBe(await cell('E3'));
  expect(await cell('C3')).toBe(`${await cell('F3')}.00`);
  expect(await page.getAttribute('td[data-a1="E2"]', 'data-formula')).toMatch(/^=METRIC_VALUES\("/);
  await (await page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-metrics.png') });
});

it('evaluates add-in formulas typed into the grid', async () => {
  await page.click('td[data-a1="H1"]');
  await page.waitForSelector('td.active[data-a1="H1"]');
  await page.fill('#formula', `=METRIC_VALUE("${DEMO_IDS.metrics.headcount}", "2024-Q1")`);
  await page.press('#formula', 'Enter');
  await page.waitForFunction(() => /^\d+$/.test(document.querySelector('td[data-a1="H1"]')?.textContent ?? ''));
});

describe('the token, once saved', () => {
  /** Every RPC reply body the page receives from now on, read when `bodies` is called. */
  function recordReplies(): { bodies(): Promise<string[]> } {
    const replies: Array<Promise<string | null>> = [];
    page.on('response', (response) => {
      // A reply whose frame went away before its body was read never reached a page: nothing there to leak.
      if (new URL(response.url()).pathname.startsWith('/rpc/')) replies.push(response.text().catch(() => null));
    });
    return { bodies: async () => (await Promise.all(replies)).filter((body): body is string => body !== null) };
  }

  /** All the sidebar holds as text: text nodes, every attribute, and the live value of every field. */
  function sidebarStrings(frame: Frame): Promise<string[]> {
    return frame.evaluate(() => {
      const strings: string[] = [document.documentElement.outerHTML, document.body.textContent];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) strings.push(node.nodeValue ?? '');
      for (const element of Array.from(document.querySelectorAll('*'))) {
        for (const attribute of Array.from(element.attributes)) strings.push(attribute.value);
        if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) strings.push(element.value);
      }
      return strings;
    });
  }

  /** The failures: each string holding the token, or any run of 6 of its characters (the page is shown none). */
  function leaks(strings: string[], token: string): string[] {
    const pieces = Array.from({ length: token.length - 5 }, (_, i) => token.slice(i, i + 6));
    return strings.filter((text) => pieces.some((piece) => text.includes(piece))).map((text) => text.slice(0, 200));
  }

  it('never reaches the page: not in a reply, the text, an attribute or a field, before or after a reload', async () => {
    // A token unlike any text of the page, so any run of its characters found there is a leak. The API knows it
    // (Save keeps only a token the API accepts) but it reaches no company, which also walks the error paths.
    const token = `Zq${Date.now().toString(36)}LeakProbe9x${Math.random().toString(36).slice(2, 10)}`;
    await workbench.control.fixtures({ users: [{ name: 'Leak probe', tokens: [token], company_ids: [] }] });
    const hint = 'A token is set.';
    const replies = recordReplies();
    try {
      let frame = await sidebar();
      expect(await settings(frame, token)).toBe(hint);
      await frame.click('#test-connection');
      expect(await statusOf(frame, '#settings-status')).toMatch(/access|not found|rejected/);
      await frame.click('#tab-metrics');
      await frame.click('#browse-form button[type="submit"]');
      expect(await statusOf(frame, '#metrics-status')).toMatch(/token/);
      expect(leaks(await sidebarStrings(frame), token)).toEqual([]);

      await page.reload();
      frame = await sidebar();
      await frame.waitForFunction((line) => document.querySelector('#token-status')?.textContent === line, hint);
      expect(leaks(await sidebarStrings(frame), token)).toEqual([]);
      // Not even the end of it, nor its length.
      expect((await sidebarStrings(frame)).filter((text) => text.includes(token.slice(-4)) || text.includes(`${token.length} characters`))).toEqual([]);

      const bodies = await replies.bodies();
      expect(bodies.some((body) => body.includes('"tokenSet":true'))).toBe(true); // the replies were seen
      expect(bodies.filter((body) => body.includes(token.slice(-4)))).toEqual([]);
      expect(leaks(bodies, token)).toEqual([]);
    } finally {
      // The owner's token again, for the tests after this one.
      await settings(await sidebar(), workbench.token);
    }
  });

  it('is not sent back while the add-in uses it', async () => {
    const replies = recordReplies();
    const frame = await sidebar();
    await settings(frame, workbench.token);
    await frame.click('#test-connection');
    expect(await statusOf(frame, '#settings-status')).toMatch(/^Connected\./);
    await frame.click('#tab-metrics');
    await frame.click('#browse-form button[type="submit"]');
    expect(await statusOf(frame, '#metrics-status')).toMatch(/^\d+ metrics loaded\.$/);
    const bodies = await replies.bodies();
    expect(bodies.length).toBeGreaterThanOrEqual(3); // saveSettings, testConnection, listMetrics
    expect(bodies.filter((body) => body.includes(workbench.token))).toEqual([]);
    expect((await sidebarStrings(frame)).filter((text) => text.includes(workbench.token))).toEqual([]);
  });
});

describe('two loads under way at once', () => {
  /**
   * Reloads the sidebar with the answers to the calls of `order` held back until both loads are under way (each holding
   * its controls), then lets them through one at a time in that order, each once the element its load kept busy is idle.
   */
  async function loadsAnsweredInOrder(order: Array<{ call: string; busy: string }>): Promise<Frame> {
    const opens: Array<() => void> = [];
    const sent: Array<Promise<void>> = [];
    for (const { call } of order) {
      let open!: () => void;
      let seen!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      sent.push(new Promise<void>((resolve) => (seen = resolve)));
      opens.push(open);
      // Not `times: 1`: a route that expires while the other is held turns interception off, letting the held one through.
      let first = true;
      await page.route(`**/rpc/${call}`, async (route) => {
        if (!first) return route.fallback();
        first = false;
        seen();
        const response = await route.fetch();
        await gate;
        await route.fulfill({ response });
      });
    }
    await page.reload();
    const frame = await sidebar();
    await Promise.all(sent);
    for (const [i, { busy }] of order.entries()) {
      opens[i]!();
      await frame.waitForFunction((selector) => !document.querySelector(selector)!.hasAttribute('aria-busy'), busy);
    }
    return frame;
  }

  const SETTINGS = { call: 'getSettings', busy: '#panel-settings' };
  const FORMULA_ACCESS = { call: 'getFormulaAccess', busy: '#formula-access' };

  it.each([
    ['the settings answer first', [SETTINGS, FORMULA_ACCESS]],
    ['the formula access answers first', [FORMULA_ACCESS, SETTINGS]],
  ])('leave every control of Settings enabled, Allow the default company included, when %s', async (_, order) => {
    const frame = await loadsAnsweredInOrder(order);
    // Both loads ended: the formula access list is drawn.
    await frame.waitForFunction(() => document.querySelector('#formula-access-list')!.childElementCount > 0);
    expect(await frame.isEnabled('#formula-access-add')).toBe(true);
    const disabled = await frame.$$eval('#panel-settings :is(button, input, select)', (controls) =>
      controls.filter((c) => (c as HTMLButtonElement).disabled).map((c) => c.id || c.textContent),
    );
    expect(disabled).toEqual([]);
  });
});

describe('the add-on menu', () => {
  /** Clicks a menu item and returns the sidebar frame once a new sidebar page has replaced the old one. */
  async function menu(caption: string): Promise<Frame> {
    const iframe = (await page.$('iframe#sidebar'))!;
    const before = await iframe.evaluate((frame) => (frame as HTMLIFrameElement).src);
    await page.click(`#menu button:text-is("${caption}")`);
    await page.waitForFunction((old) => (document.querySelector('iframe#sidebar') as HTMLIFrameElement).src !== old, before);
    const frame = (await iframe.contentFrame())!;
    // The sidebar's script has run once its settings have loaded (whichever tab is shown).
    await frame.waitForFunction(
      () => document.querySelector('#settings-status')?.className === 'status info' && document.querySelector('#settings-status')?.textContent === '',
    );
    return frame;
  }

  it('Export selection replaces the sidebar with one on the Export tab, the selection read', async () => {
    await page.evaluate(async (text) => {
      await fetch('/api/paste', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sheet: 'Sheet1', a1: 'J1', text }) });
    }, 'Month\tValue\n2024-01-01\t10\n2024-02-01\t20');
    await page.reload();
    await pageSettled(page);
    await page.click('td[data-a1="J1"]');
    await page.waitForSelector('td.active[data-a1="J1"]');
    await page.click('td[data-a1="K3"]', { modifiers: ['Shift'] });
    await page.waitForSelector('td.selected[data-a1="K3"]');

    // The tab's first load (its metrics) must not overwrite what the selection read (it did, when the machine was
    // busy and the load ended last). Its answer is held until no action of the tab is under way: a selection read
    // started beside the load (as it was) reports first, and the load's end then meets its line. Held on the state
    // that matters, not on a slow API (1.5 s a request made that order likely, and cost seconds).
    await page.route('**/rpc/listMetrics', async (route) => {
      await route
        .request()
        .frame()
        .waitForFunction(() => !document.querySelector('#panel-export')?.hasAttribute('data-busy'));
      await route.fallback();
    });
    const frame = await menu('Export selection');
    await frame.waitForSelector('#tab-export[aria-selected="true"]');
    expect(await frame.isHidden('#panel-metrics')).toBe(true);
    expect(await statusOf(frame, '#export-status')).toBe('Sheet1!J1:K3: 3 rows, 2 columns.');
    // Settled: the metrics load is over, and the status line still says what the selection read.
    await frame.waitForFunction(() => (document.querySelector('#export-metric') as HTMLSelectElement).options.length > 1);
    expect(await frame.textContent('#export-status')).toBe('Sheet1!J1:K3: 3 rows, 2 columns.');
    expect(await frame.inputValue('#export-range')).toBe('Sheet1!J1:K3');
    // One sidebar: the shown one took the place of the first.
    expect(await page.$$('iframe')).toHaveLength(1);
  });

  it('Build portfolio audit replaces the sidebar with one on the Portfolio tab, and builds the audit', async () => {
    const frame = await menu('Build portfolio audit');
    await frame.waitForSelector('#tab-portfolio[aria-selected="true"]');
    expect(await frame.isHidden('#panel-metrics')).toBe(true);
    // It builds, as its name says: the status line ends with the build's report, and the sheet is there.
    expect(await statusOf(frame, '#portfolio-status')).toMatch(/^Built "Portfolio audit"/);
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.tabs button')).some((b) => b.textContent === 'Portfolio audit'));
  });

  it('Open sidebar shows a fresh sidebar on its first tab', async () => {
    const frame = await sidebar();
    await frame.click('#tab-settings');
    const fresh = await menu('Open sidebar');
    await fresh.waitForSelector('#tab-metrics[aria-selected="true"]');
    expect(await fresh.isHidden('#panel-settings')).toBe(true);
  });
});

describe('the layout', () => {
  /** Where a tab's status line is, seen from the sidebar's viewport, with the tab scrolled to `to`. */
  function statusPlace(
    frame: Frame,
    selector: string,
    to: 'top' | 'bottom',
  ): Promise<{ top: number; bottom: number; height: number; viewport: number; scrollable: boolean; onTop: boolean }> {
    return frame.evaluate(
      ([s, where]) => {
        window.scrollTo(0, where === 'top' ? 0 : document.documentElement.scrollHeight);
        const status = document.querySelector(s)!;
        const box = status.getBoundingClientRect();
        // The element a click at the line's middle reaches: the line itself, not something drawn over it.
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return {
          top: box.top,
          bottom: box.bottom,
          height: box.height,
          viewport: window.innerHeight,
          scrollable: document.documentElement.scrollHeight > window.innerHeight + 50,
          onTop: hit === status || status.contains(hit),
        };
      },
      [selector, to] as const,
    );
  }

  it("keeps each tab's status line in view at the bottom, however far the tab scrolls", async () => {
    await page.setViewportSize({ width: 1280, height: 560 });
    const frame = await sidebar();
    await frame.click('#tab-settings');
    await frame.click('#test-connection');
    await statusOf(frame, '#settings-status');
    await frame.click('#tab-metrics');
    await frame.click('#browse-form button[type="submit"]');
    await statusOf(frame, '#metrics-status');
    await frame.click('#tab-export');
    await frame.click('#export-use-selection');
    await statusOf(frame, '#export-status');
    await frame.click('#tab-portfolio');
    await frame.waitForFunction(() => !document.querySelector('#panel-portfolio[aria-busy]'));
    await frame.click('#audit-build');
    await statusOf(frame, '#portfolio-status');

    for (const tab of ['metrics', 'export', 'portfolio', 'settings']) {
      await frame.click(`#tab-${tab}`);
      for (const to of ['top', 'bottom'] as const) {
        const place = await statusPlace(frame, `#${tab}-status`, to);
        expect({ tab, to, height: place.height > 0, inView: place.top >= 0 && place.bottom <= place.viewport, onTop: place.onTop }).toEqual({
          tab,
          to,
          height: true,
          inView: true,
          onTop: true,
        });
        // Scrolled to the top of a tab taller than the sidebar, the line sits at the sidebar's bottom edge.
        if (to === 'top' && place.scrollable) expect(place.viewport - place.bottom).toBeLessThan(2);
      }
    }
    // The Metrics tab, with its list loaded, runs well past the bottom of this sidebar.
    await frame.click('#tab-metrics');
    expect((await statusPlace(frame, '#metrics-status', 'top')).scrollable).toBe(true);
  });

  it('fits every tab in the 300 px sidebar, with nothing wider than it', async () => {
    const frame = await sidebar();
    // A metric whose name has no place to break, listed in the Metrics tab and in the Export tab's menu.
    await frame.click('#tab-metrics');
    await frame.fill('#new-name', `Recurring_revenue_of_the_whole_portfolio_in_the_reporting_currency_${Date.now()}`);
    await frame.click('#create-form button[type="submit"]');
    expect(await statusOf(frame, '#metrics-status')).toMatch(/^Created "Recurring_revenue/);
    for (const tab of ['metrics', 'export', 'portfolio', 'settings']) {
      await frame.click(`#tab-${tab}`);
      const widths = await frame.evaluate((id) => {
        const panel = document.getElementById(`panel-${id}`)!;
        const wider = Array.from(panel.querySelectorAll<HTMLElement>('*'))
          .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > window.innerWidth + 0.5)
          .map((e) => e.id || e.tagName);
        return { page: document.documentElement.scrollWidth, viewport: window.innerWidth, wider };
      }, tab);
      expect({ tab, wider: widths.wider, overflows: widths.page > widths.viewport }).toEqual({ tab, wider: [], overflows: false });
      expect(widths.viewport).toBe(300);
    }
  });
});
