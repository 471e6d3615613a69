import { createGasRuntime, ScriptError } from '../index';

function runtime(timeZone = 'America/New_York') {
  return createGasRuntime({ code: 'function noop() {}', timeZone });
}

function sheetOf(rt: ReturnType<typeof runtime>) {
  return rt.spreadsheet.getActiveSheet();
}

describe('values written with setValue/setValues', () => {
  it('are read like a user’s entry', () => {
    const rt = runtime();
    const range = sheetOf(rt).getRange('A1:H1');
    range.setValues([['12.5', '1,234', '12%', 'true', 'FALSE', "'007", 'plain text', '  ']]);
    expect(range.getValues()).toEqual([[12.5, 1234, 0.12, true, false, '007', 'plain text', '  ']]);
    expect(range.getDisplayValues()).toEqual([['12.5', '1,234', '12%', 'TRUE', 'FALSE', '007', 'plain text', '  ']]);
  });

  it('show a number under the automatic format as its shortest text, not its binary expansion', () => {
    const rt = runtime();
    const range = sheetOf(rt).getRange('A1:E1');
    range.setValues([[39919496.93, 0.1 + 0.2, 1234567.5, 0.000000123, -64203.32]]);
    expect(range.getDisplayValues()).toEqual([['39919496.93', '0.3', '1234567.5', '0.000000123', '-64203.32']]);
  });

  it('reads a typed percentage as the decimal it names, not a double divided by 100', () => {
    const rt = runtime();
    const range = sheetOf(rt).getRange('A1:C1');
    range.setValues([['12.3%', '7%', '14.5%']]);
    expect(range.getValues()).toEqual([[0.123, 0.07, 0.145]]);
    expect(range.getNumberFormats()).toEqual([['0.00%', '0%', '0.00%']]);
    expect(range.getDisplayValues()).toEqual([['12.30%', '7%', '14.50%']]);
  });

  it('turns text starting with = (or +/- that is not a number) into a formula', () => {
    const rt = runtime();
    const sheet = sheetOf(rt);
    sheet.getRange('A1').setValue('=SUM(B1:B2)');
    sheet.getRange('A2').setValue('+1 555 0100');
    sheet.getRange('A3').setValue('-5');
    expect(sheet.getRange('A1').getFormula()).toBe('=SUM(B1:B2)');
    expect(sheet.getRange('A1').getValue()).toBe('#NAME?');
    expect(sheet.getRange('A2').getFormula()).toBe('=+1 555 0100');
    expect(sheet.getRange('A3').getValue()).toBe(-5);
    expect(sheet.getRange('A3').getFormula()).toBe('');
  });

  it('gives formulas the value a formulaEvaluator computes', () => {
    const rt = createGasRuntime({ code: '', formulaEvaluator: (formula, at) => (formula === '=1+2' ? 3 : `${at.sheetName}!${at.a1}`) });
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('B2').setFormula('=1+2');
    sheet.getRange('C3').setValue('=X()');
    expect(sheet.getRange('B2:C3').getValues()).toEqual([
      [3, ''],
      ['', 'Sheet1!C3'],
    ]);
  });

  it('keep text as typed in a plain-text (@) cell', () => {
    const sheet = sheetOf(runtime());
    const range = sheet.getRange('A1:C1');
    range.setNumberFormat('@');
    range.setValues([['=1+2', '007', '2024-01-15']]);
    expect(range.getValues()).toEqual([['=1+2', '007', '2024-01-15']]);
    expect(range.getFormulas()).toEqual([['', '', '']]);
  });

  it('refuse a cell of more than 50,000 characters', () => {
    const sheet = sheetOf(runtime());
    expect(() => sheet.getRange('A1').setValue('x'.repeat(50_001))).toThrow('Your input contains more than the maximum of 50000 characters in a single cell.');
  });
});

