// Debian's Chromium driven by playwright-core, with the flags this closed network needs.

import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { startWorkbench, type RunningWorkbench } from './workbench-process';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: run "npm test", which installs Debian's chromium package, or set CHROMIUM_PATH.`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** The workbench's sidebar frame, once its first panel is there. */
export async function sidebarFrame(page: Page): Promise<Frame> {
  const frame = await (await page.waitForSelector('iframe#sidebar')).contentFrame();
  if (!frame) throw new Error('The workbench has no sidebar frame.');
  await frame.waitForSelector('#panel-metrics');
  return frame;
}

/**
 * Shows `sheet` in the grid on a freshly loaded page, whichever sheet and sidebar tab an earlier test left: tests
 * run in any order (jest --randomize), so each one that needs a sheet says which.
 */
/**
 * Pastes tab-separated rows at Sheet1!A1 and selects `a1`, then reloads until the network is quiet: Use selection
 * clicked before the sidebar's settings arrive reads the selection without the default company.
 */
export async function pasteAndSelect(page: Page, text: string, a1: string): Promise<void> {
  await page.evaluate(
    async ({ text: rows, a1: range }) => {
      const post = (route: string, body: unknown) =>
        fetch(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post('/api/paste', { sheet: 'Sheet1', a1: 'A1', text: rows });
      await post('/api/select', { sheet: 'Sheet1', a1: range });
    },
    { text, a1 },
  );
  await page.reload({ waitUntil: 'networkidle' });
}

export async function showSheet(page: Page, sheet: string): Promise<void> {
  await page.evaluate(async (name) => {
    const response = await fetch('/api/select', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sheet: name, a1: 'A1' }),
    });
    if (!response.ok) throw new Error(`the workbench did not select ${name}: ${await response.text()}`);
  }, sheet);
  await page.reload();
  await page.waitForFunction((name) => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === name, sheet);
  await pageSettled(page);
}

/**
 * No Playwright timeout on these waits for the sidebar's and the grid's work to end: how long that takes depends on
 * the machine's load (a fresh workbench's first calls each start a worker thread that loads the whole bundle: 15 s
 * measured for the first two at a load average of 20 on 2 cores), not on whether it ends; what waits is bounded by the test's own timeout.
 */
const UNTIL_DONE = { timeout: 0 } as const;

/**
 * Every wait of a page (and its frames) waits for its state with no Playwright limit of its own, as UNTIL_DONE does:
 * Playwright's 30 s default is a guess about the machine, and under load a healthy click or status line took longer
 * (fund-grid-builder's insert at a load average of 13). The test's own timeout still ends a wait that never ends.
 */
export function waitOnStateNotTime(page: Page): void {
  page.setDefaultTimeout(0);
}

/**
 * Settles once the sidebar's first loads are over (its settings and formula access, each under busy()), so a
 * click then reaches enabled controls and an action reads the default company. data-busy, not aria-busy: a panel
 * showing a job's progress is not aria-busy (its progress must be heard), but its work is still under way. Before its script runs, the
 * Settings status line has no tone class; the load leaves one ('info' when cleared, 'error' when it failed).
 */
export async function sidebarLoaded(frame: Frame): Promise<void> {
  await frame.waitForFunction(
    () => document.querySelector('#settings-status')?.className !== 'status' && !document.querySelector('[data-busy]'),
    undefined,
    UNTIL_DONE,
  );
}

/** Settles once the sidebar's first loads are over and the grid has drawn (a page just opened or reloaded). */
export async function pageSettled(page: Page): Promise<void> {
  await sidebarLoaded(await sidebarFrame(page));
  await gridSettled(page);
}

/**
 * Settles once every entry typed into the grid has the server's answer and the cells it changed are drawn from it.
 * The page draws what was typed at once (class "pending"), so a cell's text alone does not say the server has it.
 */
export async function gridWritten(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { workbenchGrid: { written(): Promise<void> } }).workbenchGrid.written());
  await gridSettled(page);
}

