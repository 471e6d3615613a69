// The support log: what the add-in writes to Apps Script's execution log (console, kept in rt.logs per execution)
// as a person connects, recalculates formulas, exports through a 429, pushes an audit and imports contacts. Support
// reads it on a person's install, so it must say what happened (each request, wait and step) and hold no secret:
// not the token nor any piece of it, no full email, no cell value.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime, LogEntry } from '../../gas-runtime';
import type { AuditPushHandle, ExportHandle } from '../../src/shared/rpc';
import { driveAuditPush, driveExport, driveJob, ok, useStack, type Rpc, type Stack } from '../support/stack';

/** Mixed-case letters no id, word or number in a log line has: any 4-character piece of it is recognisable. */
const TOKEN = 'tokZqXvKpWmYrJhNtQsLgBvRzWq';
/** Emails typed into cells for the contacts import. */
const EMAILS = ['ada.lovelace@analytical-engines.example', 'grace.hopper@cobol.example'];
/** Values typed into cells: exported, pushed, imported, or passed to a formula that refuses them. */
const CELL_VALUES = ['8675309.17', '4242.4242', 'Reykjavik Harbour', 'Zanzibar Ventures', 'Confidential Cell Text'];

let stack: Stack;
useStack((started) => (stack = started), { token: TOKEN });

/** Every 4-character piece of the token. */
const tokenPieces = Array.from({ length: TOKEN.length - 3 }, (_, i) => TOKEN.slice(i, i + 4));

function expectNoSecrets(logs: readonly LogEntry[]): void {
  for (const { message } of logs) {
    for (const piece of tokenPieces) expect(message).not.toContain(piece);
    // A full email has its local part; the log keeps only the domain ("…@example.com").
    expect(message).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
    for (const email of EMAILS) expect(message).not.toContain(email.split('@')[0]!);
    for (const value of CELL_VALUES) expect(message).not.toContain(value);
  }
}

/** The add-in's own lines (its prefix), as support greps them. */
const supportLines = (rt: GasRuntime): string[] => rt.logs.map((l) => l.message).filter((m) => m.startsWith('[support]'));

