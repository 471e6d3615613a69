// The switches for the platform behaviours the reference does not state (docs/platform.md): each default, and
// what a script sees with the switch flipped. Also ScriptApp.getAuthorizationInfo and recalculateWritten.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGasRuntime, GasRuntimeUsageError, type GasRuntime, type GasRuntimeOptions } from '../index';

const CODE = `
function WHERE() { var r = SpreadsheetApp.getActiveRange(); return r ? r.getSheet().getName() + '!' + r.getA1Notation() : ''; }
function PUT_AND_WAIT(key) { CacheService.getUserCache().put(key, 'v'); return 1; }
function GET(key) { return CacheService.getUserCache().get(key) || 'missing'; }
function ZONE_OK(zone) { try { new Intl.DateTimeFormat('en-US', { timeZone: zone }); return 'known'; } catch (e) { return e.name + ': ' + e.message; } }
function LOCALE(zone) { try { return new Date(0).toLocaleString('en-US', { timeZone: zone }); } catch (e) { return e.name; } }
function INSTANT(date) { return date instanceof Date ? date.toISOString() : 'not a date'; }
function RUN() { return Utilities.getUuid(); }
function rewrite(clearFirst) {
  var cell = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Sheet1').getRange('A1');
  var formula = cell.getFormula();
  if (clearFirst) { cell.clearContent(); SpreadsheetApp.flush(); }
  cell.setFormula(formula);
}
function scopes() {
  var info = ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
  return { status: String(info.getAuthorizationStatus()), url: info.getAuthorizationUrl(), scopes: info.getAuthorizedScopes() };
}
function seeActive() { PropertiesService.getScriptProperties().setProperty('seen', String(SpreadsheetApp.getActiveSpreadsheet() !== null) + ' ' + String(LockService.getDocumentLock() !== null)); }
function schedule() { ScriptApp.newTrigger('seeActive').timeBased().everyHours(1).create(); }
`;

const runtimes: GasRuntime[] = [];
function runtime(options: Partial<GasRuntimeOptions> = {}): GasRuntime {
  const rt = createGasRuntime({ code: CODE, timeZone: 'America/New_York', scriptTimeZone: 'Etc/UTC', startTime: new Date('2024-03-01T12:00:00Z'), ...options });
  runtimes.push(rt);
  return rt;
}
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.close()));
});

it('refuses an unknown switch', () => {
  expect(() => runtime({ assumptions: { activeRangeIsTheCell: false } as never })).toThrow(GasRuntimeUsageError);
});

describe('activeRangeIsCallingCell', () => {
  it('is the calling cell by default, and the selection as it stands when switched off', async () => {
    const on = runtime();
    on.spreadsheet.setActiveRange(on.spreadsheet.getSheetByName('Sheet1')!.getRange('D9'));
    expect(on.evaluateFormula('=WHERE()', { cell: 'B2' })).toEqual({ ok: true, values: [['Sheet1!B2']] });
    expect(await on.recalculate([{ formula: '=WHERE()', cell: 'C3' }])).toMatchObject([{ ok: true, values: [['Sheet1!C3']] }]);

    const off = runtime({ assumptions: { activeRangeIsCallingCell: false } });
    off.spreadsheet.setActiveRange(off.spreadsheet.getSheetByName('Sheet1')!.getRange('D9'));
    expect(off.evaluateFormula('=WHERE()', { cell: 'B2' })).toEqual({ ok: true, values: [['Sheet1!D9']] });
    expect(await off.recalculate([{ formula: '=WHERE()', cell: 'C3' }])).toMatchObject([{ ok: true, values: [['Sheet1!D9']] }]);
  });
});

describe('sharedCachesAcrossExecutions', () => {
  it("gives custom functions the owner's user cache by default, and one of their own when switched off", async () => {
    const on = runtime();
    await on.runCustomFunctionAsync('PUT_AND_WAIT', ['k']);
    expect(await on.runCustomFunctionAsync('GET', ['k'])).toBe('v');
    expect(on.runCustomFunction('GET', ['k'])).toBe('v');

    const off = runtime({ assumptions: { sharedCachesAcrossExecutions: false } });
    await off.runCustomFunctionAsync('PUT_AND_WAIT', ['k']);
    expect(await off.runCustomFunctionAsync('GET', ['k'])).toBe('missing');
    expect(off.runCustomFunction('GET', ['k'])).toBe('missing');
    // Other executions keep the user's own cache.
    off.cache.user('owner@example.com').put('k', 'mine');
    expect(off.callServer('GET', ['k'])).toBe('mine');
  });
});