describe('dates', () => {
  it('are read from ISO text at midnight in the spreadsheet’s time zone', () => {
    const sheet = sheetOf(runtime('America/New_York'));
    sheet.getRange('A1').setValue('2024-01-15');
    const value = sheet.getRange('A1').getValue();
    expect(value).toBeInstanceOf(Date);
    expect((value as Date).toISOString()).toBe('2024-01-15T05:00:00.000Z');
    expect(sheet.getRange('A1').getDisplayValue()).toBe('2024-01-15');
    expect(sheet.getRange('A1').getNumberFormat()).toBe('yyyy-mm-dd');
  });

  it('written as Date objects show M/d/yyyy, with the time when there is one', () => {
    const sheet = sheetOf(runtime('Asia/Tokyo'));
    sheet.getRange('A1:A2').setValues([[new Date('2024-07-03T15:00:00Z')], [new Date('2024-07-03T16:30:05Z')]]);
    expect(sheet.getRange('A1:A2').getDisplayValues()).toEqual([['7/4/2024'], ['7/4/2024 1:30:05']]);
    expect((sheet.getRange('A2').getValue() as Date).toISOString()).toBe('2024-07-03T16:30:05.000Z');
  });

  it('keep their wall-clock reading when the spreadsheet changes time zone', () => {
    const rt = runtime('America/New_York');
    const cell = sheetOf(rt).getRange('A1');
    cell.setValue('2024-01-15');
    rt.spreadsheet.setSpreadsheetTimeZone('Europe/Paris');
    expect((cell.getValue() as Date).toISOString()).toBe('2024-01-14T23:00:00.000Z');
    expect(cell.getDisplayValue()).toBe('2024-01-15');
  });

  it('are serial numbers under a number format', () => {
    const cell = sheetOf(runtime()).getRange('A1');
    cell.setValue('2024-01-15');
    cell.setNumberFormat('0');
    expect(cell.getValue()).toBe(45306);
  });

  it('arrive in a script as Dates of its own realm', () => {
    const rt = createGasRuntime({
      code: 'function read() { const v = SpreadsheetApp.getActiveSheet().getRange("A1").getValues()[0][0]; return [v instanceof Date, Array.isArray([]), v.getTime()]; }',
      timeZone: 'Australia/Sydney',
    });
    rt.spreadsheet.getActiveSheet().getRange('A1').setValue('1/31/2024');
    expect(rt.run('read')).toEqual([true, true, Date.parse('2024-01-30T13:00:00Z')]);
  });
});

describe('display values', () => {
  it('follow the number format', () => {
    const sheet = sheetOf(runtime());
    const formats = ['0', '0.00', '#,##0', '#,##0.00', '0%', '0.00%', '0.###############', '@', '"$"#,##0.00', '0.00;(0.00)'];
    const range = sheet.getRange(1, 1, 1, formats.length);
    range.setNumberFormats([formats]);
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: a number as a person types it, not π
    range.setValues([[1234.567, 1234.567, 1234567.8, 1234567.891, 0.256, 0.25678, 1 / 3, 42, 1234.5, -3.14159]]);
    expect(range.getDisplayValues()).toEqual([['1235', '1234.57', '1,234,568', '1,234,567.89', '26%', '25.68%', '0.3333333333', '42', '$1,234.50', '(3.14)']]);
  });

  it('show dates under date formats with Sheets’ codes', () => {
    const sheet = sheetOf(runtime());
    const range = sheet.getRange('A1:D1');
    range.setValues([['2024-03-05 14:07:09', '2024-03-05 14:07:09', '2024-03-05 14:07:09', '2024-03-05 14:07:09']]);
    range.setNumberFormats([['yyyy-MM-dd', 'dddd, mmmm d', 'h:mm am/pm', 'yyyy-mm-dd hh:mm:ss']]);
    expect(range.getDisplayValues()).toEqual([['2024-03-05', 'Tuesday, March 5', '2:07 PM', '2024-03-05 14:07:09']]);
  });
});

