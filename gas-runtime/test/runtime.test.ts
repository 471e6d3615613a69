import { createGasRuntime, GasRuntimeUsageError } from '../index';
import { fixture } from './support/fixtures';

describe('executions', () => {
  it('load the bundle into a fresh context each time, as Apps Script does', () => {
    const rt = createGasRuntime({ code: 'var counter = 0; function bump() { counter += 1; return counter; }' });
    expect(rt.run('bump')).toBe(1);
    expect(rt.run('bump')).toBe(1);
  });

  it('give the script only JavaScript’s built-ins and the Apps Script services', () => {
    const rt = createGasRuntime({
      code: 'function globals() { return [typeof setTimeout, typeof require, typeof process, typeof SpreadsheetApp, typeof UrlFetchApp, typeof Utilities]; }',
    });
    expect(rt.run('globals')).toEqual(['undefined', 'undefined', 'undefined', 'object', 'object', 'object']);
  });

  it('give the script a Date that reads the virtual clock', () => {
    const rt = createGasRuntime({
      code: 'function now() { return [Date.now(), new Date().getTime(), typeof Date(), new Date(0) instanceof Date]; }',
      startTime: new Date('2030-01-01T00:00:00Z'),
    });
    rt.clock.advance(60_000);
    const [now, constructed, called, isDate] = rt.run('now') as [number, number, string, boolean];
    expect(now).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:01:00Z'));
    expect(now).toBeLessThan(Date.parse('2030-01-01T00:01:01Z'));
    expect(constructed - now).toBeLessThan(1000);
    expect([called, isDate]).toEqual(['string', true]);
  });

  // The built-ins are bound lexically in each context for speed (realm.ts fastGlobalsFor); a script sees them as before.
  it("give the script the realm's own built-ins by name, the same values as its global object's", () => {
    const rt = createGasRuntime({
      code: 'function same() { return [Math === globalThis.Math, Object === globalThis.Object, JSON === globalThis.JSON, Date === globalThis.Date, Object.getOwnPropertyNames(globalThis).includes("Math"), [] instanceof Array]; }',
    });
    expect(rt.run('same')).toEqual([true, true, true, true, true, true]);
  });

  it("load a script that declares or assigns a built-in's name at its top level, which then reads its own", () => {
    const declares = createGasRuntime({
      code: 'function Map() { return "own Map"; } var JSON = { own: true }; function read() { return [Map(), JSON.own, globalThis.JSON === JSON]; }',
    });
    expect(declares.run('read')).toEqual(['own Map', true, true]);
    expect(declares.functionNames()).toContain('Map');
    const assigns = createGasRuntime({
      code: 'Math = { max: function () { return "own max"; } }; function read() { return [Math.max(1, 2), globalThis.Math === Math]; }',
    });
    expect(assigns.run('read')).toEqual(['own max', true]);
  });

  it("sign with HMAC-SHA256 into Java's signed bytes, text with text and bytes with bytes (RFC 4231, case 2)", () => {
    const rt = createGasRuntime({
      code:
        'function sign() { var s = Utilities.computeHmacSha256Signature("what do ya want for nothing?", "Jefe"); return [Utilities.base64Encode(s), Math.min.apply(null, s) < 0]; }' +
        ' function bytes() { return Utilities.base64Encode(Utilities.computeHmacSha256Signature(Utilities.newBlob("what do ya want for nothing?").getBytes(), Utilities.newBlob("Jefe").getBytes())); }' +
        ' function mixed() { Utilities.computeHmacSha256Signature("text", [1, 2]); }',
    });
    const expected = Buffer.from('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843', 'hex').toString('base64');
    expect(rt.run('sign')).toEqual([expected, true]);
    expect(rt.run('bytes')).toBe(expected);
    expect(() => rt.run('mixed')).toThrow(/computeHmacSha256Signature/);
  });

  it('run promise jobs before the execution ends', () => {
    const rt = createGasRuntime({
      code: 'function later() { Promise.resolve().then(function () { PropertiesService.getScriptProperties().setProperty("done", "yes"); }); }',
    });
    rt.run('later');
    expect(rt.properties.script().getProperty('done')).toBe('yes');
  });

  it('are logged with their kind, auth mode, user and outcome', () => {
    const rt = createGasRuntime({
      code: 'function ok() {} function bad() { throw new TypeError("nope"); } function CELL() { return 1; }',
      activeUser: 'ann@example.com',
    });
    rt.run('ok', [], { authMode: 'LIMITED' });
    expect(() => rt.run('bad')).toThrow(expect.objectContaining({ name: 'ScriptError', scriptErrorName: 'TypeError', message: 'nope' }) as unknown as Error);
    rt.runCustomFunction('CELL');
    expect(rt.executions.map(({ functionName, kind, authMode, user, outcome }) => ({ functionName, kind, authMode, user, outcome }))).toEqual([
      { functionName: 'ok', kind: 'run', authMode: 'LIMITED', user: 'ann@example.com', outcome: 'completed' },
      { functionName: 'bad', kind: 'run', authMode: 'FULL', user: 'ann@example.com', outcome: 'failed' },
      { functionName: 'CELL', kind: 'custom-function', authMode: 'CUSTOM_FUNCTION', user: 'ann@example.com', outcome: 'completed' },
    ]);
  });

  it('refuse a function that does not exist or is private, as a menu item would', () => {
    const rt = createGasRuntime({ code: 'function hidden_() {}' });
    expect(() => rt.run('missing')).toThrow('Script function not found: missing');
    expect(() => rt.run('hidden_')).toThrow('Script function not found: hidden_');
  });

  it('list the bundle’s top-level functions', () => {
    const rt = createGasRuntime({ code: 'function a() {} function b_() {} var c = 1; var d = function () {};' });
    expect(rt.functionNames().sort()).toEqual(['a', 'b_', 'd']);
    expect(rt.executions).toHaveLength(0);
  });

  it('report a gap in the runtime even when the script swallows it', () => {
    const rt = createGasRuntime({
      code: 'function probe() { return typeof DriveApp; } function gap() { try { Utilities.formatString("%s", 1); } catch (e) {} return "done"; } function drive() { try { DriveApp.getFiles(); } catch (e) {} }',
    });
    expect(rt.run('probe')).toBe('object');
    expect(() => rt.run('gap')).toThrow(
      expect.objectContaining({ code: 'NOT_IMPLEMENTED', message: expect.stringContaining('Utilities.formatString') as unknown as string }) as unknown as Error,
    );
    expect(() => rt.run('drive')).toThrow(
      expect.objectContaining({ code: 'NOT_IMPLEMENTED', message: expect.stringContaining('DriveApp.getFiles') as unknown as string }) as unknown as Error,
    );
  });

  it('take the script time zone from the appsscript.json beside the bundle', () => {
    expect(createGasRuntime({ code: fixture('services') }).run('session')).toMatchObject({ scriptTimeZone: 'Europe/Berlin' });
    expect(createGasRuntime({ code: fixture('services'), scriptTimeZone: 'Asia/Tokyo' }).run('session')).toMatchObject({ scriptTimeZone: 'Asia/Tokyo' });
  });

  it('refuse an unknown time zone option', () => {
    expect(() => createGasRuntime({ code: '', timeZone: 'Nowhere/Else' })).toThrow(GasRuntimeUsageError);
  });
});