/** Settles once the grid has drawn the pages in view: it re-reads the sheet after every sidebar call, keeping the pages drawn before in view until then. */
export async function gridSettled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const grid = (window as unknown as { workbenchGrid?: { shape(): unknown; settled(): boolean } }).workbenchGrid;
      return Boolean(grid?.shape()) && grid!.settled() && document.querySelector('td[data-a1]') !== null;
    },
    undefined,
    UNTIL_DONE,
  );
}

/**
 * Settles once `panel` has no work under way and `status` has its outcome, however long a loaded machine takes
 * (see UNTIL_DONE), and answers that outcome: a test asserts on it, so a failed action fails with its sentence
 * rather than as a wait for a success that never comes.
 */
export async function outcomeOf(frame: Frame, panel: string, status: string): Promise<{ line: string; tone: string }> {
  await frame.waitForFunction(
    ([p, s]) => !document.querySelector(p!)!.hasAttribute('data-busy') && /\b(success|warning|error|partial)\b/.test(document.querySelector(s!)!.className),
    [panel, status] as const,
    UNTIL_DONE,
  );
  return frame.$eval(status, (line) => ({ line: line.textContent ?? '', tone: /\b(success|warning|error|partial)\b/.exec(line.className)![1]! }));
}

/**
 * One workbench and one page for a whole test file: registers the hooks that start and stop them.
 * The returned object's fields are set once beforeAll has run.
 */
export function useWorkbenchPage(
  args: string[],
  viewport: { width: number; height: number },
): { workbench: RunningWorkbench; page: Page; sidebar(): Promise<Frame> } {
  let browser: Browser | undefined;
  const session = {
    workbench: undefined as unknown as RunningWorkbench,
    page: undefined as unknown as Page,
    sidebar: () => sidebarFrame(session.page),
  };
  beforeAll(async () => {
    [session.workbench, browser] = await Promise.all([startWorkbench(args), launchBrowser()]);
    session.page = await browser.newPage({ viewport });
    waitOnStateNotTime(session.page);
    await session.page.goto(session.workbench.url);
  });
  afterAll(async () => {
    await browser?.close();
    await session.workbench?.stop();
  });
  return session;
}

export interface FreshPageOptions {
  viewport: { width: number; height: number };
  /** Run before each page opens (e.g. put the workbench back on a sheet). */
  beforePage?: (workbench: RunningWorkbench) => Promise<void>;
  /**
   * Open the workbench's address, and what to wait for: 'load' (the default); 'settled', the sidebar's first loads
   * over and the grid's pages drawn (sidebarLoaded, gridSettled), so a click reaches what it aims at; false leaves
   * the page blank.
   */
  goto?: 'load' | 'settled' | false;
}

/**
 * One workbench and one browser for a whole test file, and a fresh page for each test (closed after it): the
 * hooks that start and stop them. `onPage` receives each test's workbench and page.
 *
 * The pages are tabs of one browser context (a profile), opened and closed in turn: the sidebar and the workbench keep
 * nothing in the browser (no cookies, no storage), so a tab of a context another test used starts as a new
 * profile's would. A context of its own for each page cost a second renderer each time (Chromium loads its omnibox
 * popup's page in every new profile): about 0.8 s of CPU a test.
 */
export function useWorkbenchFreshPages(options: FreshPageOptions, onPage: (workbench: RunningWorkbench, page: Page) => void, args: string[] = []): void {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let workbench: RunningWorkbench | undefined;
  let page: Page | undefined;
  beforeAll(async () => {
    [workbench, browser] = await Promise.all([startWorkbench(args), launchBrowser()]);
    context = await browser.newContext({ viewport: options.viewport });
  });
  afterAll(async () => {
    await browser?.close();
    await workbench?.stop();
  });
  beforeEach(async () => {
    await options.beforePage?.(workbench!);
    page = await context!.newPage();
    waitOnStateNotTime(page);
    const goto = options.goto ?? 'load';
    if (goto) await page.goto(workbench!.url);
    if (goto === 'settled') await pageSettled(page);
    onPage(workbench!, page);
  });
  afterEach(() => page?.close());
}
