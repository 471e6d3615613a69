import { createGasRuntime, CustomFunctionError } from '../index';
import { fixture } from './support/fixtures';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';

function runtime() {
  return createGasRuntime({ code: fixture('services'), owner: OWNER, activeUser: OWNER, startTime: new Date('2024-03-01T12:00:00Z') });
}

describe('another spreadsheet of the same script', () => {
  it('shares the user and script properties and caches, and keeps its own document ones', () => {
    const code =
      'function put(v) { PropertiesService.getUserProperties().setProperty("u", v); PropertiesService.getScriptProperties().setProperty("s", v);' +
      ' PropertiesService.getDocumentProperties().setProperty("d", v); CacheService.getUserCache().put("u", v); CacheService.getDocumentCache().put("d", v); }' +
      ' function get() { return [PropertiesService.getUserProperties().getProperty("u"), PropertiesService.getScriptProperties().getProperty("s"),' +
      ' PropertiesService.getDocumentProperties().getProperty("d"), CacheService.getUserCache().get("u"), CacheService.getDocumentCache().get("d")]; }';
    const first = createGasRuntime({ code, owner: OWNER, spreadsheetId: 'first' });
    const second = createGasRuntime({ code, owner: OWNER, spreadsheetId: 'second', sameScriptAs: first });
    first.run('put', ['one'], { user: OWNER });
    expect(second.run('get', [], { user: OWNER })).toEqual(['one', 'one', null, 'one', null]);
    // Another user's stores are theirs in both documents.
    expect(second.run('get', [], { user: EDITOR })).toEqual([null, 'one', null, null, null]);
  });
});

describe('PropertiesService', () => {
  it('keeps user properties per user', () => {
    const rt = runtime();
    rt.run('writeUserProperty', ['token', 'owner-token'], { user: OWNER });
    rt.run('writeUserProperty', ['token', 'editor-token'], { user: EDITOR });
    expect(rt.properties.user(OWNER).getProperty('token')).toBe('owner-token');
    expect(rt.run('readUserProperty', ['token'], { user: EDITOR })).toBe('editor-token');
  });

  it('stores strings only, and supports the whole Properties API', () => {
    expect(runtime().run('propertyRoundTrip')).toEqual({ all: { n: '42', b: 'true', x: '1', y: 'null' }, keys: ['b', 'n', 'y'], n: 'string', missing: null });
  });

  it('refuses a value over 9 kB with Apps Script’s error', () => {
    const rt = runtime();
    expect(rt.run('setLargeProperty', [9 * 1024])).toBe('stored');
    expect(rt.run('setLargeProperty', [9 * 1024 + 1])).toBe('Exception: Argument too large: value');
  });

  it('counts the 9 kB of a value in UTF-8 bytes, not characters', () => {
    // 4,700 "é" are 4,700 characters but 9,400 bytes: the stricter reading of "9kB / val".
    expect(runtime().run('fillDocumentProperties', [1, 4700, 'é'])).toEqual({ stored: 0, error: 'Exception: Argument too large: value' });
    expect(runtime().run('fillDocumentProperties', [1, 4600, 'é'])).toEqual({ stored: 1, error: null });
  });

  it('refuses a write that takes a store past 500 kB with Apps Script’s quota error', () => {
    // 9,000-byte values: 56 fit in 500 kB (512,000 bytes with keys), the 57th does not.
    expect(runtime().run('fillDocumentProperties', [80, 9000, 'a'])).toEqual({
      stored: 56,
      error: 'Exception: You have exceeded the property storage quota. Please remove some properties and try again.',
    });
  });

  it('gives a custom function the spreadsheet owner’s user properties, whoever recalculates', () => {
    const rt = runtime();
    rt.properties.user(OWNER).setProperty('token', 'owner-token');
    rt.properties.user(EDITOR).setProperty('token', 'editor-token');
    expect(rt.runCustomFunction('READ_TOKEN', [], { user: EDITOR })).toBe('owner-token');
    expect(rt.runCustomFunction('READ_TOKEN', [], { user: OWNER })).toBe('owner-token');
  });

  it('lets only the owner set user properties from a custom function', () => {
    const rt = runtime();
    expect(() => rt.runCustomFunction('WRITE_TOKEN', ['x'], { user: EDITOR })).toThrow(
      new CustomFunctionError('You do not have permission to call setProperty'),
    );
    expect(rt.runCustomFunction('WRITE_TOKEN', ['y'], { user: OWNER })).toBe('written');
    expect(rt.properties.user(OWNER).getProperty('token')).toBe('y');
    expect(rt.properties.user(EDITOR).getProperty('token')).toBeNull();
  });

  it('counts the calls of each method per store, refused writes and a custom function’s owner store included', () => {
    const rt = runtime();
    rt.run('propertyRoundTrip');
    expect(rt.properties.calls().script).toEqual({
      getProperty: 2,
      getProperties: 1,
      getKeys: 1,
      setProperty: 2,
      setProperties: 1,
      deleteProperty: 1,
      deleteAllProperties: 0,
    });
    expect(() => rt.runCustomFunction('WRITE_TOKEN', ['x'], { user: EDITOR })).toThrow(CustomFunctionError);
    rt.runCustomFunction('READ_TOKEN', [], { user: EDITOR });
    // The editor's formulas read and write the owner's store: the calls are the owner's store's.
    expect(rt.properties.calls().user[OWNER]).toMatchObject({ getProperty: 1, setProperty: 1 });
    expect(rt.properties.calls().user[EDITOR]).toBeUndefined();
    expect(rt.properties.calls().document.getProperty).toBe(0);
  });
});

