// The add-in's main journeys with each unstated platform assumption of docs/platform.md switched the other way in
// the runtime: every value must still be right (slower is fine). Each switch runs formulas (METRIC_VALUES,
// METRIC_VALUE with a date cell, PORTFOLIO_VALUE) recalculated together, Refresh data, a snapshot inserted and
// refreshed from the sidebar, the scheduled refresh by its trigger, and an export, asserting on the grid and on
// what the emulator stores.

import type { GasRuntime, PlatformAssumptions } from '../../gas-runtime';
import type { ExportHandle, ExportRequest, InsertReport } from '../../src/shared/rpc';
import { driveExport, ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const HOUR = 3_600_000;
/** West of the script's zone (the manifest's Etc/UTC): a date built in the wrong zone lands on the previous day. */
const SPREADSHEET_ZONE = 'America/New_York';

interface Fund {
  fundId: string;
  revenue: string;
  exported: string;
}

async function createFund(): Promise<Fund> {
  const control = stack.emulator.control;
  const { companies } = await control.fixtures({ companies: [{ name: 'Switch Fund', kind: 'investor' }] });
  const fundId = companies[0]!.id;
  const { portfolio_company_profiles: profiles } = await control.fixtures({
    portfolio_company_profiles: [{ company_id: fundId, name: 'Switch Co', fiscal_year_end_month: 12 }],
  });
  const { metrics } = await control.fixtures({
    metrics: [
      { company_id: fundId, portfolio_company_profile_id: profiles[0]!.id, name: 'Revenue', frequency: 'monthly', unit: 'USD' },
      { company_id: fundId, name: 'Exported', frequency: 'monthly', unit: 'USD' },
    ],
  });
  const revenue = metrics[0]!.id;
  await control.fixtures({ data_points: ['2024-01-01', '2024-02-01', '2024-03-01'].map((date, i) => ({ metric_id: revenue, date, value: `${100 + i}` })) });
  return { fundId, revenue, exported: metrics[1]!.id };
}

async function restate(metricId: string, date: string, value: string): Promise<void> {
  await stack.emulator.control.fixtures({ data_points: [{ metric_id: metricId, date, value }] });
}

const FORMULAS = (revenueCell: string) => [
  { cell: 'B1', formula: `=METRIC_VALUES(${revenueCell}, "2024-01-01", "2024-03-31")` },
  { cell: 'E1', formula: `=METRIC_VALUE(${revenueCell}, A2)` },
  { cell: 'E2', formula: `=METRIC_VALUE(${revenueCell}, "2024-Q1", "sum")` },
  { cell: 'E3', formula: '=PORTFOLIO_VALUE("Switch Co", "Revenue", "2024-03")' },
];

function formulaValues(rt: GasRuntime): { table: string[][]; february: unknown; quarter: unknown; march: unknown } {
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  return {
    table: sheet.getRange('B1:C3').getDisplayValues(),
    february: sheet.getRange('E1').getValue(),
    quarter: sheet.getRange('E2').getValue(),
    march: sheet.getRange('E3').getValue(),
  };
}

/** Formulas, Refresh data: the grid shows what the API holds, in the spreadsheet's dates. */
async function formulasAndRefresh(rt: GasRuntime, fund: Fund): Promise<void> {
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  sheet.getRange('A1').setValue(fund.revenue);
  sheet.getRange('A2').setValue('2024-02-01');
  // The person works elsewhere: the selection is not any formula's cell.
  const notes = rt.spreadsheet.insertSheet('Notes');
  rt.spreadsheet.setActiveRange(notes.getRange('C3'));
  const outcomes = await rt.recalculate(FORMULAS('A1').map((f) => ({ ...f, sheet: 'Sheet1' })));
  expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true]);
  expect(formulaValues(rt)).toEqual({
    table: [
      ['1/1/2024', '100'],
      ['2/1/2024', '101'],
      ['3/1/2024', '102'],
    ],
    february: 101,
    quarter: 303,
    march: 102,
  });

  await restate(fund.revenue, '2024-02-01', '155');
  rt.run('refreshData');
  const rerun = await rt.recalculateWritten();
  expect(rerun.map((o) => o.cell).sort()).toEqual(['B1', 'E1', 'E2', 'E3']);
  expect(formulaValues(rt)).toEqual({
    table: [
      ['1/1/2024', '100'],
      ['2/1/2024', '155'],
      ['3/1/2024', '102'],
    ],
    february: 155,
    quarter: 357,
    march: 102,
  });
}

