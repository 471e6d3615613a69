// Reports in view: after a push or an import, the Portfolio tab's status line says how it went in one
// line, coloured by the outcome (never green with failures), and the report's top is scrolled into the
// sidebar's view. The viewport is a laptop's, short enough that the report starts below the fold
// unless the sidebar brings it up.

import type { Frame } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { useWorkbenchPage } from '../support/browser';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 600 });

/** The Portfolio tab of a freshly loaded sidebar. */
async function portfolioTab(): Promise<Frame> {
  await session.page.reload();
  const frame = await session.sidebar();
  await frame.click('#tab-portfolio');
  return frame;
}

async function api(route: string, body: unknown): Promise<void> {
  await session.page.evaluate(
    async ([r, b]) => {
      const response = await fetch(r, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      if (!response.ok) throw new Error(`${r}: ${await response.text()}`);
    },
    [route, body] as const,
  );
}

/** The status line once the action has ended (the busy spinner gone, a tone set). */
async function finalStatus(frame: Frame): Promise<{ text: string; className: string }> {
  await frame.waitForFunction(() => {
    const panel = document.querySelector('#panel-portfolio')!;
    return !panel.hasAttribute('aria-busy') && /\b(success|warning|error|partial)\b/.test(document.querySelector('#portfolio-status')!.className);
  });
  return frame.$eval('#portfolio-status', (el) => ({ text: el.textContent ?? '', className: el.className }));
}

/**
 * Where the report's top is in the sidebar's own viewport, and where the visible area ends (the top of
 * the status line that sticks to the bottom edge, or the viewport's bottom).
 */
async function reportPlacement(frame: Frame): Promise<{ top: number; visibleBottom: number }> {
  return frame.$eval('#portfolio-results', (results) => {
    const status = document.querySelector('#portfolio-status')!.getBoundingClientRect();
    return { top: results.getBoundingClientRect().top, visibleBottom: Math.min(window.innerHeight, status.top) };
  });
}

function expectInView(placement: { top: number; visibleBottom: number }): void {
  expect(placement.top).toBeGreaterThanOrEqual(0);
  // At least the report's first lines (its progress box's label and bar) are visible.
  expect(placement.top).toBeLessThan(placement.visibleBottom - 60);
}

it('a push with failures says so in a non-green status line, with the report in view', async () => {
  let frame = await portfolioTab();
  await frame.click('#audit-build');
  expect((await finalStatus(frame)).className).toBe('status success');

  // Where the audit put Employees (a number property) and Headquarters, and the rows of profiles 1 to 3.
  await session.page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Portfolio audit');
  // The grid draws the sheet first and fills its cells as their page arrives.
  await session.page.waitForFunction((id) => {
    const texts = Array.from(document.querySelectorAll('td'), (td) => td.textContent);
    return texts.includes(id) && texts.includes('Employees') && texts.includes('Headquarters');
  }, DEMO_IDS.profile(3));
  const cells = await session.page.evaluate(
    (profiles) => {
      const tds = Array.from(document.querySelectorAll<HTMLTableCellElement>('td'));
      const column = (name: string) => tds.find((td) => td.textContent === name)!.dataset.a1!.replace(/\d+$/, '');
      const row = (id: string) => tds.find((td) => td.textContent === id && td.dataset.a1!.startsWith('A'))!.dataset.a1!.slice(1);
      return { employees: profiles.slice(0, 2).map((id) => `${column('Employees')}${row(id)}`), headquarters: `${column('Headquarters')}${row(profiles[2]!)}` };
    },
    [DEMO_IDS.profile(1), DEMO_IDS.profile(2), DEMO_IDS.profile(3)],
  );
  const before = await session.workbench.control.state();
  const employeesOf = (state: typeof before, n: number) =>
    state.portfolio_property_values.find((v) => v.portfolio_property_id === DEMO_IDS.property(4) && v.portfolio_company_profile_id === DEMO_IDS.profile(n))
      ?.value ?? null;

  // Two edits the API cannot take (text in a number property), one it can.
  for (const a1 of cells.employees) await api('/api/paste', { sheet: 'Portfolio audit', a1, text: 'about forty' });
  await api('/api/paste', { sheet: 'Portfolio audit', a1: cells.headquarters, text: 'Porto' });

  frame = await portfolioTab();
  await frame.click('#audit-push');
  await frame.click('#audit-push-confirm');
  const status = await finalStatus(frame);
  // Part stored, part refused: partial, with only the refused count in red, in the line, the report and the bar.
  expect(status.className).toBe('status partial');
  expect(status.text).toMatch(/^The fund [0-9a-f-]{36}: \d+ cells compared: 1 (created|updated), \d+ unchanged, 2 failed\.$/);
  expect(await frame.$$eval('#portfolio-status .bad', (spans) => spans.map((s) => [s.textContent, getComputedStyle(s).color]))).toEqual([
    ['2 failed.', 'rgb(217, 48, 37)'],
  ]);
  expect(await frame.$eval('#portfolio-status', (p) => getComputedStyle(p).color)).toBe('rgb(32, 33, 36)');
  expect(await frame.getAttribute('#portfolio-results > p.status', 'class')).toBe('status partial');
  expect(await frame.$$eval('#portfolio-results > p.status .bad', (spans) => spans.map((s) => s.textContent))).toEqual(['2 failed.']);
  expect(await frame.getAttribute('#portfolio-results .progress-text', 'class')).toBe('progress-text partial');
  expect(await frame.textContent('#portfolio-results .progress-text')).toBe('Finished.');
  expectInView(await reportPlacement(frame));

  // What the emulator stored: the city, and the employee counts untouched.
  const after = await session.workbench.control.state();
  expect(
    after.portfolio_property_values.find((v) => v.portfolio_property_id === DEMO_IDS.property(7) && v.portfolio_company_profile_id === DEMO_IDS.profile(3))
      ?.value,
  ).toBe('Porto');
  expect([employeesOf(after, 1), employeesOf(after, 2)]).toEqual([employeesOf(before, 1), employeesOf(before, 2)]);
});

it('an import with failures says so in a non-green status line, with the report in view', async () => {
  const rows = ['Email\tFirst name', 'ana.report@example.com\tAna', 'not an email\tNobody', 'ben.report@example.com\tBen', 'also@@wrong\tNobody'];
  await api('/api/paste', { sheet: 'Sheet1', a1: 'A1', text: rows.join('\n') });
  await api('/api/select', { sheet: 'Sheet1', a1: 'A1:B5' });

  const frame = await portfolioTab();
  await frame.click('#import-contacts');
  const status = await finalStatus(frame);
  expect(status.className).toBe('status partial');
  expect(status.text).toBe('4 rows read: 2 created, 2 failed.');
  expect(await frame.$$eval('#portfolio-status .bad', (spans) => spans.map((s) => s.textContent))).toEqual(['2 failed.']);
  expectInView(await reportPlacement(frame));

  const stored = (await session.workbench.control.state()).contacts.map((c) => c.email);
  expect(stored).toEqual(expect.arrayContaining(['ana.report@example.com', 'ben.report@example.com']));
  expect(stored).not.toContain('not an email');
  expect(stored).not.toContain('also@@wrong');
});

it('a clean import is green and its status line says what was stored', async () => {
  // At G1, clear of the other import's A1:B5 and the id and status columns it adds at C and D, in either order.
  await api('/api/paste', { sheet: 'Sheet1', a1: 'G1', text: 'Email\ncleo.report@example.com' });
  await api('/api/select', { sheet: 'Sheet1', a1: 'G1:G2' });
  const frame = await portfolioTab();
  await frame.click('#import-contacts');
  const status = await finalStatus(frame);
  expect(status).toEqual({ text: '1 row read: 1 created.', className: 'status success' });
  expectInView(await reportPlacement(frame));
  expect((await session.workbench.control.state()).contacts.map((c) => c.email)).toContain('cleo.report@example.com');
});

it('an import with an unrecognised column names it, sends nothing, and imports without it only when told to', async () => {
  // At K1, clear of the other imports and the columns they add.
  await api('/api/paste', { sheet: 'Sheet1', a1: 'K1', text: 'Email\tContact list names\ndora.report@example.com\tBoard' });
  await api('/api/select', { sheet: 'Sheet1', a1: 'K1:L2' });
  const frame = await portfolioTab();
  await frame.click('#import-contacts');
  const asked = await finalStatus(frame);
  expect(asked).toEqual({ text: 'Nothing imported yet: 1 column of the selection has a header the import does not recognise.', className: 'status warning' });
  const box = await frame.$eval('[aria-label="Unrecognised columns"]', (el) => el.textContent ?? '');
  expect(box).toContain('Not recognised, so not sent: L "Contact list names".');
  expect(box).toContain('Recognised headers: Email, First name, Last name, Title, Contact lists, Contact id.');
  expect((await session.workbench.control.state()).contacts.map((c) => c.email)).not.toContain('dora.report@example.com');

  await frame.click('#import-ignore-columns');
  await frame.waitForFunction(() => /1 created/.test(document.querySelector('#portfolio-status')!.textContent ?? ''));
  expect(await finalStatus(frame)).toEqual({ text: '1 row read: 1 created.', className: 'status success' });
  expect((await session.workbench.control.state()).contacts.map((c) => c.email)).toContain('dora.report@example.com');
});
