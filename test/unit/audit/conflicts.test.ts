// The lost-update check of the audit push: which server values count as changed since the build.

import { encodeKey } from '../../../src/core/audit/cell-values';
import { conflictNote, conflictOf, CONFLICT_NOTE_PREFIX } from '../../../src/core/audit/conflicts';
import type { AuditOption } from '../../../src/core/audit/types';

const dates = { timeZone: 'UTC', formatDate: (date: Date) => date.toISOString().slice(0, 10) };
const sector = { id: 'p-sector', name: 'Sector', dataType: 'select' };
const options: AuditOption[] = [
  { id: 'o-fin', label: 'Fintech' },
  { id: 'o-health', label: 'Healthcare' },
];
const employees = { id: 'p-emp', name: 'Employees', dataType: 'number' };
const memo = { id: 'p-memo', name: 'Investment memo', dataType: 'text' };

describe('conflictOf', () => {
  it('finds none while the server holds what the audit was built from', () => {
    expect(
      conflictOf({
        atBuild: 'Fintech',
        server: { value: 'Fintech', optionIds: ['o-fin'] },
        typed: { portfolio_property_option_id: 'o-health' },
        property: sector,
        options,
        dates,
      }),
    ).toBeNull();
    expect(conflictOf({ atBuild: '', server: undefined, typed: { value: '12' }, property: employees, options: [], dates })).toBeNull();
  });

  it('finds none for the same value written another way: a label in another case pushed before, a number with trailing zeros', () => {
    expect(
      conflictOf({
        atBuild: 'fintech',
        server: { value: 'Fintech', optionIds: ['o-fin'] },
        typed: { portfolio_property_option_id: 'o-health' },
        property: sector,
        options,
        dates,
      }),
    ).toBeNull();
    expect(conflictOf({ atBuild: '1.5', server: { value: '1.50', optionIds: [] }, typed: { value: '2' }, property: employees, options: [], dates })).toBeNull();
  });

  it('finds none when the colleague stored what the person typed: nothing of anyone is lost', () => {
    expect(
      conflictOf({
        atBuild: 'Fintech',
        server: { value: 'Healthcare', optionIds: ['o-health'] },
        typed: { portfolio_property_option_id: 'o-health' },
        property: sector,
        options,
        dates,
      }),
    ).toBeNull();
  });

  it("reports a changed value with the label at build and the server's label now", () => {
    expect(
      conflictOf({
        atBuild: 'Fintech',
        server: { value: 'Healthcare', optionIds: ['o-health'] },
        typed: { portfolio_property_option_id: null },
        property: sector,
        options,
        dates,
      }),
    ).toEqual({ atBuild: 'Fintech', server: 'Healthcare' });
    expect(conflictOf({ atBuild: '12', server: undefined, typed: { value: '14' }, property: employees, options: [], dates })).toEqual({
      atBuild: '12',
      server: '',
    });
  });

  it('says the value at build is not kept when the snapshot holds only its fingerprint', () => {
    const long = 'A memo longer than sixteen characters';
    expect(
      conflictOf({ atBuild: encodeKey(long), server: { value: long, optionIds: [] }, typed: { value: 'x' }, property: memo, options: [], dates }),
    ).toBeNull();
    expect(
      conflictOf({ atBuild: encodeKey(long), server: { value: `${long}, edited`, optionIds: [] }, typed: { value: 'x' }, property: memo, options: [], dates }),
    ).toEqual({ atBuild: null, server: `${long}, edited` });
  });
});

it('notes a conflict with its three values, under a prefix only the add-in clears', () => {
  const note = conflictNote({ atBuild: null, server: 'Healthcare' }, 'Energy');
  expect(note.startsWith(CONFLICT_NOTE_PREFIX)).toBe(true);
  expect(note).toContain('On the server now: "Healthcare"');
  expect(note).toContain('Typed here: "Energy"');
  expect(note).toContain('keeps only a fingerprint');
});
