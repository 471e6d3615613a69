// A shared spreadsheet's snapshots, attacked as an editor would: every cell of the hidden snapshots sheet is
// theirs to rewrite. The owner's refresh (sidebar or schedule) acts only on definitions the owner signed, as
// signed, and reads only what the owner's formula access allows: the emulator's request log shows nothing of
// the other company read, and the sheet shows nothing written outside the snapshot's own range.

import type { GasRuntime } from '../../gas-runtime';
import type { FormulaAccess, InsertReport, SnapshotRefreshReport, SnapshotRefreshScheduleView } from '../../src/shared/rpc';
import { withOtherCompany, requestsNaming, type OtherCompany } from '../support/other-company';
import { OWNER, ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const EDITOR = 'editor@example.com';
const HOUR = 3_600_000;
const STORE = 'Portfolio Metrics snapshots';
const REFUSED = 'was changed by someone else (or written by another user), so it was not used with your connection.';
const INSERT_AGAIN = 'Insert the snapshot again ("Snapshot of today\'s values") to refresh it with your connection';

interface Setup extends OtherCompany {
  rt: GasRuntime;
}

/**
 * The owner (the emulator's token; default company, so formula access, the fund) inserts a snapshot of an
 * allowed metric at B2. Their token also reaches "Secret Co", whose metric formulas here may not read.
 */
async function setup(): Promise<Setup> {
  const other = await withOtherCompany(stack, 'Trust revenue', ['2024-01-01', '2024-02-01', '2024-03-01']);
  const rt = stack.runtime({ activeUser: OWNER });
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  rt.spreadsheet.setActiveRange(sheet.getRange('B2'));
  const report = ok<InsertReport>(
    rt.callServer(
      'insertMetricValues',
      [
        {
          companyId: stack.emulator.companyId,
          metricIds: [other.allowed],
          startDate: '2024-01-01',
          endDate: '2024-03-31',
          mode: 'snapshot',
          headers: true,
        },
      ],
      { user: OWNER },
    ),
  );
  expect(report.range).toBe('Sheet1!B2:C5');
  return { rt, ...other };
}

/** What an editor's find-and-replace over the hidden store does: every cell holding `from` now holds `to`. */
function editStore(rt: GasRuntime, from: string, to: string): void {
  const store = rt.spreadsheet.getSheetByName(STORE)!;
  const range = store.getDataRange();
  const values = range.getValues().map((row) => row.map((cell) => (typeof cell === 'string' ? cell.split(from).join(to) : cell)));
  expect(values.some((row) => row.some((cell) => typeof cell === 'string' && cell.includes(to)))).toBe(true);
  range.setValues(values);
}

function refreshAsOwner(rt: GasRuntime): SnapshotRefreshReport {
  return ok<SnapshotRefreshReport>(rt.callServer('refreshSnapshots', [], { user: OWNER }));
}

function sheetValues(rt: GasRuntime, name = 'Sheet1'): unknown[][] {
  return rt.spreadsheet.getSheetByName(name)!.getDataRange().getValues();
}

describe('an editor who swaps the metric in the hidden snapshots sheet', () => {
  it("gets nothing from the owner's sidebar refresh: refused with the sentence, nothing read, nothing written", async () => {
    const s = await setup();
    editStore(s.rt, s.allowed, s.secret);
    const before = sheetValues(s.rt);
    await stack.takeRequests();

    const report = refreshAsOwner(s.rt);
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refused', changes: 0, range: 'Sheet1!B2:C5' })]);
    expect(report.outcomes[0]!.message).toBe(
      `The definition of the snapshot recorded at Sheet1!B2:C5 ${REFUSED} Left it as it was. ${INSERT_AGAIN}; "Refresh snapshots" refreshes only snapshots you inserted, as you inserted them.`,
    );
    // Not one request: the definition is refused before any connection is used.
    expect(await stack.takeRequests()).toEqual([]);
    expect(sheetValues(s.rt)).toEqual(before);
    expect(s.rt.spreadsheet.getSheetByName('Changes')).toBeNull();
  });

  it("gets nothing from the owner's scheduled refresh either, and the Changes sheet says what was refused and why", async () => {
    const s = await setup();
    ok<SnapshotRefreshScheduleView>(s.rt.callServer('scheduleSnapshotRefresh', ['hourly'], { user: OWNER }));
    editStore(s.rt, s.allowed, s.secret);
    const before = sheetValues(s.rt);
    await stack.takeRequests();

    const runs = s.rt.triggers.advance(HOUR);
    expect(runs).toEqual([expect.objectContaining({ user: OWNER, ok: true })]);
    expect(await requestsNaming(stack, s)).toEqual([]);
    expect(sheetValues(s.rt)).toEqual(before);
    const changes = sheetValues(s.rt, 'Changes').slice(1);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.slice(6, 8)).toEqual(['Refresh snapshots (schedule)', 'Sheet1!B2:C5']);
    expect(changes[0]![8]).toContain(REFUSED);
    expect(changes[0]![8]).toContain(INSERT_AGAIN);
  });

  it("cannot launder the swap through the owner's insert of another snapshot: the edited row stays refused", async () => {
    const s = await setup();
    editStore(s.rt, s.allowed, s.secret);
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    s.rt.spreadsheet.setActiveRange(sheet.getRange('F2'));
    ok<InsertReport>(
      s.rt.callServer(
        'insertMetricValues',
        [
          {
            companyId: stack.emulator.companyId,
            metricIds: [s.allowed],
            startDate: '2024-01-01',
            endDate: '2024-03-31',
            mode: 'snapshot',
            headers: true,
          },
        ],
        { user: OWNER },
      ),
    );
    await stack.takeRequests();
    const report = refreshAsOwner(s.rt);
    expect(report.outcomes.map((o) => [o.range, o.status])).toEqual([
      ['Sheet1!B2:C5', 'refused'],
      ['Sheet1!F2:G5', 'unchanged'],
    ]);
    expect(await requestsNaming(stack, s)).toEqual([]);
  });
});