describe('intlKnowsZone', () => {
  it("knows every zone by default; false refuses the spreadsheet's and the script's zones; a list refuses those", async () => {
    expect(runtime().runCustomFunction('ZONE_OK', ['America/New_York'])).toBe('known');
    const off = runtime({ assumptions: { intlKnowsZone: false } });
    expect(off.runCustomFunction('ZONE_OK', ['America/New_York'])).toBe('RangeError: Invalid time zone specified: America/New_York');
    expect(off.runCustomFunction('ZONE_OK', ['etc/utc'])).toBe('RangeError: Invalid time zone specified: etc/utc');
    expect(off.runCustomFunction('ZONE_OK', ['Europe/Paris'])).toBe('known');
    expect(off.runCustomFunction('LOCALE', ['America/New_York'])).toBe('RangeError');
    expect(await off.runCustomFunctionAsync('ZONE_OK', ['America/New_York'])).toMatch(/^RangeError/);
    const listed = runtime({ assumptions: { intlKnowsZone: ['Europe/Paris'] } });
    expect(listed.runCustomFunction('ZONE_OK', ['Europe/Paris'])).toMatch(/^RangeError/);
    expect(listed.runCustomFunction('ZONE_OK', ['America/New_York'])).toBe('known');
  });
});

describe('datesInScriptZone', () => {
  it("passes a date cell as midnight in the spreadsheet's zone by default, and in the script's when switched", () => {
    const on = runtime();
    on.spreadsheet.getSheetByName('Sheet1')!.getRange('A1').setValue('2024-01-15');
    expect(on.evaluateFormula('=INSTANT(A1)', { cell: 'B1' })).toEqual({ ok: true, values: [['2024-01-15T05:00:00.000Z']] });
    const off = runtime({ assumptions: { datesInScriptZone: true } });
    off.spreadsheet.getSheetByName('Sheet1')!.getRange('A1').setValue('2024-01-15');
    expect(off.evaluateFormula('=INSTANT(A1)', { cell: 'B1' })).toEqual({ ok: true, values: [['2024-01-15T00:00:00.000Z']] });
  });
});

describe('returnedDatesInScriptZone', () => {
  it("shows a returned Date on the spreadsheet's wall clock by default, and on the script's when switched", () => {
    for (const [assumptions, shown] of [
      [{}, '1/15/2024'],
      [{ returnedDatesInScriptZone: true }, '1/15/2024 5:00:00'],
    ] as const) {
      const rt = runtime({ assumptions, code: `${CODE}\nfunction MIDNIGHT_NY() { return new Date('2024-01-15T05:00:00Z'); }` });
      rt.evaluateFormula('=MIDNIGHT_NY()', { cell: 'A1' });
      expect(rt.spreadsheet.getSheetByName('Sheet1')!.getRange('A1').getDisplayValue()).toBe(shown);
    }
  });
});

describe('identicalFormulaRecalculates and recalculateWritten', () => {
  async function runs(rt: GasRuntime, clearFirst: boolean): Promise<{ before: unknown; after: unknown; rerun: string[] }> {
    const cell = rt.spreadsheet.getSheetByName('Sheet1')!.getRange('A1');
    await rt.recalculate([{ formula: '=RUN()', cell: 'A1' }]);
    const before = cell.getValue();
    rt.run('rewrite', [clearFirst]);
    const rerun = (await rt.recalculateWritten()).map((outcome) => outcome.cell);
    return { before, after: cell.getValue(), rerun };
  }

  it('reruns a rewritten formula by default', async () => {
    const { before, after, rerun } = await runs(runtime(), false);
    expect(rerun).toEqual(['A1']);
    expect(after).not.toBe(before);
  });

  it('keeps the result of identical text when switched off, unless a flush found the cell empty', async () => {
    const kept = await runs(runtime({ assumptions: { identicalFormulaRecalculates: false } }), false);
    expect(kept.rerun).toEqual(['A1']);
    expect(kept.after).toBe(kept.before);
    const cleared = await runs(runtime({ assumptions: { identicalFormulaRecalculates: false } }), true);
    expect(cleared.after).not.toBe(cleared.before);
  });

  it('leaves formulas of no custom function to the evaluator', async () => {
    const rt = runtime();
    rt.spreadsheet.getSheetByName('Sheet1')!.getRange('A1').setFormula('=SUM(1,2)');
    expect(await rt.recalculateWritten()).toEqual([]);
  });
});