describe('CacheService', () => {
  it('is shared across executions and expires on the virtual clock', () => {
    const rt = runtime();
    rt.run('cachePut', ['k', 'v', 10]);
    expect(rt.run('cacheGet', ['k'])).toBe('v');
    rt.clock.advance(9_000);
    expect(rt.run('cacheGet', ['k'])).toBe('v');
    rt.clock.advance(1_100);
    expect(rt.run('cacheGet', ['k'])).toBeNull();
  });

  it('keeps an entry 600 s by default and at most 6 hours', () => {
    const rt = runtime();
    rt.run('cachePut', ['default', 'v']);
    rt.run('cachePut', ['long', 'v', 100_000]);
    rt.clock.advance(599_000);
    expect(rt.cache.script().get('default')).toBe('v');
    rt.clock.advance(2_000);
    expect(rt.cache.script().get('default')).toBeNull();
    rt.clock.advance(21_600_000 - 601_000 - 1_000);
    expect(rt.cache.script().get('long')).toBe('v');
    rt.clock.advance(2_000);
    expect(rt.cache.script().get('long')).toBeNull();
  });

  it('refuses keys over 250 characters and values over 100 KB', () => {
    const rt = runtime();
    expect(rt.run('cacheLimits', [250, 100 * 1024])).toBe('stored');
    expect(rt.run('cacheLimits', [251, 1])).toBe('Exception: Argument too large: key');
    expect(rt.run('cacheLimits', [1, 100 * 1024 + 1])).toBe('Exception: Argument too large: value');
  });

  it('supports putAll, getAll and remove', () => {
    expect(runtime().run('cacheAll')).toEqual({ a: '1' });
  });

  it('gives a custom function the owner’s user cache, and can be cleared by a test', () => {
    const rt = runtime();
    rt.cache.user(OWNER).put('k', 'owner');
    expect(rt.runCustomFunction('USER_CACHE_GET', ['k'], { user: EDITOR })).toBe('owner');
    rt.cache.clear();
    expect(rt.runCustomFunction('USER_CACHE_GET', ['k'])).toBe('');
  });

  it('counts the calls of each method per cache', () => {
    const rt = runtime();
    rt.run('cacheAll');
    rt.runCustomFunction('USER_CACHE_GET', ['a'], { user: EDITOR });
    expect(rt.cache.calls().user[OWNER]).toEqual({ get: 1, getAll: 1, put: 0, putAll: 1, remove: 1, removeAll: 0 });
    expect(rt.cache.calls().script).toEqual({ get: 0, getAll: 0, put: 0, putAll: 0, remove: 0, removeAll: 0 });
  });
});