describe('ranges', () => {
  it('refuse data of the wrong shape with Apps Script’s errors', () => {
    const range = sheetOf(runtime()).getRange('A1:B2');
    expect(() => range.setValues([[1, 2]])).toThrow(
      'The number of rows in the data does not match the number of rows in the range. The data has 1 but the range has 2.',
    );
    expect(() => range.setValues([[1, 2], [3]])).toThrow(
      'The number of columns in the data does not match the number of columns in the range. The data has 1 but the range has 2.',
    );
    expect(() => range.setValues([1, 2] as unknown as unknown[][])).toThrow(
      "The parameters (number[]) don't match the method signature for SpreadsheetApp.Range.setValues.",
    );
  });

  it('refuse coordinates outside the sheet, which grows only by appending or inserting rows', () => {
    const sheet = sheetOf(runtime());
    expect(() => sheet.getRange(1001, 1)).toThrow('The coordinates of the range are outside the dimensions of the sheet.');
    expect(() => sheet.getRange(0, 1)).toThrow('The starting row of the range is too small.');
    expect(() => sheet.getRange('AA1')).toThrow('Range not found');
    sheet.getRange(1000, 1).setValue('last');
    sheet.appendRow(['appended', 2]);
    expect(sheet.getMaxRows()).toBe(1001);
    expect(sheet.getRange(1001, 1, 1, 2).getValues()).toEqual([['appended', 2]]);
    sheet.insertRowsAfter(1, 5);
    expect(sheet.getMaxRows()).toBe(1006);
    expect(sheet.getRange(1006, 1).getValue()).toBe('appended');
  });

  it('report A1 notation, size and the sheet’s content bounds', () => {
    const sheet = sheetOf(runtime());
    sheet.getRange('B2:C3').setValues([
      [1, 2],
      [3, 4],
    ]);
    expect(sheet.getLastRow()).toBe(3);
    expect(sheet.getLastColumn()).toBe(3);
    expect(sheet.getDataRange().getA1Notation()).toBe('A1:C3');
    expect(sheet.getRange('A:B').getA1Notation()).toBe('A:B');
    expect(sheet.getRange('B2').offset(1, 1, 2, 2).getA1Notation()).toBe('C3:D4');
    expect(sheet.getRange(2, 2, 2, 2).getValues()).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('hold notes, backgrounds and font weights; clear() keeps the notes', () => {
    const sheet = sheetOf(runtime());
    const range = sheet.getRange('A1:B1');
    range.setBackground('red').setNote('why').setFontWeight('bold');
    expect(range.getBackgrounds()).toEqual([['#ff0000', '#ff0000']]);
    expect(range.getNotes()).toEqual([['why', 'why']]);
    expect(range.getFontWeights()).toEqual([['bold', 'bold']]);
    range.clear();
    expect(range.getBackgrounds()).toEqual([['#ffffff', '#ffffff']]);
    expect(range.getNotes()).toEqual([['why', 'why']]);
  });

  it('keep sheets, frozen panes, hidden columns, widths and filters', () => {
    const rt = runtime();
    const data = rt.spreadsheet.insertSheet('Data');
    expect(rt.spreadsheet.getActiveSheet()).toBe(data);
    expect(() => rt.spreadsheet.insertSheet('data')).toThrow('A sheet with the name "data" already exists. Please enter another name.');
    data.setFrozenRows(1);
    data.hideColumns(2, 2);
    data.setColumnWidth(1, 240);
    data.getRange('A1:C5').createFilter();
    expect(() => data.getRange('A1:B2').createFilter()).toThrow("You can't create a filter in a sheet that already has a filter.");
    expect([
      data.getFrozenRows(),
      data.isColumnHiddenByUser(3),
      data.isColumnHiddenByUser(4),
      data.getColumnWidth(1),
      data.getFilter()?.getRange().getA1Notation(),
    ]).toEqual([1, true, false, 240, 'A1:C5']);
    expect(rt.spreadsheet.getRange("'Data'!B2").getSheet()).toBe(data);
  });

  it('hide a sheet while another stays visible, and refuse to hide or delete the last visible one', () => {
    const rt = runtime();
    const first = rt.spreadsheet.getSheets()[0]!;
    const store = rt.spreadsheet.insertSheet('Store');
    expect(() => first.hideSheet().hideSheet()).not.toThrow();
    expect([first.isSheetHidden(), store.isSheetHidden()]).toEqual([true, false]);
    expect(() => store.hideSheet()).toThrow('it is not possible to hide all sheets');
    expect(() => rt.spreadsheet.deleteSheet(store)).toThrow('it is not possible to delete all non-hidden sheets');
    expect(store.isSheetHidden()).toBe(false);
    first.showSheet();
    expect(store.hideSheet().isSheetHidden()).toBe(true);
    expect(rt.spreadsheet.getSheets()).toHaveLength(2);
  });
});

describe('a script’s view of the spreadsheet', () => {
  it('writes through the same objects the test sees, and validation rules survive', () => {
    const rt = createGasRuntime({
      code: `function build() {
        const sheet = SpreadsheetApp.getActiveSpreadsheet().insertSheet('Metrics');
        sheet.getRange('A1:B1').setValues([['Date', 'Value']]).setFontWeight('bold');
        const rule = SpreadsheetApp.newDataValidation().requireValueInList(['a', 'b'], true).setAllowInvalid(false).build();
        sheet.getRange('B2:B3').setDataValidation(rule);
        const read = sheet.getRange('B2').getDataValidation();
        return [String(read.getCriteriaType()), read.getCriteriaValues(), read.getAllowInvalid()];
      }`,
    });
    expect(rt.run('build')).toEqual(['VALUE_IN_LIST', [['a', 'b'], true], false]);
    const sheet = rt.spreadsheet.getSheetByName('Metrics');
    expect(sheet?.getRange('A1:B1').getValues()).toEqual([['Date', 'Value']]);
    expect(sheet?.getRange('B3').getDataValidation()?.getCriteriaValues()).toEqual([['a', 'b'], true]);
  });

  it('keeps conditional format rules with their ranges', () => {
    const rt = createGasRuntime({
      code: `function format() {
        const sheet = SpreadsheetApp.getActiveSheet();
        const rule = SpreadsheetApp.newConditionalFormatRule().whenNumberLessThan(0).setBackground('#F00').setRanges([sheet.getRange('B2:B10')]).build();
        sheet.setConditionalFormatRules(sheet.getConditionalFormatRules().concat([rule]));
        const read = sheet.getConditionalFormatRules()[0];
        return [read.getRanges()[0].getA1Notation(), String(read.getBooleanCondition().getCriteriaType()), read.getBooleanCondition().getBackground()];
      }`,
    });
    expect(rt.run('format')).toEqual(['B2:B10', 'NUMBER_LESS_THAN', '#ff0000']);
    expect(rt.spreadsheet.getActiveSheet().getConditionalFormatRules()).toHaveLength(1);
  });

  it('refuses to delete the last sheet or to take an unknown time zone', () => {
    const rt = createGasRuntime({ code: '' });
    expect(() => rt.spreadsheet.deleteSheet(rt.spreadsheet.getActiveSheet())).toThrow(
      'Sorry, it is not possible to delete all non-hidden sheets. At least one sheet must remain visible.',
    );
    expect(() => rt.spreadsheet.setSpreadsheetTimeZone('Atlantis/Capital')).toThrow('Invalid argument: timezone');
  });

  it('fails loudly on a method the runtime does not model', () => {
    const rt = createGasRuntime({
      code: 'function m() { try { SpreadsheetApp.getActiveSheet().getRange("A1:B2").merge(); } catch (e) { return "swallowed"; } }',
    });
    expect(() => rt.run('m')).toThrow(
      expect.objectContaining({ code: 'NOT_IMPLEMENTED', message: expect.stringContaining('Range.merge') as unknown as string }) as unknown as Error,
    );
  });

  it('rethrows the script’s own errors as ScriptError', () => {
    const rt = createGasRuntime({ code: 'function f() { SpreadsheetApp.getActiveSheet().getRange(0, 1); }' });
    let caught: unknown;
    try {
      rt.run('f');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScriptError);
    expect(caught).toMatchObject({ message: 'The starting row of the range is too small.', scriptErrorName: 'Exception', functionName: 'f' });
  });
});

describe('developer metadata on a sheet', () => {
  it('keeps key-value pairs in no cell, until removed; clear() leaves them; each sheet has its own', () => {
    const rt = runtime();
    const sheet = rt.spreadsheet.insertSheet('Audit');
    sheet.addDeveloperMetadata('portfolio-audit:v1', 'c0000000-0000-4000-8000-000000000001').addDeveloperMetadata('flag');
    const entries = sheet.getDeveloperMetadata();
    expect(entries.map((entry) => [entry.getKey(), entry.getValue()])).toEqual([
      ['portfolio-audit:v1', 'c0000000-0000-4000-8000-000000000001'],
      ['flag', null],
    ]);
    expect(new Set(entries.map((entry) => entry.getId())).size).toBe(2);
    expect(sheet.getDataRange().getValues()).toEqual([['']]);
    // "clear(): Clears the sheet of content and formatting information": metadata is neither (the stricter reading).
    sheet.clear();
    expect(sheet.getDeveloperMetadata()).toHaveLength(2);
    entries[1]!.remove();
    expect(sheet.getDeveloperMetadata().map((entry) => entry.getKey())).toEqual(['portfolio-audit:v1']);
    // Each sheet has its own.
    expect(rt.spreadsheet.getSheetByName('Sheet1')!.getDeveloperMetadata()).toEqual([]);
    expect(() => sheet.addDeveloperMetadata('')).toThrow('Invalid argument: key');
  });
});
