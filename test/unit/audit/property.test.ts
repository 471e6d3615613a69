// Any cells a person can put into the audit sheet: nothing throws, every compared cell is accounted
// for, and nothing invalid would reach the API.

import fc from 'fast-check';
import { PROPERTY_SEED, seeded } from '../../support/property-seed';
import { buildAuditPushReport } from '../../../src/core/audit/push-report';
import { isIsoDate } from '../../../src/core/validate/dates';
import { fundData, fundModel, fundSchema, preparePush, readBack } from './audit-fixtures';

const model = fundModel();
const schema = fundSchema();
const data = fundData();
const optionIds = new Set(
  Object.values(data.options)
    .flat()
    .map((o) => o.id),
);
const dataTypeOf = new Map(data.properties.map((p) => [p.id, p.dataType]));

/** What a cell can hold: Range.getValues() gives numbers, strings, booleans, Dates and ''. */
const cell = fc.oneof(
  fc.constant(''),
  fc.double(),
  fc.integer(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, 1e308, -0, 5e-324),
  fc.boolean(),
  fc.date({ min: new Date(-1e13), max: new Date(1e13) }),
  fc.string(),
  fc.constantFrom(
    '#N/A',
    '#REF!',
    '#DIV/0!',
    '=1+1',
    '1,234',
    '12%',
    'TRUE',
    '2024-02-30',
    '2024-02-29',
    'healthcare',
    'AI, b2b',
    ' Energy ',
    'https://x.example',
    'ftp://x',
  ),
);

it(`accounts for every compared cell and plans only valid writes, whatever the cells hold (seed ${PROPERTY_SEED})`, () => {
  const checked = new Map<string, number>();
  const base = readBack(model.values);
  const { firstProfileRow, lastProfileRow, firstPropertyColumn, lastPropertyColumn } = model.summary.layout;
  const rows = lastProfileRow - firstProfileRow + 1;
  const columns = lastPropertyColumn - firstPropertyColumn + 1;
  fc.assert(
    fc.property(fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: rows, maxLength: rows }), (edits) => {
      const sheet = base.map((row) => [...row]);
      edits.forEach((line, r) =>
        line.forEach((value, c) => {
          sheet[firstProfileRow - 1 + r]![firstPropertyColumn - 1 + c] = value;
        }),
      );
      const state = preparePush(sheet, model, schema);
      const report = buildAuditPushReport(state);
      const total = Object.values(report.totals).reduce((a, b) => a + b, 0);
      expect(total).toBe(report.cellsCompared);
      expect(report.cellsCompared).toBe(rows * columns);
      for (const item of state.items) {
        if (!item.write) {
          expect(['failed', 'skipped']).toContain(item.outcome);
          expect(item.reason).toBeTruthy();
          continue;
        }
        const type = dataTypeOf.get(state.properties[item.property]!.id);
        const write = item.write as Record<string, unknown>;
        if ('value' in write) {
          const value = write['value'] as string;
          expect(typeof value).toBe('string');
          if (value === '') continue; // clears the value
          checked.set(type ?? '?', (checked.get(type ?? '?') ?? 0) + 1);
          if (type === 'number') expect(value).toMatch(/^-?\d+(\.\d+)?$/);
          if (type === 'date') expect(isIsoDate(value)).toBe(true);
          if (type === 'boolean') expect(['true', 'false']).toContain(value);
          if (type === 'url') expect(value).toMatch(/^https?:\/\/[^\s/]+/);
        } else if ('portfolio_property_option_id' in write) {
          const option = write['portfolio_property_option_id'];
          if (option !== null) expect(optionIds.has(option as string)).toBe(true);
        } else {
          for (const option of write['portfolio_property_option_ids'] as string[]) expect(optionIds.has(option)).toBe(true);
        }
      }
    }),
    seeded(300),
  );
  // The generator reached every kind of write, so the checks above were not vacuous.
  for (const type of ['number', 'date', 'boolean', 'url', 'string']) expect(checked.get(type) ?? 0).toBeGreaterThan(0);
});
