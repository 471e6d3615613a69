// Snapshot tables on the built add-in against the emulator: "Snapshot of today's values" records its
// definition, "Refresh snapshots" writes it again with the clicking user's own connection, a restated
// value lands in the Changes sheet with its old and new value and source, and a cell a person typed
// into stops the refresh of its table (nothing overwritten, nothing read).

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { InsertReport, SnapshotRefreshReport, SnapshotSummary } from '../../src/shared/rpc';
import { OWNER, ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const EDITOR = 'editor@example.com';
const EDITOR_TOKEN = 'editor-token-0123456789abcdef';
const CHANGES_HEADER = ['Time', 'Metric', 'Period', 'Old value', 'New value', 'Source', 'Refresh', 'Range', 'Problem'];
const MONTHS = ['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01'];

interface Setup {
  rt: GasRuntime;
  revenue: string;
  churn: string;
  editorId: string;
}

/**
 * Two monthly metrics of the fund, and a runtime whose active user (an editor, not the owner) has a token
 * of their own. The owner's token is one the emulator does not know: a call spending the owner's
 * connection would fail, and the request log names whose token each call used.
 */
async function setup(): Promise<Setup> {
  const created = await stack.emulator.control.fixtures({
    users: [{ name: 'Editor', token: EDITOR_TOKEN, company_ids: [DEMO_IDS.fund] }],
    metrics: [
      { company_id: DEMO_IDS.fund, name: 'Snap revenue', frequency: 'monthly', unit: 'USD' },
      { company_id: DEMO_IDS.fund, name: 'Snap churn', frequency: 'monthly', unit: 'number' },
    ],
  });
  const [revenue, churn] = created.metrics.map((m) => m.id) as [string, string];
  await stack.emulator.control.fixtures({
    data_points: MONTHS.flatMap((date, i) => [
      { metric_id: revenue, date, value: String(100 + i) },
      { metric_id: churn, date, value: String(i) },
    ]),
  });
  const rt = stack.runtime({ token: 'owner-token-unknown-to-the-emulator', activeUser: EDITOR, activeUserSettings: { token: EDITOR_TOKEN } });
  return { rt, revenue, churn, editorId: created.users[0]!.id };
}

function insertSnapshot(s: Setup, at: string, startDate: string | null = '2024-01-01', endDate: string | null = '2024-04-30'): InsertReport {
  const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
  s.rt.spreadsheet.setActiveRange(sheet.getRange(at));
  return ok<InsertReport>(
    s.rt.callServer('insertMetricValues', [{ companyId: DEMO_IDS.fund, metricIds: [s.revenue, s.churn], startDate, endDate, mode: 'snapshot', headers: true }]),
  );
}

function refresh(rt: GasRuntime): SnapshotRefreshReport {
  return ok<SnapshotRefreshReport>(rt.callServer('refreshSnapshots', []));
}

function changesRows(rt: GasRuntime): unknown[][] {
  const sheet = rt.spreadsheet.getSheetByName('Changes');
  if (!sheet) return [];
  return sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
}

describe('snapshot tables', () => {
  it("records the insert's definition and lists it, in a hidden sheet, leaving the person on their sheet", async () => {
    const s = await setup();
    const report = insertSnapshot(s, 'B2');
    expect(report.range).toBe('Sheet1!B2:D6');
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    // The same table METRIC_VALUES shows: header, then date and one value per metric.
    expect(sheet.getRange('B2:D2').getValues()).toEqual([['Date', 'Snap revenue', 'Snap churn']]);
    expect(sheet.getRange('C3:D6').getValues()).toEqual([
      [100, 0],
      [101, 1],
      [102, 2],
      [103, 3],
    ]);
    expect(sheet.getRange('B6').getDisplayValue()).toBe('4/1/2024');

    const listed = ok<SnapshotSummary[]>(s.rt.callServer('listSnapshots', []));
    expect(listed).toEqual([
      {
        id: expect.any(String),
        kind: 'metric_values',
        range: 'Sheet1!B2:D6',
        sheetExists: true,
        companyId: DEMO_IDS.fund,
        metricIds: [s.revenue, s.churn],
        startDate: '2024-01-01',
        endDate: '2024-04-30',
        headers: true,
        metricName: null,
        periods: [],
        insertedAt: expect.any(String),
        refreshedAt: null,
        verified: true,
      },
    ]);
    const store = s.rt.spreadsheet.getSheetByName('Portfolio Metrics snapshots')!;
    expect(store.isSheetHidden()).toBe(true);
    expect(s.rt.spreadsheet.getActiveSheet().getName()).toBe('Sheet1');
    expect(s.rt.spreadsheet.getActiveRange().getA1Notation()).toBe('B2');
    // Every call spent the editor's own connection.
    const requests = await stack.takeRequests();
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests.map((r) => r.userId))).toEqual(new Set([s.editorId]));
  });

  it("rewrites a restated value with the clicking user's token and appends the change, only once", async () => {
    const s = await setup();
    insertSnapshot(s, 'B2');
    // The owner lists and refreshes nothing here: the editor clicks.
    await stack.emulator.control.fixtures({
      data_points: [{ metric_id: s.revenue, date: '2024-03-01', value: '250.5', source: { source_type: 'update_request', label: 'Restated by CFO' } }],
    });
    await stack.takeRequests();
    const report = refresh(s.rt);
    expect(report).toMatchObject({ origin: 'sidebar', changes: 1, changesSheet: 'Changes', problem: null });
    expect(report.outcomes).toEqual([expect.objectContaining({ range: 'Sheet1!B2:D6', status: 'refreshed', changes: 1, cells: [] })]);

    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    expect(sheet.getRange('C3:D6').getValues()).toEqual([
      [100, 0],
      [101, 1],
      [250.5, 2],
      [103, 3],
    ]);
    const rows = changesRows(s.rt);
    expect(rows[0]).toEqual(CHANGES_HEADER);
    expect(rows.slice(1).map((row) => row.slice(1))).toEqual([
      ['Snap revenue', '2024-03-01', 102, 250.5, 'update_request: Restated by CFO', 'Refresh snapshots (sidebar)', 'Sheet1!B2:D6', ''],
    ]);
    expect(rows[1]![0]).toBeInstanceOf(Date);
    expect(s.rt.spreadsheet.getSheetByName('Changes')!.getFrozenRows()).toBe(1);

    // The reads went out with the editor's token, none with the owner's.
    const requests = await stack.takeRequests();
    const reads = requests.filter((r) => r.path === '/data_points');
    expect(reads).toHaveLength(1);
    expect(reads[0]!.query).toContain('include_source=true');
    expect(requests.every((r) => r.userId === s.editorId && r.status === 200)).toBe(true);

    // Nothing changed since: the table is written again, the Changes sheet gains nothing.
    expect(refresh(s.rt).outcomes).toEqual([expect.objectContaining({ status: 'unchanged', changes: 0 })]);
    expect(changesRows(s.rt)).toHaveLength(2);
    expect(ok<SnapshotSummary[]>(s.rt.callServer('listSnapshots', []))[0]!.refreshedAt).toEqual(expect.any(String));
  });

  it('shows each metric in its unit (money, percentage points, number with separators) and its dates in the one date format, also after a refresh', async () => {
    const s = await setup();
    const created = await stack.emulator.control.fixtures({
      metrics: [{ company_id: DEMO_IDS.fund, name: 'Snap margin', frequency: 'monthly', unit: 'percent' }],
    });
    const margin = created.metrics[0]!.id;
    await stack.emulator.control.fixtures({
      data_points: [
        { metric_id: s.revenue, date: '2024-04-01', value: '61372.9266666667' },
        { metric_id: s.churn, date: '2024-04-01', value: '1365834.0' },
        { metric_id: margin, date: '2024-04-01', value: '62.3' },
      ],
    });
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    // Three metrics under a header row, and one without (the listing still gives its unit).
    for (const [at, metricIds] of [
      ['B2', [s.revenue, s.churn, margin]],
      ['G2', [s.revenue]],
    ] as const) {
      s.rt.spreadsheet.setActiveRange(sheet.getRange(at));
      ok<InsertReport>(
        s.rt.callServer('insertMetricValues', [
          { companyId: DEMO_IDS.fund, metricIds, startDate: '2024-04-01', endDate: null, mode: 'snapshot', headers: false },
        ]),
      );
    }
    // The date as Sheets formats a date a script writes (en_US in the runtime), as a formula's dates show.
    const formats = ['M/d/yyyy', '"$"#,##0.00', '#,##0.00', '#,##0.00"%"'];
    const shown = ['4/1/2024', '$61,372.93', '1,365,834.00', '62.30%'];
    const check = (revenue: number): void => {
      expect(sheet.getRange('B3:E3').getNumberFormats()).toEqual([formats]);
      expect(sheet.getRange('B3:E3').getDisplayValues()).toEqual([shown]);
      // The cells hold the numbers themselves: the format only shows them.
      expect(sheet.getRange('C3:E3').getValues()).toEqual([[revenue, 1365834, 62.3]]);
      // The header row keeps the format it had.
      expect(
        sheet
          .getRange('B2:E2')
          .getNumberFormats()[0]!
          .some((format) => formats.includes(format)),
      ).toBe(false);
      expect(sheet.getRange('G2:H2').getNumberFormats()).toEqual([formats.slice(0, 2)]);
      expect(sheet.getRange('G2:H2').getDisplayValues()).toEqual([shown.slice(0, 2)]);
    };
    check(61372.9266666667);
    // A restated value, and a new month: the row the table grows by takes the same formats.
    await stack.emulator.control.fixtures({
      data_points: [
        { metric_id: s.revenue, date: '2024-04-01', value: '70000' },
        { metric_id: s.revenue, date: '2024-05-01', value: '1234.5' },
      ],
    });
    expect(refresh(s.rt).outcomes.map((o) => o.status)).toEqual(['refreshed', 'refreshed']);
    shown[1] = '$70,000.00';
    check(70000);
    expect(sheet.getRange('B4:E4').getNumberFormats()).toEqual([formats]);
    expect(sheet.getRange('B4:E4').getDisplayValues()).toEqual([['5/1/2024', '$1,234.50', '', '']]);
    expect(sheet.getRange('G3:H3').getDisplayValues()).toEqual([['5/1/2024', '$1,234.50']]);

    // The Changes sheet's times name the spreadsheet's zone after the time, as the sidebar's list says UTC.
    const changes = s.rt.spreadsheet.getSheetByName('Changes')!;
    const zone = s.rt.spreadsheet.getSpreadsheetTimeZone();
    expect(changes.getRange('A2:A3').getNumberFormats()).toEqual([[`yyyy-mm-dd hh:mm:ss "${zone}"`], [`yyyy-mm-dd hh:mm:ss "${zone}"`]]);
    expect(changes.getRange('A2').getDisplayValue()).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} ${zone}$`));
    // Wide enough for that text: a default column (100 px) would cut the zone off.
    expect(changes.getColumnWidth(1)).toBe(260);
  });

  it('keeps a date format the person chose for the date column, and shows dates as ISO where the cells were formatted as numbers', async () => {
    const s = await setup();
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    // Empty cells formatted before the insert: a date format of the person's, and a number format.
    sheet.getRange('B3:B6').setNumberFormat('dd.mm.yyyy');
    sheet.getRange('J3:J6').setNumberFormat('0.00');
    insertSnapshot(s, 'B2');
    insertSnapshot(s, 'J2');
    expect(sheet.getRange('B3:B4').getDisplayValues()).toEqual([['01.01.2024'], ['01.02.2024']]);
    // A date under a number format would read 45292.00: the one format that shows it as a date in every locale.
    expect(sheet.getRange('J3:J4').getNumberFormats()).toEqual([['yyyy-mm-dd'], ['yyyy-mm-dd']]);
    expect(sheet.getRange('J3:J4').getDisplayValues()).toEqual([['2024-01-01'], ['2024-02-01']]);
  });

  it("takes the spreadsheet's lock from the sidebar and says so when someone else holds it; the user's own lock does not stop it", async () => {
    const s = await setup();
    insertSnapshot(s, 'B2');
    // The editor's own lock (say, their scheduled refresh of another spreadsheet) guards nothing here.
    s.rt.locks.hold('user', { user: EDITOR, forMs: 60_000 });
    expect(refresh(s.rt)).toMatchObject({ problem: null });
    s.rt.locks.hold('document', { forMs: 60_000 });
    await stack.takeRequests();
    expect(refresh(s.rt).problem).toBe('Someone else is inserting or refreshing snapshots in this spreadsheet. Try again in a moment.');
    expect(await stack.takeRequests()).toEqual([]);
  });

  it('refuses to overwrite a typed cell, names it, and writes nothing', async () => {
    const s = await setup();
    insertSnapshot(s, 'B2');
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('D4').setValue(42);
    // A cell a person emptied holds nothing the refresh would overwrite.
    sheet.getRange('D5').setValue('');
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: s.revenue, date: '2024-02-01', value: '999' }] });
    await stack.takeRequests();
    const report = refresh(s.rt);
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refused', cells: ['D4'], changes: 0 })]);
    expect(report.outcomes[0]!.message).toBe(
      "Left Sheet1!B2:D6 as it was: D4 changed since the snapshot was last written, and refreshing would overwrite it. Move what you typed elsewhere and clear that cell (or put back the snapshot's value), then refresh again. If the table itself moved (rows or columns inserted before it), insert the snapshot again where it is now.",
    );
    expect(report.message).toContain('Refreshed 0 of 1 snapshot; 0 values changed.');
    expect(sheet.getRange('C3:D6').getValues()).toEqual([
      [100, 0],
      [101, 42],
      [102, ''],
      [103, 3],
    ]);
    expect(s.rt.spreadsheet.getSheetByName('Changes')).toBeNull();
    // Refused before reading: no data point was fetched.
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toEqual([]);
  });

  it("grows into empty cells below, to the grid's edge and past it, and refuses to cover a cell a person filled", async () => {
    const s = await setup();
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    // Five rows at the bottom of a 1,000-row sheet: header and four months, to row 1000.
    expect(insertSnapshot(s, 'B996', null, null).range).toBe('Sheet1!B996:D1000');
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: s.revenue, date: '2024-05-01', value: '104' }] });
    const grown = refresh(s.rt);
    expect(grown.outcomes).toEqual([expect.objectContaining({ status: 'refreshed', range: 'Sheet1!B996:D1001', changes: 1 })]);
    expect(sheet.getMaxRows()).toBe(1001);
    expect(sheet.getRange('B1001:D1001').getDisplayValues()).toEqual([['5/1/2024', '$104.00', '']]);
    // A person adds rows and writes below the table; the next month would need that cell.
    sheet.insertRowsAfter(1001, 10);
    sheet.getRange('C1002').setValue('note');
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: s.revenue, date: '2024-06-01', value: '105' }] });
    const refused = refresh(s.rt);
    expect(refused.outcomes).toEqual([expect.objectContaining({ status: 'refused', cells: ['C1002'] })]);
    expect(refused.outcomes[0]!.message).toBe(
      'Left Sheet1!B996:D1001 as it was: the table now has 7 rows and 3 columns, and C1002 beside it is not empty. Move that cell out of the way, then refresh again.',
    );
    expect(sheet.getRange('B1002:D1002').getValues()).toEqual([['', 'note', '']]);
  });

  it("reports each snapshot's failure and refreshes the others", async () => {
    const s = await setup();
    const other = s.rt.spreadsheet.insertSheet('Other');
    s.rt.spreadsheet.setActiveRange(other.getRange('A1'));
    ok(
      s.rt.callServer('insertMetricValues', [
        { companyId: DEMO_IDS.fund, metricIds: [s.churn], startDate: null, endDate: null, mode: 'snapshot', headers: false },
      ]),
    );
    insertSnapshot(s, 'F1');
    s.rt.spreadsheet.deleteSheet(other);
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: s.churn, date: '2024-04-01', value: null }] });
    const report = refresh(s.rt);
    expect(report.outcomes.map((o) => [o.range, o.status, o.changes])).toEqual([
      ['A1:B4', 'failed', 0],
      ['Sheet1!F1:H5', 'refreshed', 1],
    ]);
    expect(report.outcomes[0]!.message).toBe('The sheet of snapshot A1:B4 was deleted: there is nothing to refresh.');
    // A value gone blank is a change too.
    expect(
      changesRows(s.rt)
        .slice(1)
        .map((row) => row.slice(1, 6)),
    ).toEqual([['Snap churn', '2024-04-01', 3, '', '']]);
    expect(s.rt.spreadsheet.getSheetByName('Sheet1')!.getRange('H5').getValue()).toBe('');
  });

  it("refreshes with the caller's connection: without a token of their own the editor gets the problem, and the owner's is never used", async () => {
    const s = await setup();
    insertSnapshot(s, 'B2');
    s.rt.properties.user(EDITOR).deleteProperty('METRICS_API_TOKEN');
    await stack.takeRequests();
    const report = refresh(s.rt);
    expect(report.outcomes).toEqual([]);
    expect(report.problem).toMatch(/No API token is set/);
    expect(await stack.takeRequests()).toEqual([]);
    // The owner did not insert it: their refresh refuses the editor's definition before spending any connection.
    const asOwner = ok<SnapshotRefreshReport>(s.rt.callServer('refreshSnapshots', [], { user: OWNER }));
    expect(asOwner.outcomes).toEqual([
      expect.objectContaining({ status: 'refused', insertedByAnother: true, message: expect.stringContaining('was inserted by someone else') }),
    ]);
    expect(await stack.takeRequests()).toEqual([]);
  });
});

describe('a portfolio grid snapshot', () => {
  it('is recorded, and refreshed past the warm cache with a change per company and period', async () => {
    const control = stack.emulator.control;
    const fundId = (await control.fixtures({ companies: [{ name: 'Snapshot Fund', kind: 'investor' }] })).companies[0]!.id;
    const profiles = (
      await control.fixtures({ portfolio_company_profiles: ['Alpha', 'Beta'].map((name) => ({ company_id: fundId, name, fiscal_year_end_month: 12 })) })
    ).portfolio_company_profiles;
    const metrics = (
      await control.fixtures({
        // One name, two currencies: each company's row shows its own.
        metrics: profiles.map((p) => ({
          company_id: fundId,
          portfolio_company_profile_id: p.id,
          name: 'ARR',
          frequency: 'monthly',
          unit: p.name === 'Alpha' ? 'USD' : 'EUR',
        })),
      })
    ).metrics;
    await control.fixtures({
      data_points: metrics.flatMap((m, i) => MONTHS.slice(0, 2).map((date, j) => ({ metric_id: m.id, date, value: String(10 * (i + 1) + j) }))),
    });
    const rt = stack.runtime({ defaultCompany: fundId });
    const sheet = rt.spreadsheet.getActiveSheet();
    rt.spreadsheet.setActiveRange(sheet.getRange('B2'));
    const request = {
      companyId: fundId,
      kind: 'metric',
      metricNames: ['ARR'],
      periods: ['2024-01', '2024-02'],
      startPeriod: null,
      endPeriod: null,
      mode: 'snapshot',
    };
    const inserted = ok<InsertReport>(rt.callServer('insertPortfolioGrid', [request]));
    expect(inserted.range).toBe('Sheet1!B2:E5');
    // The insert says the rows are in two currencies, and the table's Unit column and its last line say it too.
    expect(inserted.message).toContain("The rows of ARR are in EUR and USD: a total over them adds different currencies (the Unit column says each row's).");
    // The last row counts the companies with a value, as PORTFOLIO_METRIC shows it.
    const mixed = 'rows in EUR and USD: a total over them adds different currencies';
    expect(sheet.getRange('B2:E5').getValues()).toEqual([
      ['Company', '2024-01', '2024-02', 'Unit'],
      ['Alpha', 10, 11, 'USD'],
      ['Beta', 20, 21, 'EUR'],
      ['Companies with a value', '2 of 2', '2 of 2', mixed],
    ]);
    expect(sheet.getRange('B2:E4').getDisplayValues()).toEqual([
      ['Company', '2024-01', '2024-02', 'Unit'],
      ['Alpha', '$10.00', '$11.00', 'USD'],
      ['Beta', '€20.00', '€21.00', 'EUR'],
    ]);
    // Each row's number format is its own unit's, over the periods only: the names and units keep Sheets' default.
    expect(sheet.getRange('C3:D4').getNumberFormats()).toEqual([
      ['"$"#,##0.00', '"$"#,##0.00'],
      ['"€"#,##0.00', '"€"#,##0.00'],
    ]);
    expect(sheet.getRange('B3:B4').getNumberFormats()).toEqual([['0.###############'], ['0.###############']]);
    expect(sheet.getRange('E3:E5').getNumberFormats()).toEqual([['0.###############'], ['0.###############'], ['0.###############']]);
    expect(ok<SnapshotSummary[]>(rt.callServer('listSnapshots', []))).toEqual([
      expect.objectContaining({
        kind: 'portfolio_metric',
        range: 'Sheet1!B2:E5',
        companyId: fundId,
        metricIds: [],
        metricName: 'ARR',
        periods: ['2024-01', '2024-02'],
      }),
    ]);

    // The insert left the fund's series in the user's cache: a refresh answered from it would see nothing new.
    await control.fixtures({ data_points: [{ metric_id: metrics[1]!.id, date: '2024-02-01', value: '27' }] });
    const report = ok<SnapshotRefreshReport>(rt.callServer('refreshSnapshots', []));
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refreshed', changes: 1 })]);
    expect(sheet.getRange('B2:E5').getValues()).toEqual([
      ['Company', '2024-01', '2024-02', 'Unit'],
      ['Alpha', 10, 11, 'USD'],
      ['Beta', 20, 27, 'EUR'],
      ['Companies with a value', '2 of 2', '2 of 2', mixed],
    ]);
    expect(sheet.getRange('C3').getNumberFormat()).not.toBe('M/d/yyyy');
    expect(sheet.getRange('B4:E4').getDisplayValues()).toEqual([['Beta', '€20.00', '€27.00', 'EUR']]);
    expect(sheet.getRange('E3:E4').getNumberFormats()).toEqual([['0.###############'], ['0.###############']]);
    // One change, the value: the Unit column is no period.
    expect(
      changesRows(rt)
        .slice(1)
        .map((row) => row.slice(1, 8)),
    ).toEqual([['ARR · Beta', '2024-02', 21, 27, '', 'Refresh snapshots (sidebar)', 'Sheet1!B2:E5']]);
  });
});

describe('Refresh data', () => {
  it('appends the cached values a fresh read replaced, and the formulas run again on that read', async () => {
    const s = await setup();
    // The owner's spreadsheet and connection, as custom functions use them.
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    const single = `=METRIC_VALUE("${s.revenue}", "2024-02")`;
    const table = `=METRIC_VALUES("${s.revenue}", "2024-01-01", "2024-04-30")`;
    expect(rt.evaluateFormula(single, { cell: 'A1' })).toMatchObject({ ok: true });
    expect(rt.evaluateFormula(table, { cell: 'C1' })).toMatchObject({ ok: true });
    // Written, never run: nothing of churn is cached, so nothing of it can be compared.
    sheet.getRange('A3').setFormula(`=METRIC_VALUE("${s.churn}", "2024-02")`);
    await stack.emulator.control.fixtures({
      data_points: [
        { metric_id: s.revenue, date: '2024-02-01', value: '555', source: { source_type: 'update_request', label: 'Restated' } },
        { metric_id: s.churn, date: '2024-02-01', value: '9' },
        // A new period is not a cached value replaced.
        { metric_id: s.revenue, date: '2024-05-01', value: '104' },
      ],
    });
    await stack.takeRequests();
    rt.run('onOpen', [{ authMode: 'FULL' }]);
    rt.run(rt.ui.menuFunction('Refresh data')!);
    expect(rt.ui.toasts.at(-1)!.message).toBe('Refreshed 3 formulas with fresh data. 1 cached value changed: see the "Changes" sheet.');
    const rows = changesRows(rt);
    expect(rows[0]).toEqual(CHANGES_HEADER);
    expect(rows.slice(1).map((row) => row.slice(1))).toEqual([
      ['Snap revenue', '2024-02-01', 101, 555, 'update_request: Restated', 'Refresh data', 'Sheet1!A1 and Sheet1!C1', ''],
    ]);
    // One fresh read per cached series (the whole series and the table's range), with the owner's token here.
    const reads = (await stack.takeRequests()).filter((r) => r.path === '/data_points');
    expect(reads).toHaveLength(2);
    // The formulas, run again, find that read in the new generation instead of fetching it again.
    expect(rt.evaluateFormula(single, { cell: 'A1' })).toMatchObject({ ok: true });
    expect(sheet.getRange('A1').getValue()).toBe(555);
    expect(rt.evaluateFormula(table, { cell: 'C1' })).toMatchObject({ ok: true });
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toEqual([]);
    // A second refresh with nothing restated appends nothing.
    rt.run(rt.ui.menuFunction('Refresh data')!);
    expect(changesRows(rt)).toHaveLength(2);
  });

  it('reads the whole series of several metrics again in one request, and still tells each metric its changes', async () => {
    const s = await setup();
    const rt = stack.runtime();
    for (const [cell, id] of [
      ['A1', s.revenue],
      ['A2', s.churn],
    ] as const) {
      expect(rt.evaluateFormula(`=METRIC_VALUE("${id}", "2024-02")`, { cell })).toMatchObject({ ok: true });
    }
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: s.churn, date: '2024-02-01', value: '9' }] });
    await stack.takeRequests();
    rt.run('onOpen', [{ authMode: 'FULL' }]);
    rt.run(rt.ui.menuFunction('Refresh data')!);
    const reads = (await stack.takeRequests()).filter((r) => r.path === '/data_points');
    expect(reads).toHaveLength(1);
    for (const id of [s.revenue, s.churn]) expect(decodeURIComponent(reads[0]!.query)).toContain(id);
    expect(
      changesRows(rt)
        .slice(1)
        .map((row) => [row[1], row[2], row[4]]),
    ).toEqual([['Snap churn', '2024-02-01', 9]]);
    // Each formula, run again, finds its own metric's points in the new generation.
    expect(rt.evaluateFormula(`=METRIC_VALUE("${s.churn}", "2024-02")`, { cell: 'A2' })).toMatchObject({ ok: true });
    expect(rt.spreadsheet.getActiveSheet().getRange('A2').getValue()).toBe(9);
    expect((await stack.takeRequests()).filter((r) => r.path === '/data_points')).toEqual([]);
  });
});