/** A snapshot inserted, refreshed from the sidebar, then by the scheduled trigger. */
async function snapshots(rt: GasRuntime, fund: Fund, noDateFormat = false): Promise<void> {
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  rt.spreadsheet.setActiveRange(sheet.getRange('H1'));
  ok<InsertReport>(
    rt.callServer('insertMetricValues', [
      { companyId: fund.fundId, metricIds: [fund.revenue], startDate: '2024-01-01', endDate: '2024-03-31', mode: 'snapshot', headers: true },
    ]),
  );
  // As the formula's dates show; where Sheets gives a written date no format, ISO rather than a serial number.
  const dates = noDateFormat ? ['2024-01-01', '2024-02-01', '2024-03-01'] : ['1/1/2024', '2/1/2024', '3/1/2024'];
  expect(sheet.getRange('H2:I4').getDisplayValues()).toEqual([
    [dates[0], '$100.00'],
    [dates[1], '$155.00'],
    [dates[2], '$102.00'],
  ]);

  await restate(fund.revenue, '2024-03-01', '170');
  ok(rt.callServer('refreshSnapshots'));
  expect(sheet.getRange('I2:I4').getValues()).toEqual([[100], [155], [170]]);

  ok(rt.callServer('scheduleSnapshotRefresh', ['hourly']));
  await restate(fund.revenue, '2024-01-01', '90');
  const runs = rt.triggers.advance(HOUR);
  expect(runs).toEqual([expect.objectContaining({ handlerFunction: 'runScheduledSnapshotRefresh', ok: true })]);
  expect(sheet.getRange('I2:I4').getValues()).toEqual([[90], [155], [170]]);
  ok(rt.callServer('cancelSnapshotRefresh'));
}

/** An export of typed date cells stores exactly those days. */
async function exportRange(rt: GasRuntime, fund: Fund): Promise<void> {
  const sheet = rt.spreadsheet.insertSheet('Export');
  sheet.getRange('A1:B4').setValues([
    ['Date', 'Value'],
    ['2024-04-01', '7'],
    ['2024-05-01', '8.5'],
    ['2024-06-01', '9'],
  ]);
  const request: ExportRequest = {
    companyId: fund.fundId,
    range: 'Export!A1:B4',
    spec: { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId: fund.exported },
    writeStatus: false,
  };
  const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request])));
  expect(done.report).toBeDefined();
  const state = await stack.emulator.control.state();
  const stored = state.data_points
    .filter((p) => p.metric_id === fund.exported)
    .map((p) => [p.date, p.value])
    .sort();
  expect(stored).toEqual([
    ['2024-04-01', '7'],
    ['2024-05-01', '8.5'],
    ['2024-06-01', '9'],
  ]);
}

const SWITCHES: Array<[string, PlatformAssumptions]> = [
  ['as the add-in was built to expect', {}],
  ['getActiveRange() is not the calling cell', { activeRangeIsCallingCell: false }],
  ["custom functions do not share the owner's cache and lock", { sharedCachesAcrossExecutions: false }],
  ["Intl does not know the spreadsheet's or the script's zone", { intlKnowsZone: false }],
  ['identical formula text is not recalculated', { identicalFormulaRecalculates: false }],
  ["date arguments are built in the script's zone", { datesInScriptZone: true }],
  ['a time-driven trigger sees the active spreadsheet', { activeSpreadsheetInTimeTrigger: true }],
  ['a date a script writes gets no date format', { writtenDatesGetDateFormat: false }],
  // Nothing is declined in the journeys, so only a path that wrongly met a refusal would notice (declined-scopes.test.ts has the rest).
  ["a declined scope's refusal names no scope", { declinedScopeRefusalNamesScope: false }],
];

describe.each(SWITCHES)('the main journeys when %s', (_name, assumptions) => {
  it('show and store the values the API holds', async () => {
    const fund = await createFund();
    const rt = stack.runtime({ defaultCompany: fund.fundId, timeZone: SPREADSHEET_ZONE, assumptions });
    await formulasAndRefresh(rt, fund);
    await snapshots(rt, fund, assumptions.writtenDatesGetDateFormat === false);
    await exportRange(rt, fund);
  });
});
