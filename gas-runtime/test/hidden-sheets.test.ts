// Hidden sheets and sheet protections: what a script may hide, and that protections do not block the script.

import { createGasRuntime, GasRuntimeUsageError } from '../index';
import { fixture } from './support/fixtures';

function runtime() {
  return createGasRuntime({ code: fixture('hidden-sheets') });
}

describe('hidden sheets', () => {
  it('hide a sheet once, show the first visible one instead, and keep it writable under a warning-only protection', () => {
    const rt = runtime();
    expect(rt.run('hideAndProtect', ['Store'])).toEqual({
      hidden: true,
      active: 'Sheet1',
      same: true,
      description: 'kept by the script',
      warningOnly: true,
      type: 'SHEET',
      ranges: 0,
      value: 'still writable',
    });
    expect(rt.spreadsheet.getSheetByName('Store')!.isSheetHidden()).toBe(true);
    expect(rt.run('showAgain', ['Store'])).toEqual({ hidden: false, protections: 0 });
  });

  it('refuse to hide the only visible sheet', () => {
    const rt = runtime();
    expect(rt.run('hideOnlyVisible')).toBe('Exception: Sorry, it is not possible to hide all sheets. At least one sheet must remain visible.');
    expect(rt.spreadsheet.getSheetByName('Sheet1')!.isSheetHidden()).toBe(false);
  });

  it('refuse to delete the last visible sheet while hidden ones remain', () => {
    const rt = runtime();
    expect(rt.run('deleteLastVisible')).toBe('Exception: Sorry, it is not possible to delete all non-hidden sheets. At least one sheet must remain visible.');
    expect(rt.spreadsheet.getSheets().map((sheet) => sheet.getName())).toEqual(['Sheet1', 'Kept']);
  });

  it('leave protection editors unmodelled, loudly', () => {
    const rt = runtime();
    rt.run('hideAndProtect', ['Store']);
    expect(() => rt.run('editorsOf', ['Store'])).toThrow(GasRuntimeUsageError);
  });
});
