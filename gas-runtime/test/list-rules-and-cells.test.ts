// Sheets' refusals for list rules over 500 items and cells over 50,000 characters, on every write path.

import { createGasRuntime, CustomFunctionError } from '../index';
import { fixture } from './support/fixtures';

const OVER_500 = 'Exception: The data validation rule has more items than the limit of 500. Use the "List from a range" criteria instead.';
const OVER_50000 = 'Exception: Your input contains more than the maximum of 50000 characters in a single cell.';

function runtime() {
  return createGasRuntime({ code: fixture('limits') });
}

describe('list rules (requireValueInList)', () => {
  it('apply with 500 items', () => {
    const rt = runtime();
    expect(rt.run('listRule', [500, 'one'])).toBe('applied');
    expect(rt.spreadsheet.getActiveSheet().getRange('A2').getDataValidation()!.getCriteriaValues()[0]).toHaveLength(500);
  });

  it.each(['one', 'each'])('build with 501 items but are refused when applied (set %s), leaving the cells as they were', (where) => {
    const rt = runtime();
    expect(rt.run('listRule', [501, where])).toBe(OVER_500);
    expect(rt.spreadsheet.getActiveSheet().getRange('A1:A2').getDataValidations()).toEqual([[null], [null]]);
  });

  it('give way to requireValueInRange, which reads a list of any length from the range', () => {
    expect(runtime().run('rangeRule', [800])).toEqual({ criteria: 'VALUE_IN_RANGE', items: 800, last: 'item 799' });
  });
});

describe('a cell of more than 50,000 characters', () => {
  it.each(['setValue', 'setValues', 'appendRow', 'setFormula', 'setFormulas'])('is refused by %s, and 50,000 are written', (how) => {
    const rt = runtime();
    expect(rt.run('writeLong', [how, 50_001])).toBe(OVER_50000);
    expect(rt.run('writeLong', [how, 50_000])).toBe('written');
  });

  it('from a custom function shows an error in the cell (its code is unverified)', () => {
    const rt = runtime();
    expect(rt.runCustomFunction('LONG_TEXT', [50_000])).toHaveLength(50_000);
    expect(() => rt.runCustomFunction('LONG_TEXT', [50_001])).toThrow(new CustomFunctionError(OVER_50000.replace('Exception: ', '')));
    expect(rt.evaluateFormula('=LONG_TEXT(50001)', { cell: 'B2' })).toEqual({
      ok: false,
      error: { code: '#ERROR!', message: OVER_50000.replace('Exception: ', '') },
    });
    expect(rt.spreadsheet.getActiveSheet().getRange('B2').getValue()).toBe('#ERROR!');
  });
});
