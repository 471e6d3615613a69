// The portfolio audit in Chromium on the workbench: build it, edit one cell in the grid, push it.

import path from 'node:path';
import type { Frame } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { gridWritten, useWorkbenchPage } from '../support/browser';
import { ROOT } from '../support/built-bundle';

jest.setTimeout(90_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1400, height: 1000 });

/** Types a city into the Headquarters cell of the audit row of demo profile `n`, as a person would in the grid. */
async function typeHeadquarters(n: number, city: string): Promise<void> {
  // The grid draws the sheet first and fills its cells as their page arrives.
  await session.page.waitForFunction((profileId) => {
    const texts = Array.from(document.querySelectorAll('td'), (td) => td.textContent);
    return texts.includes(profileId) && texts.includes('Headquarters');
  }, DEMO_IDS.profile(n));
  const target = await session.page.evaluate((profileId) => {
    const cells = Array.from(document.querySelectorAll<HTMLTableCellElement>('td'));
    const header = cells.find((td) => td.textContent === 'Headquarters')!;
    const column = header.dataset.a1!.replace(/\d+$/, '');
    const row = cells.find((td) => td.textContent === profileId && td.dataset.a1!.startsWith('A'))!.dataset.a1!.slice(1);
    return `${column}${row}`;
  }, DEMO_IDS.profile(n));
  await session.page.click(`td[data-a1="${target}"]`);
  await session.page.waitForSelector(`td.active[data-a1="${target}"]`);
  await session.page.fill('#formula', city);
  await session.page.press('#formula', 'Enter');
  await gridWritten(session.page);
  await session.page.waitForFunction(([a1, text]) => document.querySelector(`td[data-a1="${a1}"]`)?.textContent === text, [target, city] as const);
}

/** What the emulator holds for demo profile `n`'s Headquarters: the oracle, read apart from the add-in. */
async function storedHeadquarters(n: number): Promise<{ exists: boolean; value: string | null }> {
  const state = await session.workbench.control.state();
  const property = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Headquarters')!;
  const stored = state.portfolio_property_values.find((v) => v.portfolio_property_id === property.id && v.portfolio_company_profile_id === DEMO_IDS.profile(n));
  return { exists: stored !== undefined, value: stored?.value ?? null };
}

/** The one PUT a push of one cell sends, as the emulator logged it. */
async function pushedValues(): Promise<unknown[]> {
  const puts = (await session.workbench.control.requests()).filter((r) => r.method === 'PUT' && r.status >= 200 && r.status < 300);
  return puts.map((r) => (r.body as { portfolio_property_value?: { value?: unknown } }).portfolio_property_value?.value);
}

/** Builds the audit through the sidebar, as each test needs it whatever ran before (jest --randomize). */
async function buildAudit(): Promise<Frame> {
  const frame = await currentSidebar();
  await frame.click('#tab-portfolio');
  await frame.click('#audit-build');
  await frame.waitForFunction(() => /success/.test(document.querySelector('#portfolio-status')?.className ?? ''));
  expect(await frame.textContent('#portfolio-status')).toMatch(
    /^Built "Portfolio audit": 32 companies × 15 properties, \d+% complete \(\d+ blank cells highlighted\)\.$/,
  );
  await session.page.waitForFunction(() => document.querySelector('.tabs button[aria-selected="true"]')?.textContent === 'Portfolio audit');
  return frame;
}

it('builds the audit of the demo fund, and pushes one edited cell', async () => {
  const frame = await buildAudit();
  // The grid now shows the audit sheet; find Headquarters of the fourth company.
  await typeHeadquarters(4, 'Lisbon');
  const before = await storedHeadquarters(4);
  await session.workbench.control.clearRequests();

  await frame.click('#audit-push');
  // Nothing goes before the user has seen where it goes.
  await frame.waitForSelector('#audit-push-confirm');
  expect(await frame.textContent('#portfolio-results .confirm p')).toBe(`Push 1 changed cell to the fund ${DEMO_IDS.fund}?`);
  expect(await pushedValues()).toEqual([]);
  await frame.click('#audit-push-confirm');
  // The build's own bar (it runs as a job too) said Finished. already: wait for the push's.
  await frame.waitForFunction(
    () =>
      document.querySelector('#portfolio-results .progress-label')?.textContent === 'Pushing changed cells' &&
      document.querySelector('#portfolio-results .progress-text')?.textContent === 'Finished.',
  );
  expect(await frame.textContent('#portfolio-results > .status')).toMatch(
    new RegExp(`^The fund ${DEMO_IDS.fund}: \\d+ cells compared: 1 ${before.exists ? 'updated' : 'created'}, \\d+ unchanged\\.$`),
  );
  expect(await pushedValues()).toEqual(['Lisbon']);
  expect(await storedHeadquarters(4)).toEqual({ exists: true, value: 'Lisbon' });
  await (await session.page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'sidebar-audit.png') });
  await session.page.screenshot({ path: path.join(ROOT, 'test-artifacts', 'workbench-audit.png') });
});

