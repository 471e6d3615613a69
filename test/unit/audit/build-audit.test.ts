// The audit sheet of a fund: values as a person reads them, hidden ids, completeness, formatting and the snapshot.

import { cellForValue } from '../../../src/core/audit/cell-values';
import { buildAuditModel } from '../../../src/core/audit/build-audit';
import { serializeSnapshot } from '../../../src/core/audit/snapshot';
import type { AuditData } from '../../../src/core/audit/types';
import { midnightIn } from '../../../src/core/sheets/time-zone';
import { FORMULA_TEXT, FUND, fundData, fundModel, MEMO, OPTION, PROFILE, PROPERTY, TZ } from './audit-fixtures';

describe('the audit sheet model', () => {
  const model = fundModel();
  const { values, summary, snapshot } = model;

  it('lays out a hidden id row, a header row, and one row per profile with a hidden id and a name', () => {
    expect(values[0]!.slice(0, 2)).toEqual(['#ids', '#name']);
    expect(values[1]!.slice(0, 2)).toEqual(['Profile id', 'Company']);
    expect(values.slice(2, 5).map((row) => row.slice(0, 2))).toEqual([
      [PROFILE.aurora, 'Aurora Robotics'],
      [PROFILE.bluebird, 'Bluebird Health'],
      [PROFILE.cobalt, 'Cobalt Payments'],
    ]);
    expect(summary.layout).toMatchObject({
      idRow: 1,
      headerRow: 2,
      firstProfileRow: 3,
      lastProfileRow: 5,
      idColumn: 1,
      nameColumn: 2,
      firstPropertyColumn: 3,
      lastPropertyColumn: 12,
      firstAutoColumn: 11,
      rows: 9,
      columns: 15,
    });
    expect(values).toHaveLength(9);
    expect(values.every((row) => row.length === 15)).toBe(true);
  });

  it('labels two companies of one name with their profile ids, in the sheet and in the names it records', () => {
    const data = fundData();
    const twins = { ...data, profiles: data.profiles.map((p, i) => (i === 2 ? { ...p, name: ' aurora robotics' } : p)) };
    const built = buildAuditModel(twins, { timeZone: TZ });
    const labels = [`Aurora Robotics (${PROFILE.aurora})`, 'Bluebird Health', `aurora robotics (${PROFILE.cobalt})`];
    expect(built.values.slice(2, 5).map((row) => row[1])).toEqual(labels);
    expect(built.summary.profiles.map((row) => row.name)).toEqual(labels);
    expect(built.snapshot.profileNames).toEqual(labels);
  });

  it('puts custom properties first and the auto-calculated ones last, marked, whatever the API order', () => {
    expect(values[0]!.slice(2, 12)).toEqual([
      PROPERTY.sector,
      PROPERTY.tags,
      PROPERTY.employees,
      PROPERTY.founded,
      PROPERTY.boardSeat,
      PROPERTY.headquarters,
      PROPERTY.pitchDeck,
      PROPERTY.memo,
      PROPERTY.moic,
      PROPERTY.initialInvestment,
    ]);
    expect(values[1]!.slice(2, 15)).toEqual([
      'Sector',
      'Tags',
      'Employees',
      'Founded',
      'Board seat',
      'Headquarters',
      'Pitch deck',
      'Investment memo',
      'MOIC (auto)',
      'Initial Investment Date (auto)',
      'Filled',
      'Of',
      'Complete',
    ]);
    expect(summary.columns.map((column) => [column.letter, column.autoCalculated])).toEqual([
      ['C', false],
      ['D', false],
      ['E', false],
      ['F', false],
      ['G', false],
      ['H', false],
      ['I', false],
      ['J', false],
      ['K', true],
      ['L', true],
    ]);
  });

  it('shows values as a person reads them: labels, joined labels in option order, numbers, dates, booleans, text', () => {
    expect(values[2]!.slice(2, 12)).toEqual([
      'Fintech',
      'B2B, SaaS',
      120,
      midnightIn('2015-03-01', TZ),
      true,
      'Berlin',
      'https://example.com/decks/1.pdf',
      MEMO,
      2.5,
      midnightIn('2019-06-01', TZ),
    ]);
    // A label with a comma stays whole; false is a value, not a blank; text that looks like a formula stays text.
    expect(values[3]!.slice(2, 12)).toEqual(['Healthcare', 'Hardware, IoT, AI', '', '', false, FORMULA_TEXT, '', '', '', '']);
    expect(values[4]!.slice(2, 12)).toEqual(['', '', 7.25, '', '', 'Lisbon', '', '', '', '']);
  });

  it("writes dates as midnight in the spreadsheet's time zone, not in UTC", () => {
    const founded = values[2]![5] as Date;
    expect(founded.toISOString()).toBe('2015-03-01T05:00:00.000Z');
  });

  it('lists the blank editable cells for highlighting, and highlights none of the auto-calculated ones', () => {
    expect(summary.blanks).toEqual([
      { row: 4, column: 5 },
      { row: 4, column: 6 },
      { row: 4, column: 9 },
      { row: 4, column: 10 },
      { row: 5, column: 3 },
      { row: 5, column: 4 },
      { row: 5, column: 6 },
      { row: 5, column: 7 },
      { row: 5, column: 9 },
      { row: 5, column: 10 },
    ]);
    expect(summary.formatting.blankHighlight).toEqual({ range: { row: 3, column: 3, numRows: 3, numColumns: 8, a1: 'C3:J5' }, background: '#fff2cc' });
  });

  it('counts completeness per property over every profile, and per company over the custom properties', () => {
    expect(summary.columns.map((column) => [column.name, column.filled, column.total])).toEqual([
      ['Sector', 2, 3],
      ['Tags', 2, 3],
      ['Employees', 2, 3],
      ['Founded', 1, 3],
      ['Board seat', 2, 3],
      ['Headquarters', 3, 3],
      ['Pitch deck', 1, 3],
      ['Investment memo', 1, 3],
      ['MOIC', 1, 3],
      ['Initial Investment Date', 1, 3],
    ]);
    expect(summary.columns[5]!.share).toBe(1);
    expect(summary.columns[3]!.share).toBeCloseTo(1 / 3, 12);
    expect(summary.profiles.map((row) => [row.name, row.row, row.filled, row.total, row.share])).toEqual([
      ['Aurora Robotics', 3, 8, 8, 1],
      ['Bluebird Health', 4, 4, 8, 0.5],
      ['Cobalt Payments', 5, 2, 8, 0.25],
    ]);
    expect(summary.overall).toEqual({ filled: 14, total: 24, share: 14 / 24 });
  });

  it('puts per-company figures right of the properties and per-property figures below the profiles, after a blank row', () => {
    expect(values.slice(2, 5).map((row) => row.slice(12))).toEqual([
      [8, 8, 1],
      [4, 8, 0.5],
      [2, 8, 0.25],
    ]);
    expect(values[0]!.slice(12)).toEqual(['#filled', '#total', '#share']);
    expect(values[5]!.every((cell) => cell === '')).toBe(true);
    expect(values.slice(6).map((row) => row.slice(0, 5))).toEqual([
      ['#filled', 'Filled', 2, 2, 2],
      ['#total', 'Of', 3, 3, 3],
      ['#share', 'Complete', 2 / 3, 2 / 3, 2 / 3],
    ]);
    expect(values[6]!.slice(12)).toEqual(['', '', '']);
  });

  it('tells the server how to format: text columns plain, numbers with separators, dates, dropdowns, checkboxes, read-only auto columns, frozen header, filter', () => {
    const { formatting } = summary;
    expect(formatting.hiddenRows).toEqual([1]);
    expect(formatting.hiddenColumns).toEqual([1]);
    expect([formatting.frozenRows, formatting.frozenColumns]).toEqual([2, 2]);
    expect(formatting.filter.a1).toBe('A2:O5');
    expect(formatting.numberFormats.map((f) => [f.range.a1, f.format])).toEqual([
      ['A1:O2', '@'],
      ['A1:B9', '@'],
      ['C3:C5', '@'],
      ['D3:D5', '@'],
      ['E3:E5', '#,##0.00'],
      ['H3:H5', '@'],
      ['I3:I5', '@'],
      ['J3:J5', '@'],
      ['K3:K5', '#,##0.00'],
      ['O3:O5', '0%'],
      ['C9:L9', '0%'],
    ]);
    expect(formatting.validations).toEqual([
      {
        kind: 'list',
        propertyId: PROPERTY.sector,
        range: expect.objectContaining({ a1: 'C3:C5' }),
        labels: ['Fintech', 'Healthcare', 'Energy'],
        allowInvalid: false,
        helpText: 'Pick one of the labels of Sector.',
      },
      {
        kind: 'list',
        propertyId: PROPERTY.tags,
        range: expect.objectContaining({ a1: 'D3:D5' }),
        labels: ['B2B', 'SaaS', 'Hardware, IoT', 'Hardware', 'AI'],
        allowInvalid: true,
        helpText: 'Pick one label, or type several separated by commas, like "B2B, SaaS". Labels: B2B | SaaS | Hardware, IoT | Hardware | AI.',
      },
      { kind: 'checkbox', range: expect.objectContaining({ a1: 'G3:G5' }) },
    ]);
    expect(formatting.readOnly.ranges.map((range) => range.a1)).toEqual(['K2:L5']);
    expect(formatting.readOnly.background).toBe('#efefef');
  });

  it('keys every cell as written in a compact snapshot: short text verbatim, long text hashed', () => {
    const hash = expect.stringMatching(/^#[A-Za-z0-9_-]{8}$/);
    expect(snapshot.profiles).toEqual([PROFILE.aurora, PROFILE.bluebird, PROFILE.cobalt]);
    expect(snapshot.properties[0]).toBe(PROPERTY.sector);
    expect(snapshot.rows[0]!.split('|')).toEqual(['Fintech', 'B2B, SaaS', '120', '2015-03-01', 'true', 'Berlin', hash, hash, '2.5', '2019-06-01']);
    expect(snapshot.rows[1]!.split('|')).toEqual(['Healthcare', hash, '', '', 'false', hash, '', '', '', '']);
    expect(snapshot.rows[2]).toBe('||7.25|||Lisbon||||');
  });

  it('keeps a snapshot of 50 companies × 25 properties, with their names, to about 15-18 KB', () => {
    const properties = Array.from({ length: 25 }, (_, i) => ({
      id: `b2000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      name: `Property ${i + 1}`,
      dataType: ['number', 'date', 'string', 'text', 'select'][i % 5]!,
      autoCalculated: false,
    }));
    const profiles = Array.from({ length: 50 }, (_, i) => ({ id: `b0000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, name: `Company ${i + 1}` }));
    const sample = ['1250000.5', '2021-04-01', 'Berlin, Germany', 'A long investment memo that is hashed in the snapshot.', 'Series A'];
    const sizeWith = (blankEvery: number) => {
      const data: AuditData = {
        companyId: FUND,
        profiles,
        properties,
        options: {},
        values: Object.fromEntries(
          profiles.map((profile, p) => [
            profile.id,
            Object.fromEntries(
              properties.flatMap((property, i) => ((p + i) % blankEvery === 0 ? [] : [[property.id, { value: sample[i % 5]!, optionIds: [] }]])),
            ),
          ]),
        ),
      };
      return serializeSnapshot(buildAuditModel(data, { timeZone: TZ }).snapshot).length;
    };
    // Ids are 2.9 KB of it and names 0.9 KB here; every cell costs its key (at most 16 characters, or 9 for a hash) plus a separator.
    expect(sizeWith(Number.POSITIVE_INFINITY)).toBeLessThan(18_500);
    expect(sizeWith(4)).toBeLessThan(15_000);
  });

  it('builds an empty fund without rows to format', () => {
    const empty = buildAuditModel({ companyId: FUND, profiles: [], properties: [], options: {}, values: {} }, { timeZone: TZ });
    expect(empty.summary.layout).toMatchObject({ lastProfileRow: 2, lastPropertyColumn: 2, firstAutoColumn: null, rows: 6, columns: 5 });
    expect(empty.summary.formatting.blankHighlight).toBeNull();
    expect(empty.summary.formatting.validations).toEqual([]);
    expect(empty.summary.formatting.filter.a1).toBe('A2:E2');
    expect(empty.summary.overall).toEqual({ filled: 0, total: 0, share: null });
  });

  it('shows a number a double cannot hold as exact text, forced to stay text', () => {
    const data: AuditData = {
      companyId: FUND,
      profiles: [{ id: PROFILE.aurora, name: 'Aurora' }],
      properties: [{ id: PROPERTY.employees, name: 'Employees', dataType: 'number', autoCalculated: false }],
      options: {},
      values: { [PROFILE.aurora]: { [PROPERTY.employees]: { value: '12345678901234567890.5', optionIds: [] } } },
    };
    const built = buildAuditModel(data, { timeZone: TZ });
    expect(built.values[2]![2]).toBe("'12345678901234567890.5");
    expect(built.snapshot.rows[0]).toMatch(/^#/);
  });

  it('shows a select whose option is gone by the label the API answered', () => {
    const data: AuditData = {
      companyId: FUND,
      profiles: [{ id: PROFILE.aurora, name: 'Aurora' }],
      properties: [{ id: PROPERTY.sector, name: 'Sector', dataType: 'select', autoCalculated: false }],
      options: { [PROPERTY.sector]: [] },
      values: { [PROFILE.aurora]: { [PROPERTY.sector]: { value: 'Retired label', optionIds: [OPTION.energy] } } },
    };
    expect(buildAuditModel(data, { timeZone: TZ }).values[2]![2]).toBe('Retired label');
  });
});

describe('a rich_text property in the audit', () => {
  it('shows the HTML as the text a person reads, with its line breaks, never its tags', () => {
    const property = { id: 'p', name: 'Investment thesis', dataType: 'rich_text', autoCalculated: false } as unknown as Parameters<typeof cellForValue>[1];
    const cell = cellForValue(
      { value: '<p>Aurora <em>compounds</em> data &amp; reach.</p><p>Second line.</p>', optionIds: [] } as unknown as Parameters<typeof cellForValue>[0],
      property,
      [],
      'UTC',
    );
    expect(cell).toEqual({ logical: 'Aurora compounds data & reach.\nSecond line.', written: 'Aurora compounds data & reach.\nSecond line.' });
  });
});