it('logs each request, wait and step of the journeys, each in its own execution, and never a secret', async () => {
  // Made before anything lists the fund's metrics (a listing is cached).
  const created = await stack.emulator.control.fixtures({
    metrics: [{ company_id: DEMO_IDS.fund, name: 'Support revenue', frequency: 'daily', unit: 'number' }],
  });
  const rt = stack.runtime();
  const sheet = rt.spreadsheet.getActiveSheet();

  // Connect: the token pasted into Settings crosses the server call, and a wrong one is refused.
  ok(rt.callServer('saveSettings', [{ token: TOKEN }]));
  ok(rt.callServer('testConnection', [DEMO_IDS.fund]));
  const refusedToken = rt.callServer('saveSettings', [{ token: `${TOKEN}Xx` }]) as Rpc<unknown>;
  expect(refusedToken.ok).toBe(false);

  // Formulas: one that answers, and one refused for an argument that quotes a cell.
  rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue]);
  expect(() => rt.runCustomFunction('METRIC_VALUES', ['Confidential Cell Text'])).toThrow(/Confidential Cell Text/);

  // An export the server meets with a 429 first: the client waits and tries again.
  sheet.getRange('A1:B3').setValues([
    ['Date', 'Value'],
    ['2024-01-01', 8675309.17],
    ['2024-01-02', 4242.4242],
  ]);
  const spec = {
    layout: 'long',
    metricId: created.metrics[0]!.id,
    hasHeaderRow: true,
    skipBlanks: true,
    duplicates: 'reject',
    offPeriod: 'reject',
    onlyChanged: false,
  };
  const exportStarted = ok<ExportHandle>(rt.callServer('startExport', [{ companyId: DEMO_IDS.fund, range: 'Sheet1!A1:B3', spec, writeStatus: true }]));
  await stack.emulator.control.faults({ next429: 1 });
  const exported = await driveExport(stack, rt, exportStarted);
  expect(exported.report!.totals.created).toBe(2);

  // An audit push of one edited cell.
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const audit = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = audit.getDataRange().getValues();
  const state = await stack.emulator.control.state();
  const headquarters = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Headquarters')!;
  audit.getRange(grid.findIndex((r) => r[0] === DEMO_IDS.profile(2)) + 1, grid[0]!.indexOf(headquarters.id) + 1).setValue('Reykjavik Harbour');
  const pushed = await driveAuditPush(stack, rt, ok<AuditPushHandle>(rt.callServer('startAuditPush', [null])));
  expect(pushed.report).toBeTruthy();

  // Imports: a profile, and contacts by email.
  sheet.getRange('D1:E2').setValues([
    ['Name', 'Currency'],
    ['Zanzibar Ventures', 'EUR'],
  ]);
  const profiles = ok<{ importId: string; report?: unknown; progress: object }>(
    rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!D1:E2' }]),
  );
  await driveJob(stack, rt, profiles, 'continueImport', (h) => h.importId);
  sheet.getRange('H1:I3').setValues([
    ['Email', 'First name'],
    [EMAILS[0], 'Ada'],
    [EMAILS[1], 'Grace'],
  ]);
  const contacts = ok<{ importId: string; report?: unknown; progress: object }>(
    rt.callServer('startImport', [{ kind: 'contacts', companyId: DEMO_IDS.fund, range: 'Sheet1!H1:I3' }]),
  );
  await driveJob(stack, rt, contacts, 'continueImport', (h) => h.importId);

  // The work happened: the emulator holds what was sent.
  const after = await stack.emulator.control.state();
  expect(after.contacts.map((c) => c.email)).toEqual(expect.arrayContaining(EMAILS));
  expect(after.portfolio_company_profiles.map((p) => p.name)).toContain('Zanzibar Ventures');

  expectNoSecrets(rt.logs);
  const lines = supportLines(rt);
  // Each request: its method, its path without the query, its status and time.
  expect(lines).toContainEqual(expect.stringMatching(/^\[support\] request GET \/metrics status=200 ms=\d+/));
  expect(lines).toContainEqual(expect.stringMatching(/^\[support\] request PUT \/metrics\/[0-9a-f-]{36}\/data_points status=200 ms=\d+/));
  expect(lines).toContainEqual(expect.stringMatching(/^\[support\] request \w+ \/\S+ status=429 code=rate_limit_exceeded ms=\d+/));
  expect(lines).toContainEqual(expect.stringMatching(/^\[support\] request PUT \/portfolio_property_values status=20[01] /));
  expect(lines).toContainEqual(expect.stringMatching(/^\[support\] request POST \/contacts status=201/));
  expect(lines.filter((l) => l.includes('?'))).toEqual([]);
  // The 429's wait, and the retry after it.
  expect(lines).toContainEqual(expect.stringMatching(/^\[support\] wait reason=rate_limit ms=\d+$/));
  expect(lines).toContainEqual(expect.stringMatching(/ retry=1( |$)/));
  // Each step's start and end, with the job's kind, id and status.
  for (const job of ['export', 'audit-push', 'import']) {
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^\\[support\\] step-start job=${job}\\S* id=[0-9a-f-]{36}$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^\\[support\\] step-end job=${job}\\S* id=[0-9a-f-]{36} status=done ms=\\d+`)));
  }
  // Refusals by kind: the rejected token (a sidebar call) and the refused argument (a cell).
  expect(lines).toContainEqual('[support] refusal place=sidebar kind=input');
  expect(lines).toContainEqual('[support] refusal place=cell kind=input');

  // Every line belongs to an execution of the runtime, as the Executions page lists them.
  const executionIds = new Set(rt.executions.map((e) => e.id));
  for (const entry of rt.logs) expect(executionIds.has(entry.executionId)).toBe(true);
  const formulaRun = rt.executions.find((e) => e.functionName === 'METRIC_VALUES')!;
  expect(rt.logs.filter((l) => l.executionId === formulaRun.id).map((l) => l.message)).toContainEqual(
    expect.stringMatching(/^\[support\] request GET \/(metrics|data_points)/),
  );
});