it('builds the audit through the build job: the bar finishes at every page, each read once', async () => {
  await session.workbench.control.clearRequests();
  await buildAudit();
  const frame = await currentSidebar();
  expect(await frame.textContent('#portfolio-results .progress-text')).toBe('Finished.');
  const pages = (await session.workbench.control.requests())
    .filter((r) => r.method === 'GET' && r.status === 200 && /^\/portfolio_(company_profiles|properties|property_values|property_options)$/.test(r.path))
    .map((r) => `${r.path}?${r.query}`);
  // Profiles, properties, each of the 32 profiles' values, and the options of the selects.
  expect(pages.length).toBeGreaterThan(34);
  expect(new Set(pages).size).toBe(pages.length);
  // The job runner's bar, at its end: the build ran as a job, not as one buildAudit call.
  expect(await frame.textContent('#portfolio-results .progress-label')).toBe('Reading every profile, property and value');
  expect(await frame.$eval('#portfolio-results progress', (bar) => [(bar as HTMLProgressElement).value, (bar as HTMLProgressElement).max])).toEqual([
    pages.length,
    pages.length,
  ]);
});

it('cancels a build from its bar before its next wave of reads, offers Resume, and resumes it to the sheet', async () => {
  const frame = await currentSidebar();
  await frame.click('#tab-portfolio');
  // Every API request held until released: the first wave (profiles and properties) is under way when
  // Cancel is pressed, and is answered only once the cancel is set, however slow the machine (a 2 s latency
  // let a loaded machine press it after the second wave had started).
  await session.workbench.control.faults({ latencyMs: 600_000 });
  await session.workbench.control.clearRequests();
  try {
    const cancelAnswered = session.page.waitForResponse((response) => response.url().endsWith('/rpc/cancelAuditBuild'));
    await frame.click('#audit-build');
    await frame.waitForSelector('#portfolio-results .progress .cancel');
    await frame.click('#portfolio-results .progress .cancel');
    await cancelAnswered;
    await session.workbench.control.faults({ reset: true });
    await session.workbench.control.release();
    await frame.waitForFunction(() => document.querySelector('#portfolio-results .progress-text')?.textContent === 'Cancelled: it can be resumed.');
  } finally {
    await session.workbench.control.faults({ reset: true });
    await session.workbench.control.release();
  }
  expect(await frame.textContent('#portfolio-results > .status')).toMatch(/^The audit was not written: \d+ of \d+ pages read\.$/);
  const readBeforeResume = (await session.workbench.control.requests()).filter(
    (r) => r.method === 'GET' && r.status === 200 && r.path.startsWith('/portfolio_'),
  ).length;
  // The first wave only: the profiles and the properties.
  expect(readBeforeResume).toBeLessThanOrEqual(2);

  await frame.click('#portfolio-results button:text-is("Resume")');
  await frame.waitForFunction(() => /success/.test(document.querySelector('#portfolio-status')?.className ?? ''));
  expect(await frame.textContent('#portfolio-status')).toMatch(/^Built "Portfolio audit": 32 companies × 15 properties/);
  const pages = (await session.workbench.control.requests())
    .filter((r) => r.method === 'GET' && r.status === 200 && r.path.startsWith('/portfolio_'))
    .map((r) => `${r.path}?${r.query}`);
  expect(new Set(pages).size).toBe(pages.length);
});

/** The sidebar frame as it is now (the Portfolio tab may be open, so the Metrics panel hidden). */
async function currentSidebar(): Promise<Frame> {
  const frame = (await (await session.page.waitForSelector('iframe#sidebar')).contentFrame())!;
  await frame.waitForSelector('#tab-portfolio');
  return frame;
}

