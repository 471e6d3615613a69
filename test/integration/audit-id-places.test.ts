// Every value the audit push sends goes to the company and property whose names the person sees, on the built
// bundle against the emulator. An editor swaps two rows' (or two columns') hidden ids: the sheet looks exactly as
// built, yet the owner's push would write Aurora Robotics' values into Bluebird Health's record. The push, the
// overwrite push and Take the server's values refuse before any request, naming the rows or columns; the
// person's own sort and moved columns keep working and write to the right records.

import { createHmac } from 'node:crypto';
import { DEMO_IDS } from '../../emulator/demo-data';
import { auditSnapshotScope } from '../../src/core/audit/audit-trust';
import { signRecord } from '../../src/core/trust/signed-record';
import type { AuditPushHandle } from '../../src/shared/rpc';
import { driveAuditPush, ok, OWNER, type Rpc, type Stack, useStack } from '../support/stack';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

const AUDIT = 'Portfolio audit';
const AURORA = DEMO_IDS.profile(1);
const BLUEBIRD = DEMO_IDS.profile(2);
const HEADQUARTERS = DEMO_IDS.property(7);
const MEMO = DEMO_IDS.property(8);
const REBUILD = 'build the audit again from your sidebar (it replaces this sheet: copy out any edits you want to keep first), then make your edits and push.';

function built() {
  const rt = stack.runtime();
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName(AUDIT)!;
  const values = sheet.getDataRange().getValues();
  const rowOf = (profileId: string) =>
    sheet
      .getDataRange()
      .getValues()
      .findIndex((r) => r[0] === profileId) + 1;
  const columnOf = (propertyId: string) => sheet.getDataRange().getValues()[0]!.indexOf(propertyId) + 1;
  return { rt, sheet, values, rowOf, columnOf };
}

type Built = ReturnType<typeof built>;

/** What an editor does in the hidden id column: two rows' ids swapped, nothing else. */
function swapRowIds(s: Built, a: string, b: string): void {
  const [rowA, rowB] = [s.rowOf(a), s.rowOf(b)];
  s.sheet.getRange(rowA, 1).setValue(b);
  s.sheet.getRange(rowB, 1).setValue(a);
}

/** What an editor does in the hidden id row: two columns' ids swapped, nothing else. */
function swapColumnIds(s: Built, a: string, b: string): void {
  const [columnA, columnB] = [s.columnOf(a), s.columnOf(b)];
  s.sheet.getRange(1, columnA).setValue(b);
  s.sheet.getRange(1, columnB).setValue(a);
}

async function storedValues() {
  return (await stack.emulator.control.state()).portfolio_property_values;
}

async function valueOf(profileId: string, propertyId: string) {
  return (await storedValues()).find((v) => v.portfolio_company_profile_id === profileId && v.portfolio_property_id === propertyId)?.value ?? null;
}

function refusal(result: unknown): string {
  const rpc = result as Rpc<unknown>;
  if (rpc.ok) throw new Error('expected a refusal, the call succeeded');
  return rpc.error;
}

