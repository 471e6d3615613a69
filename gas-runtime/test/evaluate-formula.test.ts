import { createGasRuntime } from '../index';
import { fixture } from './support/fixtures';

function runtime() {
  return createGasRuntime({ code: fixture('addon'), timeZone: 'America/New_York' });
}

describe('evaluateFormula', () => {
  it('passes a cell as a value, a range as rows, and literals, then writes the result', () => {
    const rt = runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('A1:B2').setValues([
      ['2024-01-15', 1],
      ['', 2],
    ]);
    const outcome = rt.evaluateFormula('=CUSTOM_ARGS(A1, B1:B2, "x""y")', { cell: 'D1' });
    expect(outcome).toEqual({
      ok: true,
      values: [
        ['object', 'date'],
        ['object', '1,2'],
        ['string', 'x"y'],
      ],
    });
    expect(sheet.getRange('D1').getFormula()).toBe('=CUSTOM_ARGS(A1, B1:B2, "x""y")');
    expect(sheet.getRange('D1:E3').getValues()).toEqual([
      ['object', 'date'],
      ['object', '1,2'],
      ['string', 'x"y'],
    ]);
    expect(sheet.getRange('E1').getFormula()).toBe('');
  });

  it('passes an array literal as rows: ";" ends a row, "," separates columns', () => {
    const rt = runtime();
    expect(rt.evaluateFormula('=CUSTOM_ARGS({"a";"b"}, {"a";"b"}, {1,2})', { cell: 'A1' })).toEqual({
      ok: true,
      values: [
        ['object', 'array'],
        ['object', 'a,b'],
        ['object', '1,2'],
      ],
    });
    expect(rt.evaluateFormula('=CUSTOM_ARGS({TRUE})', { cell: 'A1' })).toEqual({
      ok: true,
      values: [
        ['boolean', 'true'],
        ['undefined', 'undefined'],
        ['undefined', 'undefined'],
      ],
    });
    expect(() => rt.evaluateFormula('=CUSTOM_ARGS({"a";1,2})', { cell: 'A1' })).toThrow(/the rows of an array literal differ in length/);
  });

  it('passes an empty cell as an empty string and an omitted argument as undefined', () => {
    const rt = runtime();
    expect(rt.evaluateFormula('=CUSTOM_ARGS(C9,,TRUE)', { cell: 'A1' })).toEqual({
      ok: true,
      values: [
        ['string', ''],
        ['undefined', 'undefined'],
        ['boolean', 'true'],
      ],
    });
  });

  it('spills over the cells a smaller result left behind, and refuses to overwrite data', () => {
    const rt = runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    rt.evaluateFormula('=CUSTOM_ROWS(3)', { cell: 'A1' });
    expect(sheet.getLastRow()).toBe(3);
    rt.evaluateFormula('=CUSTOM_ROWS(1)', { cell: 'A1' });
    expect(sheet.getLastRow()).toBe(1);
    sheet.getRange('B3').setValue('mine');
    expect(rt.evaluateFormula('=CUSTOM_ROWS(4)', { cell: 'A1' })).toEqual({
      ok: false,
      error: { code: '#REF!', message: 'Array result was not expanded because it would overwrite data in B3.' },
    });
    expect(sheet.getRange('A1').getValue()).toBe('#REF!');
    expect(sheet.getRange('A2').getValue()).toBe('');
  });

  it('empties the cells an array result filled when its formula is cleared or overwritten, as Sheets does', () => {
    const rt = runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    rt.evaluateFormula('=CUSTOM_ROWS(3)', { cell: 'A1' });
    sheet.getRange('A1').setValue('');
    expect(sheet.getRange('A1:B3').getValues()).toEqual([
      ['', ''],
      ['', ''],
      ['', ''],
    ]);
    expect(sheet.getLastRow()).toBe(0);
    rt.evaluateFormula('=CUSTOM_ROWS(2)', { cell: 'A1' });
    sheet.getRange('A1').setValue('typed');
    expect(sheet.getRange('A1:B2').getValues()).toEqual([
      ['typed', ''],
      ['', ''],
    ]);
    rt.evaluateFormula('=CUSTOM_ROWS(2)', { cell: 'D1' });
    sheet.getRange('D1').clearContent();
    expect(sheet.getRange('D1:E2').getValues()).toEqual([
      ['', ''],
      ['', ''],
    ]);
    // Clearing a cell the result spilled into leaves the formula and the rest of its result alone.
    rt.evaluateFormula('=CUSTOM_ROWS(2)', { cell: 'G1' });
    sheet.getRange('H2').setValue('');
    expect(sheet.getRange('G1:G2').getValues()).toEqual([['row 1'], ['row 2']]);
  });

  it('refuses a result that would need more rows than the sheet has', () => {
    const rt = runtime();
    expect(rt.evaluateFormula('=CUSTOM_ROWS(5)', { cell: 'A998' })).toEqual({
      ok: false,
      error: { code: '#REF!', message: 'Result was not automatically expanded, please insert more rows (2).' },
    });
  });

  it('shows a thrown error as #ERROR! with its message, and an unknown function as #NAME?', () => {
    const rt = runtime();
    expect(rt.evaluateFormula('=CUSTOM_FAIL()', { cell: 'A1' })).toEqual({ ok: false, error: { code: '#ERROR!', message: 'Give a metric id.' } });
    expect(rt.evaluateFormula('=NOPE(1)', { cell: 'A2' })).toEqual({ ok: false, error: { code: '#NAME?', message: "Unknown function: 'NOPE'." } });
    expect(rt.spreadsheet.getActiveSheet().getRange('A1:A2').getDisplayValues()).toEqual([['#ERROR!'], ['#NAME?']]);
  });

  it('refuses ragged rows (the stricter reading: the reference is silent), writes Dates as date cells and text as text', () => {
    const rt = runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    expect(rt.evaluateFormula('=CUSTOM_RAGGED()', { cell: 'A1' })).toEqual({
      ok: false,
      error: { code: '#ERROR!', message: "The result's rows are not all the same length, which a range of cells cannot show." },
    });
    // Midnight UTC is 7 p.m. the day before in New York, the spreadsheet's zone.
    rt.evaluateFormula('=CUSTOM_DATE("2024-02-29")', { cell: 'A5' });
    expect(sheet.getRange('A5').getDisplayValue()).toBe('2/28/2024 19:00:00');
    expect((sheet.getRange('A5').getValue() as Date).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    rt.evaluateFormula('=CUSTOM_FORMULA_TEXT()', { cell: 'A6' });
    expect(sheet.getRange('A6').getValue()).toBe('=1+2');
  });

  it('shows an object result as an error, and lets the function see the calling cell', () => {
    const rt = runtime();
    expect(rt.evaluateFormula('=CUSTOM_OBJECT()', { cell: 'A1' })).toMatchObject({ ok: false, error: { code: '#ERROR!' } });
    expect(rt.evaluateFormula('=CUSTOM_CALLER()', { cell: 'C7' })).toEqual({ ok: true, values: [['C7']] });
    expect(rt.spreadsheet.getActiveRange().getA1Notation()).toBe('A1');
  });

  it('reads references on other sheets', () => {
    const rt = runtime();
    const other = rt.spreadsheet.insertSheet('Other sheet');
    other.getRange('A1:A2').setValues([[2], [3]]);
    rt.spreadsheet.setActiveSheet(rt.spreadsheet.getSheetByName('Sheet1')!);
    expect(rt.evaluateFormula("=CUSTOM_DOUBLE('Other sheet'!A1:A2)", { cell: 'B1' })).toEqual({ ok: true, values: [[4], [6]] });
  });

  it('refuses formulas beyond one call with literals and references', () => {
    expect(() => runtime().evaluateFormula('=CUSTOM_DOUBLE(1)+1', { cell: 'A1' })).toThrow(
      expect.objectContaining({ code: 'FORMULA_NOT_SUPPORTED' }) as unknown as Error,
    );
  });
});