describe('a snapshot an editor inserted', () => {
  it("is theirs to refresh: the owner's refresh and schedule leave it, and the schedule logs no refusal for it", async () => {
    const s = await setup();
    const props = s.rt.properties.user(EDITOR);
    props.setProperty('METRICS_API_BASE_URL', stack.emulator.url);
    props.setProperty('METRICS_API_TOKEN', stack.emulator.token);
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    s.rt.spreadsheet.setActiveRange(sheet.getRange('F2'));
    ok<InsertReport>(
      s.rt.callServer(
        'insertMetricValues',
        [
          {
            companyId: stack.emulator.companyId,
            metricIds: [s.allowed],
            startDate: '2024-01-01',
            endDate: '2024-03-31',
            mode: 'snapshot',
            headers: true,
          },
        ],
        { user: EDITOR },
      ),
    );

    const report = refreshAsOwner(s.rt);
    expect(report.outcomes.map((o) => [o.range, o.status, o.insertedByAnother ?? false])).toEqual([
      ['Sheet1!B2:C5', 'unchanged', false],
      ['Sheet1!F2:G5', 'refused', true],
    ]);
    expect(report.outcomes[1]!.message).toBe(
      'Left Sheet1!F2:G5 as it was: that snapshot was inserted by someone else, and "Refresh snapshots" refreshes only the snapshots you inserted (each person\'s refresh does theirs). Insert it again to refresh it with your connection.',
    );
    // The editor refreshes theirs, and leaves the owner's.
    const asEditor = ok<SnapshotRefreshReport>(s.rt.callServer('refreshSnapshots', [], { user: EDITOR }));
    expect(asEditor.outcomes.map((o) => [o.range, o.status])).toEqual([
      ['Sheet1!B2:C5', 'refused'],
      ['Sheet1!F2:G5', 'unchanged'],
    ]);

    ok<SnapshotRefreshScheduleView>(s.rt.callServer('scheduleSnapshotRefresh', ['hourly'], { user: OWNER }));
    expect(s.rt.triggers.advance(HOUR)).toEqual([expect.objectContaining({ user: OWNER, ok: true })]);
    expect(s.rt.spreadsheet.getSheetByName('Changes')).toBeNull();
  });
});

