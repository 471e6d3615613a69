// Reading the audit sheet back: ids travel with rows and columns, so sorting, filtering and added rows change nothing.

import { readAuditSheet } from '../../../src/core/audit/read-sheet';
import { AUDIT_MARKER_PREFIX, IDS_MARKER } from '../../../src/core/audit/layout';
import { FUND, fundModel, PROFILE, PROPERTY, readBack } from './audit-fixtures';

describe('reading the audit sheet back', () => {
  const model = fundModel();

  it('reads every (profile, property) cell with its sheet position', () => {
    const read = readAuditSheet(readBack(model.values), FUND);
    expect(read.companyId).toBe(FUND);
    expect(read.rows).toEqual([
      { profileId: PROFILE.aurora, name: 'Aurora Robotics', row: 3 },
      { profileId: PROFILE.bluebird, name: 'Bluebird Health', row: 4 },
      { profileId: PROFILE.cobalt, name: 'Cobalt Payments', row: 5 },
    ]);
    expect(read.columns).toHaveLength(10);
    expect(read.cells).toHaveLength(30);
    expect(read.cells[0]).toEqual({ profileId: PROFILE.aurora, propertyId: PROPERTY.sector, row: 3, column: 3, value: 'Fintech' });
    expect(read.ignoredRows).toEqual([]);
  });

  it('finds the same cells after the rows were sorted by name, descending', () => {
    const sheet = readBack(model.values);
    const sorted = [...sheet.slice(0, 2), ...sheet.slice(2, 5).sort((a, b) => String(b[1]).localeCompare(String(a[1]))), ...sheet.slice(5)];
    const read = readAuditSheet(sorted, FUND);
    expect(read.rows.map((row) => [row.name, row.row])).toEqual([
      ['Cobalt Payments', 3],
      ['Bluebird Health', 4],
      ['Aurora Robotics', 5],
    ]);
    const cobaltHeadquarters = read.cells.find((cell) => cell.profileId === PROFILE.cobalt && cell.propertyId === PROPERTY.headquarters);
    expect(cobaltHeadquarters).toEqual({ profileId: PROFILE.cobalt, propertyId: PROPERTY.headquarters, row: 3, column: 8, value: 'Lisbon' });
  });

  it('finds the same cells after columns were moved', () => {
    const sheet = readBack(model.values).map((row) => [row[0], row[1], row[7], ...row.slice(2, 7), ...row.slice(8)]);
    const read = readAuditSheet(sheet, FUND);
    expect(read.columns[0]).toEqual({ propertyId: PROPERTY.headquarters, column: 3, header: 'Headquarters' });
    expect(read.cells.find((cell) => cell.profileId === PROFILE.aurora && cell.propertyId === PROPERTY.headquarters)?.value).toBe('Berlin');
  });

  it('ignores blank rows added between profiles, and lists rows with content but no profile id', () => {
    const sheet = readBack(model.values);
    const width = sheet[0]!.length;
    const blank = Array.from({ length: width }, () => '');
    const newCompany = Array.from({ length: width }, (_, i) => (i === 1 ? 'Newco' : i === 2 ? 'Fintech' : ''));
    const withAdded = [...sheet.slice(0, 3), blank, ...sheet.slice(3, 5), newCompany, ...sheet.slice(5)];
    const read = readAuditSheet(withAdded, FUND);
    expect(read.rows.map((row) => row.row)).toEqual([3, 5, 6]);
    expect(read.cells).toHaveLength(30);
    // The summary rows below carry markers, so they are neither profiles nor ignored rows.
    expect(read.ignoredRows).toEqual([7]);
  });

  it("names the fund from the sheet's developer metadata, never from a cell: the marker cell carries none", () => {
    const sheet = readBack(model.values);
    expect(sheet[0]![0]).toBe(IDS_MARKER);
    expect(sheet.flat().filter((cell) => typeof cell === 'string' && cell.includes(FUND))).toEqual([]);
    expect(readAuditSheet(sheet, FUND.toUpperCase()).companyId).toBe(FUND);
    // Without the metadata (or with one that is not an id) there is no fund: nothing to push.
    expect(() => readAuditSheet(sheet, null)).toThrow('This sheet is not a portfolio audit sheet');
    expect(() => readAuditSheet(sheet, 'the fund')).toThrow('This sheet is not a portfolio audit sheet');
  });

  it('reads an audit built before the fund moved to metadata: its marker cell names the fund', () => {
    const sheet = readBack(model.values);
    sheet[0]![0] = `${AUDIT_MARKER_PREFIX}${FUND}`;
    const read = readAuditSheet(sheet, null);
    expect(read.companyId).toBe(FUND);
    expect(read.cells).toHaveLength(30);
    expect(readAuditSheet(sheet, FUND)).toEqual(read);
  });

  it('refuses a sheet without the hidden id row', () => {
    expect(() => readAuditSheet(readBack(model.values).slice(1), FUND)).toThrow('This sheet is not a portfolio audit sheet');
    expect(() => readAuditSheet([], FUND)).toThrow('This sheet is not a portfolio audit sheet');
  });
});
