// The Pushes sheet, on the built bundle against the emulator: an export and an import each
// append one row per value or row they settled, with who, what and the outcome, and never the token.
// (The audit push's rows, with the server's value before: audit-conflicts.test.ts.)

import { DEMO_IDS } from '../../emulator/demo-data';
import type { ExportHandle, ImportHandle } from '../../src/shared/rpc';
import { driveExport, ok, OWNER, useStack, type Stack } from '../support/stack';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

it('logs each exported value and each imported row, with who sent it and its outcome', async () => {
  const created = await stack.emulator.control.fixtures({
    metrics: [{ company_id: DEMO_IDS.fund, name: 'Logged metric', frequency: 'daily', unit: 'number' }],
  });
  const metricId = created.metrics[0]!.id;
  const rt = stack.runtime();
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  sheet.getRange(1, 1, 3, 2).setValues([
    ['Date', 'Value'],
    ['2024-01-01', 7],
    ['2024-01-02', 9],
  ]);
  const started = ok<ExportHandle>(
    rt.callServer('startExport', [
      {
        companyId: DEMO_IDS.fund,
        range: 'Sheet1!A1:B3',
        spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
        writeStatus: false,
      },
    ]),
  );
  const exported = await driveExport(stack, rt, started);
  expect(exported.progress.status).toBe('done');

  sheet.getRange(1, 4, 3, 2).setValues([
    ['Name', 'Currency'],
    ['Logged Co One', 'USD'],
    ['Logged Co Two', 'EUR'],
  ]);
  let imported = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!D1:E3' }]));
  for (let step = 0; !imported.report && step < 20; step++) imported = ok<ImportHandle>(rt.callServer('continueImport', [imported.importId]));
  expect(imported.progress.status).toBe('done');

  const log = rt.spreadsheet.getSheetByName('Pushes')!.getDataRange().getValues();
  expect(log[0]).toEqual(['Time', 'Who', 'Kind', 'What', 'Period', 'Old value', 'New value', 'Outcome', 'Cell', 'Push']);
  const rows = log.slice(1);
  expect(rows.every((row) => row[0] instanceof Date)).toBe(true);
  // Each time names its zone, the spreadsheet's when it was written, as the Changes sheet's do.
  const pushes = rt.spreadsheet.getSheetByName('Pushes')!;
  const zone = rt.spreadsheet.getSpreadsheetTimeZone();
  expect(
    pushes
      .getRange(2, 1, rows.length, 1)
      .getDisplayValues()
      .flat()
      .every((shown) => new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} ${zone}$`).test(shown)),
  ).toBe(true);
  expect(rows.map((row) => row.slice(1))).toEqual([
    [OWNER, 'Export', 'Logged metric', '2024-01-01', '', '7', 'created', 'Sheet1!B2', exported.exportId],
    [OWNER, 'Export', 'Logged metric', '2024-01-02', '', '9', 'created', 'Sheet1!B3', exported.exportId],
    [OWNER, 'Import profiles', 'Logged Co One', '', '', expect.stringMatching(/^[0-9a-f-]{36}$/), 'created', 'Sheet1!D2', imported.importId],
    [OWNER, 'Import profiles', 'Logged Co Two', '', '', expect.stringMatching(/^[0-9a-f-]{36}$/), 'created', 'Sheet1!D3', imported.importId],
  ]);
  const state = await stack.emulator.control.state();
  const ids = state.portfolio_company_profiles.filter((p) => p.name.startsWith('Logged Co')).map((p) => p.id);
  expect(
    rows
      .slice(2)
      .map((row) => row[6])
      .sort(),
  ).toEqual(ids.sort());
  expect(JSON.stringify(log)).not.toContain(stack.emulator.token);
});