describe('hidden ids swapped by an editor', () => {
  it('refuses the push of two rows whose hidden profile ids were swapped: no request, nothing stored', async () => {
    const s = built();
    const before = await storedValues();
    expect(await valueOf(BLUEBIRD, HEADQUARTERS)).toBeNull();
    expect(await valueOf(AURORA, HEADQUARTERS)).toBe('Berlin');
    swapRowIds(s, AURORA, BLUEBIRD);
    // The sheet the owner sees is the one built: only the hidden column changed.
    expect(
      s.sheet
        .getDataRange()
        .getValues()
        .map((row) => row.slice(1)),
    ).toEqual(s.values.map((row) => row.slice(1)));
    await stack.emulator.control.clearRequests();

    expect(refusal(s.rt.callServer('startAuditPush', [null]))).toBe(
      `The hidden ids in "${AUDIT}" no longer match the names it shows: row 3 shows "Aurora Robotics" but holds the hidden id of "Bluebird Health"; row 4 shows "Bluebird Health" but holds the hidden id of "Aurora Robotics". Pushing would write into other companies' or properties' records than the ones you see, so nothing was sent or written. If you edited a company name or a header, put back the one the audit wrote; otherwise ${REBUILD}`,
    );
    // Refused before any request: not a PUT, not even the schema's read.
    const requests = await stack.emulator.control.requests();
    expect(requests.filter((r) => r.method === 'PUT' && r.path === '/portfolio_property_values')).toHaveLength(0);
    expect(requests).toHaveLength(0);
    expect(await storedValues()).toEqual(before);
    expect(await valueOf(BLUEBIRD, HEADQUARTERS)).toBeNull();
  });

  it('refuses the push of two columns whose hidden property ids were swapped: no request, nothing stored', async () => {
    const s = built();
    const before = await storedValues();
    swapColumnIds(s, HEADQUARTERS, MEMO);
    await stack.emulator.control.clearRequests();
    const error = refusal(s.rt.callServer('startAuditPush', [null]));
    expect(error).toMatch(
      /^The hidden ids in "Portfolio audit" no longer match the names it shows: column I is headed "Headquarters" but holds the hidden id of "Investment memo"; column J is headed "Investment memo" but holds the hidden id of "Headquarters"\. .*nothing was sent or written\./,
    );
    const requests = await stack.emulator.control.requests();
    expect(requests.filter((r) => r.method === 'PUT' && r.path === '/portfolio_property_values')).toHaveLength(0);
    expect(requests).toHaveLength(0);
    expect(await storedValues()).toEqual(before);
  });

  it("refuses the overwrite push and Take the server's values of a sheet whose ids were swapped, writing nothing anywhere", async () => {
    const s = built();
    const before = await storedValues();
    const grid = s.sheet.getDataRange().getValues();
    swapRowIds(s, AURORA, BLUEBIRD);
    await stack.emulator.control.clearRequests();
    const cells = [
      { profileId: AURORA, propertyId: HEADQUARTERS },
      { profileId: BLUEBIRD, propertyId: HEADQUARTERS },
    ];
    expect(refusal(s.rt.callServer('startAuditOverwrite', [cells, null]))).toMatch(
      /^The hidden ids in "Portfolio audit" no longer match the names it shows: row 3 /,
    );
    expect(refusal(s.rt.callServer('takeServerAuditValues', [cells, null]))).toMatch(
      /^The hidden ids in "Portfolio audit" no longer match the names it shows: row 3 /,
    );
    expect(await stack.emulator.control.requests()).toHaveLength(0);
    expect(await storedValues()).toEqual(before);
    // Take wrote nothing into the sheet either: only the swapped ids differ from the build.
    const now = s.sheet.getDataRange().getValues();
    expect(now.map((row) => row.slice(1))).toEqual(grid.map((row) => row.slice(1)));
  });
});

describe("the person's own rearrangement", () => {
  it('pushes to the right records after the rows were sorted by name and a column moved, and the refreshed snapshot still checks the ids', async () => {
    const s = built();
    const grid = s.sheet.getDataRange().getValues();
    const profileRows = grid.map((row, index) => ({ row, index })).filter(({ row, index }) => index >= 2 && /^[0-9a-f-]{36}$/.test(String(row[0])));
    const first = profileRows[0]!.index;
    const last = profileRows[profileRows.length - 1]!.index;
    // Sort Z→A by name, as the filter's sort does: whole rows, hidden ids with them.
    const sorted = profileRows.map(({ row }) => row).sort((a, b) => String(b[1]).localeCompare(String(a[1])));
    s.sheet.getRange(first + 1, 1, sorted.length, grid[0]!.length).setValues(sorted);
    // Move Headquarters right of Investment memo: the whole column, hidden id and header with it (both plain text).
    const [hq, memo] = [s.columnOf(HEADQUARTERS), s.columnOf(MEMO)];
    const rows = s.sheet.getDataRange().getNumRows();
    const hqColumn = s.sheet.getRange(1, hq, rows, 1).getValues();
    const memoColumn = s.sheet.getRange(1, memo, rows, 1).getValues();
    s.sheet.getRange(1, hq, rows, 1).setValues(memoColumn);
    s.sheet.getRange(1, memo, rows, 1).setValues(hqColumn);
    const names = s.sheet
      .getRange(first + 1, 2, last - first + 1, 1)
      .getValues()
      .map((row) => String(row[0]));
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
    expect(s.rowOf(AURORA)).toBeGreaterThan(first + 2);
    expect(s.columnOf(HEADQUARTERS)).toBe(memo);

    // The person types Bluebird Health's headquarters where that row and column now are.
    s.sheet.getRange(s.rowOf(BLUEBIRD), s.columnOf(HEADQUARTERS)).setValue('Porto');
    expect(s.sheet.getRange(s.rowOf(BLUEBIRD), 2).getValue()).toBe('Bluebird Health');
    expect(s.sheet.getRange(2, s.columnOf(HEADQUARTERS)).getValue()).toBe('Headquarters');
    const before = await storedValues();
    await stack.emulator.control.clearRequests();
    const pushed = await driveAuditPush(stack, s.rt, ok<AuditPushHandle>(s.rt.callServer('startAuditPush', [null])));
    expect(pushed.report!.totals).toMatchObject({ created: 1, updated: 0, failed: 0, skipped: 0, conflict: 0 });
    const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => (r.body as { portfolio_property_value: unknown }).portfolio_property_value)).toEqual([
      { portfolio_property_id: HEADQUARTERS, portfolio_company_profile_id: BLUEBIRD, value: 'Porto' },
    ]);
    const after = await storedValues();
    expect(await valueOf(BLUEBIRD, HEADQUARTERS)).toBe('Porto');
    // Nothing else moved: every value but the new one is as it was.
    expect(after.filter((v) => !(v.portfolio_company_profile_id === BLUEBIRD && v.portfolio_property_id === HEADQUARTERS))).toEqual(before);

    // The push refreshed the snapshot; its recorded names still bind the ids: a swap now is refused.
    swapRowIds(s, AURORA, BLUEBIRD);
    await stack.emulator.control.clearRequests();
    expect(refusal(s.rt.callServer('startAuditPush', [null]))).toMatch(
      /^The hidden ids in "Portfolio audit" no longer match the names it shows: row \d+ shows "Bluebird Health" but holds the hidden id of "Aurora Robotics"/,
    );
    expect(await stack.emulator.control.requests()).toHaveLength(0);
  });
});