describe('LockService', () => {
  it('grants a free lock at once and releases it when the execution ends', () => {
    const rt = runtime();
    const result = rt.run('lockFlow', [1000]) as { got: boolean; has: boolean; waited: number };
    expect(result).toMatchObject({ got: true, has: true });
    // Only real time passed (the clock runs during executions), no waiting.
    expect(result.waited).toBeLessThan(1000);
    expect(rt.locks.isHeld('script')).toBe(false);
  });

  it('waits on the virtual clock for a lock another execution holds', () => {
    const rt = runtime();
    const heldAt = rt.clock.now();
    rt.locks.hold('script', { forMs: 3000 });
    const result = rt.run('lockFlow', [5000]) as { got: boolean; waited: number };
    expect(result.got).toBe(true);
    // It waited for what was left of the 3 s (real time also runs on the clock during an execution).
    expect(rt.clock.now() - heldAt).toBeGreaterThanOrEqual(3000);
    expect(result.waited).toBeLessThan(3500);
    rt.locks.hold('script', { forMs: 10_000 });
    expect(rt.run('lockFlow', [2000])).toMatchObject({ got: false, has: false });
  });

  it('keeps one script lock for every user, and a user lock per user', () => {
    // "A code section guarded by a script lock cannot be executed simultaneously regardless of the identity of the user" (LockService reference).
    const rt = runtime();
    rt.locks.hold('script', { forMs: 60_000, user: 'someone-else@example.com' });
    expect(rt.run('lockOf', ['script', 1000], { user: 'a@example.com' })).toBe(false);
    expect(rt.run('lockOf', ['script', 1000], { user: 'b@example.com' })).toBe(false);
    // "A code section guarded by a user lock can be executed simultaneously by different users, but by no more than one execution for any given user."
    rt.locks.hold('user', { forMs: 60_000, user: 'a@example.com' });
    expect(rt.run('lockOf', ['user', 1000], { user: 'a@example.com' })).toBe(false);
    expect(rt.run('lockOf', ['user', 1000], { user: 'b@example.com' })).toBe(true);
  });

  it('does not hand a lock an execution holds to its second Lock object (re-entry is unstated: the stricter reading)', () => {
    const rt = runtime();
    const result = rt.run('nestedUserLock', [2000]) as { inner: boolean; waited: number; again: boolean; outerHolds: boolean };
    expect(result).toMatchObject({ inner: false, again: true, outerHolds: true });
    expect(result.waited).toBeGreaterThanOrEqual(2000);
    // Held until the execution ended, and released with it.
    expect(rt.locks.isHeld('user', 'owner@example.com')).toBe(false);
  });

  it('throws Apps Script’s lock timeout from waitLock', () => {
    const rt = runtime();
    rt.locks.hold('document', { forMs: 60_000 });
    expect(rt.run('waitLockFlow', [1000])).toBe('Lock timeout: another process was holding the lock for too long.');
  });
});

describe('Utilities.sleep and the execution limits', () => {
  it('sleeps on the virtual clock, calling onSleep, without waiting', () => {
    const slept: number[] = [];
    const rt = createGasRuntime({ code: fixture('services'), onSleep: (ms) => slept.push(ms) });
    const started = Date.now();
    const before = rt.clock.now();
    expect(rt.run('sleepFor', [120_000])).toBeGreaterThanOrEqual(120_000);
    // Far under the 120 s slept: proves the sleep was virtual without timing a busy machine closely.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(rt.clock.now() - before).toBeGreaterThanOrEqual(120_000);
    expect(slept).toEqual([120_000]);
  });

  it('refuses a sleep over five minutes', () => {
    expect(() => runtime().run('sleepFor', [300_001])).toThrow(/Invalid argument: milliseconds/);
  });

  it('stops a custom function after 30 seconds', () => {
    const rt = runtime();
    expect(rt.runCustomFunction('SLOW_CELL', [2, 14_000])).toBe('finished');
    expect(() => rt.runCustomFunction('SLOW_CELL', [3, 14_000])).toThrow(new CustomFunctionError('Exceeded maximum execution time'));
    expect(rt.executions[1]).toMatchObject({ outcome: 'timed-out', error: 'Exceeded maximum execution time' });
  });

  it('stops any other execution after 6 minutes, even when the script catches the error', () => {
    const rt = runtime();
    expect(rt.run('sleepInSteps', [3, 110_000])).toBe('finished');
    expect(() => rt.run('sleepInSteps', [4, 100_000])).toThrow(
      expect.objectContaining({ name: 'ScriptError', message: 'Exceeded maximum execution time' }) as unknown as Error,
    );
    expect(() => rt.run('catchTimeLimit', [200_000])).toThrow('Exceeded maximum execution time');
  });
});
