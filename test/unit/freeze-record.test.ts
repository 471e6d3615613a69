// The frozen range's record: fingerprints tell a typed cell from a frozen one, the host carries no credentials.

import { apiHost, cellFingerprint, changedCells, fingerprints, listCells } from '../../src/core/formulas/freeze';

describe('frozen range fingerprints', () => {
  it('differ by type as getValues gives them: 1, "1", a date and its time, true and "true"', () => {
    const prints = [1, '1', new Date(1), 'true', true, ''].map(cellFingerprint);
    expect(new Set(prints).size).toBe(prints.length);
    expect(prints.every((p) => p.length === 7)).toBe(true);
  });

  it('name only cells typed into: not empty and not what was frozen', () => {
    const frozen = [
      [new Date(Date.UTC(2024, 0, 1)), 10],
      [new Date(Date.UTC(2024, 1, 1)), ''],
    ];
    const record = { cells: fingerprints(frozen) };
    expect(changedCells(record, frozen)).toEqual([]);
    expect(
      changedCells(record, [
        [new Date(Date.UTC(2024, 0, 1)), 11],
        [new Date(Date.UTC(2024, 1, 1)), 'x'],
      ]),
    ).toEqual([
      { row: 1, column: 2 },
      { row: 2, column: 2 },
    ]);
    // An emptied cell holds nothing the formula would overwrite.
    expect(
      changedCells(record, [
        ['', ''],
        ['', ''],
      ]),
    ).toEqual([]);
  });
});

describe('apiHost and listCells', () => {
  it('keeps the host only, never user info or path', () => {
    expect(apiHost('https://user:secret@api.example.com:8443/v1?token=x')).toBe('api.example.com:8443');
    expect(apiHost(null)).toBe('not set');
  });

  it('lists cells as a sentence, eleven and more shortened', () => {
    expect(listCells(['B2'])).toBe('B2');
    expect(listCells(['B2', 'C3', 'D4'])).toBe('B2, C3 and D4');
    expect(listCells(Array.from({ length: 12 }, (_, i) => `A${i + 1}`))).toBe('A1, A2, A3, A4, A5, A6, A7, A8, A9, A10 and 2 more');
  });
});