describe('activeSpreadsheetInTimeTrigger', () => {
  it("gives an add-on's time-driven trigger no active spreadsheet by default, and the spreadsheet when switched", () => {
    for (const [assumptions, seen] of [
      [{}, 'false false'],
      [{ activeSpreadsheetInTimeTrigger: true }, 'true true'],
    ] as const) {
      const rt = runtime({ assumptions });
      rt.run('schedule');
      rt.triggers.advance(3_600_000);
      expect(rt.properties.script().getProperty('seen')).toBe(seen);
    }
  });
});

describe('ScriptApp.getAuthorizationInfo', () => {
  const SCOPES = ['https://www.googleapis.com/auth/spreadsheets.currentonly', 'https://www.googleapis.com/auth/script.scriptapp'];

  it("needs nothing when the granted scopes are the manifest's", () => {
    expect(runtime({ oauthScopes: SCOPES }).run('scopes')).toEqual({ status: 'NOT_REQUIRED', url: null, scopes: SCOPES });
  });

  it('needs authorization when the manifest beside the bundle asks for a scope not granted', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'gas-runtime-scopes-'));
    try {
      writeFileSync(path.join(folder, 'Code.js'), CODE);
      writeFileSync(path.join(folder, 'appsscript.json'), JSON.stringify({ timeZone: 'Etc/UTC', oauthScopes: SCOPES }));
      const rt = runtime({ code: { path: path.join(folder, 'Code.js') }, oauthScopes: SCOPES.slice(1) });
      expect(rt.run('scopes')).toEqual({ status: 'REQUIRED', url: expect.stringMatching(/^https:\/\/script\.google\.com\//), scopes: SCOPES.slice(1) });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('writtenDatesGetDateFormat', () => {
  it('gives a Date a script writes into an automatic cell the default date format, and none when switched off', () => {
    for (const [assumptions, format, shown] of [
      [{}, 'M/d/yyyy', '1/15/2024'],
      [{ writtenDatesGetDateFormat: false }, '0.###############', '45306'],
    ] as const) {
      const rt = runtime({ assumptions });
      const cell = rt.spreadsheet.getSheetByName('Sheet1')!.getRange('A1');
      cell.setValue(new Date('2024-01-15T05:00:00Z'));
      expect([cell.getNumberFormat(), cell.getDisplayValue()]).toEqual([format, shown]);
      // A cell the person formatted keeps that format either way.
      const formatted = rt.spreadsheet.getSheetByName('Sheet1')!.getRange('B1').setNumberFormat('dd.mm.yyyy');
      formatted.setValue(new Date('2024-01-15T05:00:00Z'));
      expect(formatted.getDisplayValue()).toBe('15.01.2024');
    }
  });
});

describe('declinedScopeRefusalNamesScope', () => {
  it('names the declined scope in the refusal, and gives the words that name none when switched off', () => {
    const EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
    const code = 'function who() { try { return Session.getActiveUser().getEmail(); } catch (e) { return e.message; } }';
    for (const [assumptions, words] of [
      [{}, `You do not have permission to call Session.getActiveUser. Required permissions: ${EMAIL}`],
      [{ declinedScopeRefusalNamesScope: false }, 'Authorization is required to perform that action.'],
    ] as const) {
      const rt = runtime({ code, oauthScopes: [EMAIL], assumptions });
      rt.authorize('owner@example.com', { decline: [EMAIL] });
      expect(rt.run('who')).toBe(words);
    }
  });
});