/** The owner's store rewritten by `change` and signed with the owner's own key, as only the owner's add-in could. */
function resignStore(s: Built, change: (snapshot: Record<string, unknown>) => void): void {
  const store = s.rt.spreadsheet.getSheetByName(`Audit store ${s.sheet.getSheetId()}`)!;
  expect(store.getRange(1, 2).getValue()).toBe('1');
  const snapshot = JSON.parse(String(store.getRange(1, 1).getValue())) as Record<string, unknown>;
  expect(snapshot['profileNames']).toContain('Aurora Robotics');
  change(snapshot);
  const text = JSON.stringify(snapshot);
  const key = s.rt.properties.user(OWNER).getProperty('METRICS_SIGNING_KEY')!;
  const hmac = (message: string) => createHmac('sha256', key).update(message, 'utf8').digest('base64');
  store.getRange(1, 1).setValue(text);
  store.getRange(2, 2).setValue(signRecord(hmac, auditSnapshotScope(s.rt.spreadsheet.getId(), s.sheet.getSheetId()), text));
}

describe("each step of a push checks the ids' places again", () => {
  it('pauses, sending nothing, when the snapshot no longer puts the ids beside the names the sheet shows', async () => {
    const s = built();
    s.sheet.getRange(s.rowOf(BLUEBIRD), s.columnOf(HEADQUARTERS)).setValue('Porto');
    const started = ok<AuditPushHandle>(s.rt.callServer('startAuditPush', [null]));
    expect(started.progress.status).toBe('running');
    // Between the start and the first step, the signed record now says row 4's id is Aurora Robotics': the sheet
    // is unchanged (its fingerprint too), so only the step's own check can hold the write back.
    resignStore(s, (snapshot) => {
      const names = snapshot['profileNames'] as string[];
      [names[0], names[1]] = [names[1]!, names[0]!];
    });
    await stack.emulator.control.clearRequests();
    const next = ok<AuditPushHandle>(s.rt.callServer('continueAuditPush', [started.pushId]));
    expect(next.progress).toMatchObject({ status: 'paused', problem: expect.stringMatching(/audit sheet changed/) });
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect(await valueOf(BLUEBIRD, HEADQUARTERS)).toBeNull();
  });
});

describe('an audit built before the names were recorded', () => {
  function asEarlierVersion(s: Built, keepNames: boolean): void {
    resignStore(s, (snapshot) => {
      if (keepNames) return;
      delete snapshot['profileNames'];
      delete snapshot['propertyNames'];
    });
  }

  it('is refused before any request, saying to build it again (the stricter reading: it cannot be checked)', async () => {
    const s = built();
    s.sheet.getRange(s.rowOf(BLUEBIRD), s.columnOf(HEADQUARTERS)).setValue('Porto');
    // Re-signed as it is, the store still pushes: the signature below is the owner's own.
    asEarlierVersion(s, true);
    expect(s.rt.callServer('startAuditPush', [null])).toMatchObject({ ok: true });
    const again = built();
    again.sheet.getRange(again.rowOf(BLUEBIRD), again.columnOf(HEADQUARTERS)).setValue('Porto');
    asEarlierVersion(again, false);
    await stack.emulator.control.clearRequests();
    expect(refusal(again.rt.callServer('startAuditPush', [null]))).toBe(
      'The audit in "Portfolio audit" was built by an earlier version of the add-in, which did not record which company and property each hidden id stands for, so it cannot be checked that every value goes where the sheet shows it: nothing was sent or written. Build the audit again from your sidebar (it replaces this sheet: copy out any edits you want to keep first), then make your edits and push.',
    );
    expect(await stack.emulator.control.requests()).toHaveLength(0);
  });
});
