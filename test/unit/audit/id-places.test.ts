// Each hidden id must sit beside the name the signed snapshot recorded for it: a swap of hidden ids, which leaves
// the sheet looking as built, is refused before anything is sent; a person's sort or moved column passes.

import { createHmac } from 'node:crypto';
import { auditSnapshotScope, requireOwnAudit } from '../../../src/core/audit/audit-trust';
import { misplacedIds, requireIdsInPlace } from '../../../src/core/audit/id-places';
import { readAuditSheet } from '../../../src/core/audit/read-sheet';
import { applySnapshotUpdates, parseSnapshot, serializeSnapshot } from '../../../src/core/audit/snapshot';
import type { AuditSnapshot } from '../../../src/core/audit/types';
import { signRecord, type Hmac } from '../../../src/core/trust/signed-record';
import { FUND, fundModel, PROFILE, PROPERTY, readBack } from './audit-fixtures';

const SHEET = 'Portfolio audit';
const model = fundModel();
const REBUILD = 'Build the audit again from your sidebar (it replaces this sheet: copy out any edits you want to keep first), then make your edits and push.';

/** The built grid with two cells of row `row` (0-based) swapped, or of the id row. */
function swapped(grid: unknown[][], a: [number, number], b: [number, number]): unknown[][] {
  const copy = grid.map((line) => [...line]);
  const held = copy[a[0]]![a[1]];
  copy[a[0]]![a[1]] = copy[b[0]]![b[1]];
  copy[b[0]]![b[1]] = held;
  return copy;
}

const built = () => readBack(model.values);
const rowOf = (grid: unknown[][], profileId: string) => grid.findIndex((line) => line[0] === profileId);
const columnOf = (grid: unknown[][], propertyId: string) => grid[0]!.indexOf(propertyId);

describe('the snapshot records the names the ids are shown beside', () => {
  it("records each profile's name and each property's header as the sheet shows them", () => {
    expect(model.snapshot.profileNames).toEqual(['Aurora Robotics', 'Bluebird Health', 'Cobalt Payments']);
    expect(model.snapshot.propertyNames).toEqual(model.values[1]!.slice(2, 2 + model.snapshot.properties.length));
    expect(model.snapshot.propertyNames).toContain('MOIC (auto)');
  });

  it("keeps them through serialisation and a push's refresh of the snapshot", () => {
    const refreshed = parseSnapshot(
      serializeSnapshot(applySnapshotUpdates(model.snapshot, [{ profileId: PROFILE.aurora, propertyId: PROPERTY.headquarters, key: 'Porto' }])),
    );
    expect(refreshed.profileNames).toEqual(model.snapshot.profileNames);
    expect(refreshed.propertyNames).toEqual(model.snapshot.propertyNames);
  });

  it('refuses to read a snapshot whose names do not line up with its ids', () => {
    expect(() => parseSnapshot(JSON.stringify({ ...model.snapshot, profileNames: ['Aurora Robotics'] }))).toThrow(
      'not in a form this version of the add-in reads',
    );
  });
});