it('offers a push left unfinished with Resume when the Portfolio tab opens again, and resumes it', async () => {
  // A fresh audit, so that the Gdansk cell is the only one changed whatever ran before.
  await buildAudit();
  let frame = await currentSidebar();
  await typeHeadquarters(5, 'Gdansk');
  const before = await storedHeadquarters(5);

  // Started and cancelled through the page's own google.script.run, then the sidebar closes.
  const status = await frame.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        type Run = { withSuccessHandler(f: (v: unknown) => void): Run; withFailureHandler(f: (e: Error) => void): Run; [name: string]: unknown };
        const run = (window as unknown as { google: { script: { run: Run } } }).google.script.run;
        const call = (name: string, arg: unknown) =>
          new Promise<{ ok: boolean; value: { pushId: string; progress: { status: string } } }>((done, fail) => {
            (run.withSuccessHandler((v) => done(v as never)).withFailureHandler(fail)[name] as (a: unknown) => void)(arg);
          });
        call('startAuditPush', null)
          .then((started) => call('cancelAuditPush', started.value.pushId))
          .then((cancelled) => resolve(cancelled.value.progress.status), reject);
      }),
  );
  expect(status).toBe('cancelled');
  await session.page.reload();
  frame = await currentSidebar();
  await frame.click('#tab-portfolio');
  await frame.waitForSelector('.resume-offer button');
  expect(await frame.textContent('.resume-offer .hint')).toBe(
    `The push of changed cells of "Portfolio audit" to the fund ${DEMO_IDS.fund} was cancelled with 0 of 1 cell done. Resuming sends only what was not confirmed.`,
  );
  await session.workbench.control.clearRequests();
  await frame.click('.resume-offer button');
  await frame.waitForFunction(() => document.querySelector('.resume-offer .progress-text')?.textContent === 'Finished.');
  expect(await frame.textContent('.resume-offer > .status')).toMatch(
    new RegExp(`^The fund ${DEMO_IDS.fund}: \\d+ cells compared: 1 ${before.exists ? 'updated' : 'created'}, \\d+ unchanged\\.$`),
  );
  expect(await pushedValues()).toEqual(['Gdansk']);
  expect(await storedHeadquarters(5)).toEqual({ exists: true, value: 'Gdansk' });
});

it("takes the conflict journey: a colleague's change is kept and shown with both values, then overwritten on purpose", async () => {
  // A fresh audit, so that the Valencia cell is the only one changed whatever ran before.
  const frame = await buildAudit();
  await typeHeadquarters(6, 'Valencia');
  const state = await session.workbench.control.state();
  const property = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Headquarters')!;
  // The colleague, in the web application: straight to the API, after the build.
  const colleague = await fetch(`${session.workbench.emulatorUrl}/portfolio_property_values`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${session.workbench.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      portfolio_property_value: { portfolio_property_id: property.id, portfolio_company_profile_id: DEMO_IDS.profile(6), value: 'Porto' },
    }),
  });
  expect(colleague.ok).toBe(true);
  await session.workbench.control.clearRequests();

  await frame.click('#audit-push');
  // The push names its fund and asks first.
  await frame.waitForSelector('#audit-push-confirm');
  await frame.click('#audit-push-confirm');
  await frame.waitForFunction(
    () =>
      document.querySelector('#portfolio-results .progress-label')?.textContent === 'Pushing changed cells' &&
      document.querySelector('#portfolio-results .progress-text')?.textContent === 'Finished.',
  );
  expect(await frame.textContent('#portfolio-results > .status')).toMatch(
    /^The fund [0-9a-f-]{36}: \d+ cells compared: \d+ unchanged, 1 conflict \(changed on the server since the audit was built, so not sent\)\.$/,
  );
  expect(await frame.textContent('#portfolio-results .conflicts li')).toMatch(
    /^[A-Z]+\d+ \(.+, Headquarters\): when built ".*", on the server now "Porto", typed "Valencia"$/,
  );
  expect(await pushedValues()).toEqual([]);
  expect(await storedHeadquarters(6)).toEqual({ exists: true, value: 'Porto' });

  await session.workbench.control.clearRequests();
  await frame.click('#audit-overwrite');
  await frame.waitForFunction(
    () =>
      document.querySelector('#portfolio-results .progress-text')?.textContent === 'Finished.' &&
      /1 updated/.test(document.querySelector('#portfolio-results > .status')?.textContent ?? ''),
  );
  expect(await frame.textContent('#portfolio-results > .status')).toBe(`The fund ${DEMO_IDS.fund}: 1 cell compared: 1 updated.`);
  expect(await pushedValues()).toEqual(['Valencia']);
  expect(await storedHeadquarters(6)).toEqual({ exists: true, value: 'Valencia' });
  expect(await frame.isVisible('#portfolio-results [data-push-log]')).toBe(true);

  // Undo a push, the overwrite picked (the newest) and confirmed: it read the value it replaced, the colleague's,
  // which Undo writes back once the server still holds what the overwrite wrote.
  await session.workbench.control.clearRequests();
  await frame.click('#portfolio-results [data-undo-push]');
  await frame.waitForSelector('#portfolio-results select[data-undo-choice]');
  expect(await frame.textContent('#portfolio-results [data-undo-description]')).toMatch(
    /^Audit overwrite from "Portfolio audit" of .* 1 value stored: Undo restores 1 value it replaced\.$/,
  );
  expect(await pushedValues()).toEqual([]);
  await frame.click('#portfolio-results [data-undo-confirm]');
  await frame.waitForFunction(() => /^Undo of the/.test(document.querySelector('#portfolio-results .results > .status')?.textContent ?? ''));
  expect(await frame.textContent('#portfolio-results .results > .status')).toMatch(
    /^Undo of the audit overwrite \(Push [0-9a-f-]{36} in the Pushes sheet\): 1 value restored\./,
  );
  expect(await pushedValues()).toEqual(['Porto']);
  expect(await storedHeadquarters(6)).toEqual({ exists: true, value: 'Porto' });
});
