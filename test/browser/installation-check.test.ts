// Check this installation from the sidebar's Settings tab, in Chromium on the workbench: the page lists every check
// with its status and meaning, and the report is on the "Installation check" sheet. The workbench calculates the
// formulas a call writes after a call returns (docs/platform.md §7); the page's progress reads are calls, so the probe
// formula may show its value in time, or not, and then its line says degraded, naming what to do. While it runs the lines known so far show,
// and its outcome ends on the tab's status line, in place of an earlier Save's.

import { useWorkbenchPage } from '../support/browser';

jest.setTimeout(120_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });

it('shows each check with its status and meaning, and says where the report is', async () => {
  const frame = await session.sidebar();
  await frame.click('#tab-settings');
  // An earlier Save's "Saved." on the tab's status line is replaced by the check's outcome.
  await frame.click('#settings-form button[type="submit"]');
  await frame.waitForFunction(() => /Saved/.test(document.querySelector('#settings-status')!.textContent ?? ''));
  await frame.click('#installation-check-run');
  // While the probe waits, the lines known so far are listed and the status line names what runs now.
  await frame.waitForFunction(() => /lines so far, now: Probe formula/.test(document.querySelector('#installation-check-status')!.textContent ?? ''));
  expect(await frame.$$eval('#installation-check-list li', (items) => items.map((li) => li.getAttribute('data-check')))).toEqual(
    expect.arrayContaining(['Permissions granted', 'API reached with the saved token']),
  );
  await frame.waitForFunction(() => /\b(success|error)\b/.test(document.querySelector('#installation-check-status')!.className));
  const lines = await frame.$$eval('#installation-check-list li', (items) =>
    items.map((li) => [li.getAttribute('data-check'), li.getAttribute('data-status'), li.textContent ?? '']),
  );
  const byName = Object.fromEntries(lines.map(([name, status, text]) => [name, { status, text }]));
  expect(byName['Permissions granted']!.status).toBe('pass');
  expect(byName['API reached with the saved token']).toEqual({ status: 'pass', text: expect.stringContaining('accepted the saved token') });
  expect(byName['Time zones known to the script']!.status).toBe('pass');
  // The page's progress reads are calls too, and the workbench evaluates pending formulas after each call ends, so
  // the probe may calculate while the check still runs (as on Google) or, if no read ended in time, after it.
  const probe = byName['Probe formula']!;
  expect(probe.status === 'pass' ? probe.text : `${probe.status}: ${probe.text}`).toMatch(
    /ran in Installation probe!B1|^degraded: .*run the check again in a minute/,
  );
  expect(await frame.textContent('#installation-check-status')).toContain('The report is also on the "Installation check" sheet.');
  expect(await frame.textContent('#settings-status')).toBe(await frame.textContent('#installation-check-status'));
  const token = session.workbench.token;
  expect(lines.flat().join(' ')).not.toContain(token);
});
