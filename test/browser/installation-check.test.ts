// Check this installation from the sidebar's Settings tab, in Chromium on the workbench: the page lists every check
// with its status and meaning, and the report is on the "Installation check" sheet. The workbench calculates the
// formulas a call writes after the call returns (not while it runs, docs/platform.md §7), so here the probe formula
// shows no value in time and its line says degraded, naming what to do.

import { useWorkbenchPage } from '../support/browser';

jest.setTimeout(120_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });

it('shows each check with its status and meaning, and says where the report is', async () => {
  const frame = await session.sidebar();
  await frame.click('#tab-settings');
  await frame.click('#installation-check-run');
  await frame.waitForFunction(() => /\b(success|error)\b/.test(document.querySelector('#installation-check-status')!.className), undefined, { timeout: 100_000 });
  const lines = await frame.$$eval('#installation-check-list li', (items) => items.map((li) => [li.getAttribute('data-check'), li.getAttribute('data-status'), li.textContent ?? '']));
  const byName = Object.fromEntries(lines.map(([name, status, text]) => [name, { status, text }]));
  expect(byName['Permissions granted']!.status).toBe('pass');
  expect(byName['API reached with the saved token']).toEqual({ status: 'pass', text: expect.stringContaining('accepted the saved token') });
  expect(byName['Time zones known to the script']!.status).toBe('pass');
  expect(byName['Probe formula']).toEqual({ status: 'degraded', text: expect.stringContaining('run the check again in a minute') });
  expect(await frame.textContent('#installation-check-status')).toContain('The report is also on the "Installation check" sheet.');
  const token = session.workbench.token;
  expect(lines.flat().join(' ')).not.toContain(token);
});