describe("an editor who moves a snapshot's range", () => {
  it("cannot make the owner's refresh overwrite anything outside the range the owner inserted it at", async () => {
    const s = await setup();
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('F10').setValue("The owner's own figures");
    const other = s.rt.spreadsheet.insertSheet('Board');
    other.getRange('A1').setValue('Board notes');
    // To another range of the same sheet, then to another sheet.
    editStore(s.rt, '"range":"B2:C5"', '"range":"F10:G13"');
    const before = { sheet1: sheetValues(s.rt), board: sheetValues(s.rt, 'Board') };
    const moved = refreshAsOwner(s.rt);
    expect(moved.outcomes).toEqual([expect.objectContaining({ status: 'refused', message: expect.stringContaining(REFUSED) })]);
    editStore(s.rt, `"sheetId":${sheet.getSheetId()}`, `"sheetId":${other.getSheetId()}`);
    const elsewhere = refreshAsOwner(s.rt);
    expect(elsewhere.outcomes).toEqual([expect.objectContaining({ status: 'refused', message: expect.stringContaining(REFUSED) })]);
    expect({ sheet1: sheetValues(s.rt), board: sheetValues(s.rt, 'Board') }).toEqual(before);
    expect(sheet.getRange('F10').getValue()).toBe("The owner's own figures");
  });

  it('reports a table that moved (rows inserted above it) and overwrites nothing at its old place', async () => {
    const s = await setup();
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.insertRowsBefore(1, 2);
    const before = sheetValues(s.rt);
    const report = refreshAsOwner(s.rt);
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refused', range: 'Sheet1!B2:C5' })]);
    expect(report.outcomes[0]!.message).toContain('If the table itself moved (rows or columns inserted before it), insert the snapshot again where it is now.');
    expect(sheetValues(s.rt)).toEqual(before);
  });

  it('cannot recompute the fingerprints to have a typed cell overwritten: they are signed too', async () => {
    const s = await setup();
    const sheet = s.rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('C4').setValue('typed by the editor');
    const store = s.rt.spreadsheet.getSheetByName(STORE)!;
    // Whatever the editor writes in the fingerprint cell, the signature no longer matches.
    store.getRange(2, 4).setValue('x'.repeat(String(store.getRange(2, 4).getValue()).length));
    const report = refreshAsOwner(s.rt);
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refused', message: expect.stringContaining(REFUSED) })]);
    expect(sheet.getRange('C4').getValue()).toBe('typed by the editor');
  });
});

describe('a definition the owner signed', () => {
  it("is refused, unread, once the owner's formula access no longer allows its company", async () => {
    const s = await setup();
    const access = ok<FormulaAccess>(s.rt.callServer('setFormulaAccess', [[s.secretCompany]], { user: OWNER }));
    expect(access.companyIds).toEqual([s.secretCompany]);
    await stack.takeRequests();
    const report = refreshAsOwner(s.rt);
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refused', range: 'Sheet1!B2:C5' })]);
    expect(report.outcomes[0]!.message).toBe(
      `Left Sheet1!B2:C5 as it was: company ${stack.emulator.companyId} is not among the companies your formula access allows in this spreadsheet (1 company). Insert the snapshot again to allow its company here (or, as the spreadsheet's owner, allow it in Settings › Formula access), then refresh.`,
    );
    // No data point was read: the company check needs no request.
    expect((await stack.takeRequests()).filter((r) => r.path.includes('data_points') || r.path.includes('data-points'))).toEqual([]);
  });

  it('copied from another spreadsheet (or File › Make a copy) does not verify there', async () => {
    const s = await setup();
    const row = s.rt.spreadsheet.getSheetByName(STORE)!.getRange(1, 1, 2, 4).getValues();
    const copy = stack.runtime({ activeUser: OWNER, spreadsheetId: 'another-spreadsheet-id' });
    const sheet = copy.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('B2:C5').setValues(s.rt.spreadsheet.getSheetByName('Sheet1')!.getRange('B2:C5').getValues());
    copy.spreadsheet.insertSheet(STORE).getRange(1, 1, 2, 4).setValues(row);
    // The owner's signing key, as theirs in any spreadsheet.
    copy.properties.user(OWNER).setProperty('METRICS_SIGNING_KEY', s.rt.properties.user(OWNER).getProperty('METRICS_SIGNING_KEY')!);
    const report = ok<SnapshotRefreshReport>(copy.callServer('refreshSnapshots', [], { user: OWNER }));
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refused', message: expect.stringContaining(REFUSED) })]);
  });
});

describe('a snapshot recorded before definitions were signed', () => {
  it('is refused with the sentence that says to insert it again', async () => {
    const s = await setup();
    const store = s.rt.spreadsheet.getSheetByName(STORE)!;
    // The first layout: id, definition, fingerprints; no signature column.
    const [id, definition, , fingerprints] = store.getRange(2, 1, 1, 4).getValues()[0]!;
    store.getRange(1, 1, 2, 4).setValues([
      ['Snapshot id', 'Definition', 'Cells last written (fingerprints)', ''],
      [id, definition, fingerprints, ''],
    ]);
    const report = refreshAsOwner(s.rt);
    expect(report.outcomes).toEqual([expect.objectContaining({ status: 'refused', message: expect.stringContaining(INSERT_AGAIN) })]);
  });
});