describe('requireIdsInPlace', () => {
  it('passes the sheet as built', () => {
    const read = readAuditSheet(built(), FUND);
    expect(misplacedIds(read, model.snapshot)).toEqual([]);
    expect(() => requireIdsInPlace(read, model.snapshot, SHEET)).not.toThrow();
  });

  it('refuses two rows whose hidden profile ids were swapped, naming both rows', () => {
    const grid = built();
    const sheet = swapped(grid, [rowOf(grid, PROFILE.aurora), 0], [rowOf(grid, PROFILE.bluebird), 0]);
    const read = readAuditSheet(sheet, FUND);
    expect(misplacedIds(read, model.snapshot)).toEqual([
      { kind: 'row', at: 3, shown: 'Aurora Robotics', recorded: 'Bluebird Health' },
      { kind: 'row', at: 4, shown: 'Bluebird Health', recorded: 'Aurora Robotics' },
    ]);
    expect(() => requireIdsInPlace(read, model.snapshot, SHEET)).toThrow(
      `The hidden ids in "Portfolio audit" no longer match the names it shows: row 3 shows "Aurora Robotics" but holds the hidden id of "Bluebird Health"; row 4 shows "Bluebird Health" but holds the hidden id of "Aurora Robotics". Pushing would write into other companies' or properties' records than the ones you see, so nothing was sent or written. If you edited a company name or a header, put back the one the audit wrote; otherwise build the audit again from your sidebar (it replaces this sheet: copy out any edits you want to keep first), then make your edits and push.`,
    );
  });

  it('refuses two columns whose hidden property ids were swapped, naming both columns by letter', () => {
    const grid = built();
    const sheet = swapped(grid, [0, columnOf(grid, PROPERTY.headquarters)], [0, columnOf(grid, PROPERTY.sector)]);
    const read = readAuditSheet(sheet, FUND);
    expect(misplacedIds(read, model.snapshot)).toEqual([
      { kind: 'column', at: 3, shown: 'Sector', recorded: 'Headquarters' },
      { kind: 'column', at: 8, shown: 'Headquarters', recorded: 'Sector' },
    ]);
    expect(() => requireIdsInPlace(read, model.snapshot, SHEET)).toThrow(
      /^The hidden ids in "Portfolio audit" no longer match the names it shows: column C is headed "Sector" but holds the hidden id of "Headquarters"; column H is headed "Headquarters" but holds the hidden id of "Sector"\. /,
    );
  });

  it('names three places and counts the rest', () => {
    const grid = built();
    let sheet = swapped(grid, [rowOf(grid, PROFILE.aurora), 0], [rowOf(grid, PROFILE.bluebird), 0]);
    sheet = swapped(sheet, [0, columnOf(grid, PROPERTY.headquarters)], [0, columnOf(grid, PROPERTY.sector)]);
    expect(() => requireIdsInPlace(readAuditSheet(sheet, FUND), model.snapshot, SHEET)).toThrow(
      /; column C is headed "Sector" but holds the hidden id of "Headquarters"; and 1 more row or column\. Pushing would/,
    );
  });

  it("passes the person's own sort by name and moved columns: names and ids move together", () => {
    const sheet = built();
    const sorted = [...sheet.slice(0, 2), ...sheet.slice(2, 5).sort((a, b) => String(b[1]).localeCompare(String(a[1]))), ...sheet.slice(5)];
    const moved = sorted.map((row) => [row[0], row[1], row[7], ...row.slice(2, 7), ...row.slice(8)]);
    const read = readAuditSheet(moved, FUND);
    expect(read.rows.map((row) => row.name)).toEqual(['Cobalt Payments', 'Bluebird Health', 'Aurora Robotics']);
    expect(read.columns[0]).toMatchObject({ propertyId: PROPERTY.headquarters, header: 'Headquarters' });
    expect(misplacedIds(read, model.snapshot)).toEqual([]);
  });

  it('passes spaces a person cannot see around a name, and ids the audit never had (their cells are never sent)', () => {
    const sheet = built();
    sheet[rowOf(sheet, PROFILE.cobalt)]![1] = ' Cobalt Payments ';
    sheet.push(['b0000000-0000-4000-8000-0000000000ff', 'Planted Co', ...sheet[2]!.slice(2)]);
    expect(misplacedIds(readAuditSheet(sheet, FUND), model.snapshot)).toEqual([]);
  });

  it('refuses a renamed company or a cleared header: the sheet no longer shows whose record it writes', () => {
    const sheet = built();
    sheet[rowOf(sheet, PROFILE.cobalt)]![1] = 'Cobalt Pay';
    sheet[1]![columnOf(sheet, PROPERTY.memo)] = '';
    expect(misplacedIds(readAuditSheet(sheet, FUND), model.snapshot)).toEqual([
      { kind: 'row', at: 5, shown: 'Cobalt Pay', recorded: 'Cobalt Payments' },
      { kind: 'column', at: 10, shown: '', recorded: 'Investment memo' },
    ]);
    expect(() => requireIdsInPlace(readAuditSheet(sheet, FUND), model.snapshot, SHEET)).toThrow(
      'column J is headed by nothing but holds the hidden id of "Investment memo"',
    );
  });

  it('refuses an audit built before the names were recorded, saying to build it again', () => {
    const { profileNames: _p, propertyNames: _q, ...older } = model.snapshot;
    const legacy: AuditSnapshot = older;
    expect(misplacedIds(readAuditSheet(built(), FUND), legacy)).toBeNull();
    expect(() => requireIdsInPlace(readAuditSheet(built(), FUND), legacy, SHEET)).toThrow(
      `The audit in "Portfolio audit" was built by an earlier version of the add-in, which did not record which company and property each hidden id stands for, so it cannot be checked that every value goes where the sheet shows it: nothing was sent or written. ${REBUILD}`,
    );
  });
});

describe("requireOwnAudit checks the ids' places too", () => {
  const hmac: Hmac = (text) => createHmac('sha256', 'owner-key').update(text, 'utf8').digest('base64');
  const scope = auditSnapshotScope('spreadsheet-1', 7);
  const text = serializeSnapshot(model.snapshot);
  const stored = { text, signature: signRecord(hmac, scope, text) };

  it('gives back the signed snapshot for the sheet as built, and refuses the same sheet with two ids swapped', () => {
    const grid = built();
    expect(requireOwnAudit(hmac, scope, stored, readAuditSheet(grid, FUND), SHEET)).toEqual(model.snapshot);
    const sheet = swapped(grid, [rowOf(grid, PROFILE.aurora), 0], [rowOf(grid, PROFILE.cobalt), 0]);
    expect(() => requireOwnAudit(hmac, scope, stored, readAuditSheet(sheet, FUND), SHEET)).toThrow(
      /^The hidden ids in "Portfolio audit" no longer match the names it shows: row 3 shows "Aurora Robotics" but holds the hidden id of "Cobalt Payments"/,
    );
  });

  it('cannot be talked round by names an editor writes into the store: the signature no longer verifies', () => {
    const grid = built();
    const sheet = swapped(grid, [rowOf(grid, PROFILE.aurora), 0], [rowOf(grid, PROFILE.bluebird), 0]);
    const forged = serializeSnapshot({ ...model.snapshot, profileNames: ['Bluebird Health', 'Aurora Robotics', 'Cobalt Payments'] });
    expect(() => requireOwnAudit(hmac, scope, { text: forged, signature: stored.signature }, readAuditSheet(sheet, FUND), SHEET)).toThrow(
      /was changed by someone else/,
    );
  });
});
