// Concurrent executions: recalculations and sidebar calls running at once in worker threads, sharing
// the host's spreadsheet, cache, properties and locks.

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGasRuntime, GasRuntimeUsageError, type GasRuntime } from '../index';
import { fixture, FIXTURES } from './support/fixtures';
import { startTestServer } from './support/test-server';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';

let rt: GasRuntime;
beforeEach(() => {
  rt = createGasRuntime({ code: fixture('concurrency'), owner: OWNER, activeUser: OWNER, startTime: new Date('2024-03-01T12:00:00Z') });
});
afterEach(() => rt.close());

/** Waits (real time, polling the host's state) until `condition` holds. */
async function until(condition: () => boolean, what: string, timeoutMs = 40_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const events = (): string[] => (rt.cache.script().get('events') ?? '').split('|').filter(Boolean);

/** The most executions running at one instant, from the start and finish times the runtime reports. */
function maxOverlap(spans: Array<{ startedAt: number; finishedAt: number }>): number {
  return Math.max(...spans.map((a) => spans.filter((b) => b.startedAt <= a.startedAt && a.startedAt < b.finishedAt).length));
}

describe('a recalculation', () => {
  it('runs at most maxConcurrent cells at once, queues the rest, and writes every cell into the grid', async () => {
    // 60 cells at once are past the per-second rate (invocation-rate.test.ts): off, to see the queue.
    await rt.close();
    rt = createGasRuntime({
      code: fixture('concurrency'),
      owner: OWNER,
      activeUser: OWNER,
      startTime: new Date('2024-03-01T12:00:00Z'),
      assumptions: { customFunctionsPerSecond: false },
    });
    const cells = Array.from({ length: 60 }, (_, i) => ({ formula: `=HELD_CELL("c${i}")`, cell: `B${i + 1}` }));
    const started = () =>
      rt.cache
        .script()
        ._keys()
        .filter((key) => key.startsWith('started-')).length;
    const recalculation = rt.recalculate(cells, { maxConcurrent: 30 });
    await until(() => started() === 30, '30 cells running');
    // Room for a 31st to start, were the limit not kept.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(started()).toBe(30);
    rt.cache.script().put('release', 'yes');
    const outcomes = await recalculation;

    expect(maxOverlap(outcomes)).toBe(30);
    const queued = outcomes.filter((o) => o.startedAt >= Math.min(...outcomes.map((x) => x.finishedAt)));
    expect(queued).toHaveLength(30);
    expect(outcomes.every((o) => o.queuedAt <= o.startedAt && o.startedAt <= o.finishedAt)).toBe(true);
    const sheet = rt.spreadsheet.getActiveSheet();
    expect(
      sheet
        .getRange('B1:B60')
        .getValues()
        .map(([v]) => v),
    ).toEqual(cells.map((_, i) => `c${i}@B${i + 1}`));
    expect(sheet.getRange('B7').getFormula()).toBe('=HELD_CELL("c6")');
    expect(rt.executions.map((e) => e.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(rt.executions.every((e) => e.kind === 'custom-function' && e.outcome === 'completed')).toBe(true);
  }, 120_000);

  it('holds every cell’s formula in the grid while the values load, as Sheets does', async () => {
    const cells = ['A1', 'A2', 'A3'].map((cell) => ({ formula: '=SIBLING_FORMULAS()', cell }));
    const done = await rt.recalculate(cells, { maxConcurrent: 1 });
    // The first cell runs alone (one at a time), yet it already sees the two cells still waiting.
    expect(done.map((cell) => (cell.ok ? cell.values : cell.error))).toEqual(Array(3).fill([['=SIBLING_FORMULAS() =SIBLING_FORMULAS() =SIBLING_FORMULAS()']]));
  });

  it('counts the start-up cost in each execution’s duration', async () => {
    const [cell] = await rt.recalculate([{ formula: '=ELAPSED()', cell: 'A1' }], { startupMs: 300 });
    expect(cell).toMatchObject({ ok: true, values: [['ok']] });
    expect(rt.executions[0]!.durationMs).toBeGreaterThanOrEqual(300);
    expect(cell!.finishedAt - cell!.startedAt).toBeGreaterThanOrEqual(300);
  });
});

describe('a worker thread’s copy of the bundle', () => {
  // The host hands its workers the bundle's code cache and its verdict on binding the built-ins (runtime.ts
  // compiledBundle, realm.ts fastGlobalsSource): a worker must run the script exactly as a synchronous execution does.
  it('runs what the host runs: the realm’s own built-ins by name, and a fresh global state each execution', async () => {
    const code =
      'var counter = 0; function SAME() { counter += 1; return [[Math === globalThis.Math, JSON === globalThis.JSON, [] instanceof Array, counter]]; }';
    const host = createGasRuntime({ code });
    const worker = createGasRuntime({ code, assumptions: { customFunctionsPerSecond: false } });
    try {
      expect(host.runCustomFunction('SAME')).toEqual([[true, true, true, 1]]);
      const done = await worker.recalculate(
        ['A1', 'A2'].map((cell) => ({ formula: '=SAME()', cell })),
        { maxConcurrent: 1 },
      );
      expect(done.map((cell) => (cell.ok ? cell.values : cell.error))).toEqual([[[true, true, true, 1]], [[true, true, true, 1]]]);
    } finally {
      await Promise.all([host.close(), worker.close()]);
    }
  });

  it('keeps a script’s own top-level Map and its assigned Math in a worker, as the host does', async () => {
    const code =
      'function Map() { return "own Map"; } Math = { max: function () { return "own max"; } }; function OWN() { return [[Map(), Math.max(1, 2), globalThis.Math === Math]]; }';
    const host = createGasRuntime({ code });
    const worker = createGasRuntime({ code });
    try {
      expect(host.runCustomFunction('OWN')).toEqual([['own Map', 'own max', true]]);
      const [cell] = await worker.recalculate([{ formula: '=OWN()', cell: 'A1' }]);
      expect(cell).toMatchObject({ ok: true, values: [['own Map', 'own max', true]] });
    } finally {
      await Promise.all([host.close(), worker.close()]);
    }
  });
});

describe('worker threads shared by the runtimes of one bundle', () => {
  // Every runtime of a bundle in a process runs on the same threads (pool.ts ThreadSet); each keeps its own clock,
  // settings and state there, and closing one leaves the others running.
  it('give each runtime its own clock and settings, and keep serving one after another closes', async () => {
    const code =
      'function YEAR() { return new Date().getUTCFullYear(); }' +
      ' function ZONED() { try { new Intl.DateTimeFormat("en-US", { timeZone: "Asia/Kolkata" }); return "known"; } catch (e) { return "unknown"; } }';
    const runtime = (year: number, intlKnowsZone: boolean) =>
      createGasRuntime({
        code,
        timeZone: 'Asia/Kolkata',
        startTime: new Date(`${year}-06-01T00:00:00Z`),
        assumptions: { customFunctionsPerSecond: false, intlKnowsZone },
      });
    const a = runtime(2024, true);
    const b = runtime(2031, false);
    try {
      // One after another, one at a time: the second runtime's cells run on the thread the first's just used.
      const first = [];
      for (const [i, rt] of [a, b, a].entries()) {
        first.push(
          await rt.recalculate(
            [
              { formula: '=YEAR()', cell: `A${i + 1}` },
              { formula: '=ZONED()', cell: `B${i + 1}` },
            ],
            { maxConcurrent: 1 },
          ),
        );
      }
      expect(first.map((cells) => cells.map((cell) => (cell.ok ? cell.values[0]![0] : cell.error.message)))).toEqual([
        [2024, 'known'],
        [2031, 'unknown'],
        [2024, 'known'],
      ]);
      await a.close();
      const [year] = await b.recalculate([{ formula: '=YEAR()', cell: 'C1' }]);
      expect(year).toMatchObject({ ok: true, values: [[2031]] });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // Every runtime of the bundle closed: the threads ended, and a new runtime starts new ones.
    const c = runtime(2040, true);
    try {
      expect(await c.recalculate([{ formula: '=YEAR()', cell: 'A1' }])).toEqual([expect.objectContaining({ ok: true, values: [[2040]] })]);
    } finally {
      await c.close();
    }
  });
});

describe('the user lock between concurrent executions', () => {
  it('makes the second wait until the first releases it', async () => {
    const first = rt.callServerAsync('lockedStep', ['A', 10_000]);
    await until(() => events().includes('A:in'), 'A holding the lock');
    const second = rt.callServerAsync('lockedStep', ['B', 10_000]);
    await until(() => events().includes('B:trying'), 'B trying');
    rt.cache.script().putAll({ 'go-A': 'yes', 'go-B': 'yes' });
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
    expect(events()).toEqual(['A:trying', 'A:in', 'B:trying', 'A:out', 'B:in', 'B:out']);
    const [a, b] = rt.executions.sort((x, y) => x.id - y.id);
    expect(a!.lockWaitMs).toBe(0);
    expect(b!.lockWaitMs).toBeGreaterThan(0);
  }, 60_000);

  it('times the second out with Apps Script’s error while the first holds it', async () => {
    const first = rt.callServerAsync('lockedStep', ['A', 10_000]);
    await until(() => events().includes('A:in'), 'A holding the lock');
    const second = await rt.callServerAsync('lockedStep', ['B', 300]);
    expect(second).toBe('Exception: Lock timeout: another process was holding the lock for too long.');
    rt.cache.script().put('go-A', 'yes');
    expect(await first).toBe('done');
    expect(events()).toEqual(['A:trying', 'A:in', 'B:trying', 'B:Lock timeout: another process was holding the lock for too long.', 'A:out']);
    expect(rt.executions.find((e) => e.id === 2)!.lockWaitMs).toBeGreaterThanOrEqual(300);
  }, 60_000);
});

describe('shared state', () => {
  it('lets one execution read what another, running at the same time, put in the user cache', async () => {
    const results = await Promise.all([rt.callServerAsync('handshake', ['ping', 'pong']), rt.runCustomFunctionAsync('HANDSHAKE', ['pong', 'ping'])]);
    expect(results).toEqual(['met', 'met']);
  }, 60_000);

  it('gives a custom function the owner’s cache, properties and lock, and a server call the active user’s', async () => {
    rt.cache.user(OWNER).put('who', 'owner-cache');
    rt.cache.user(EDITOR).put('who', 'editor-cache');
    rt.properties.user(OWNER).setProperty('who', 'owner-props');
    rt.properties.user(EDITOR).setProperty('who', 'editor-props');
    // The editor holds the editor's user lock while the others look.
    const holder = rt.callServerAsync('holdUserLock', [], { user: EDITOR });
    const [inCell, inSidebar] = await Promise.all([
      rt.runCustomFunctionAsync('WHOSE_STORES', [], { user: EDITOR }),
      rt.callServerAsync('whoseStores', [], { user: EDITOR }),
    ]);
    rt.cache.script().put('release', 'yes');
    expect(await holder).toBe('released');
    expect(rt.cache.script().get('holding')).toBe(EDITOR);
    expect(inCell).toBe('owner-cache owner-props true');
    expect(inSidebar).toBe('editor-cache editor-props false');
  }, 60_000);
});

describe('sidebar calls beside each other', () => {
  it('ends a step that loops until a cancel appears when a second call sets it', async () => {
    const step = rt.callServerAsync('workUntilCancelled');
    await until(() => rt.cache.user(OWNER).get('working') === 'yes', 'the step running');
    expect(await rt.callServerAsync('cancelWork')).toBe('sent');
    expect(await step).toBe('cancelled');
  }, 60_000);

  it('refuses a synchronous call while concurrent executions run', async () => {
    const step = rt.callServerAsync('workUntilCancelled');
    await until(() => rt.cache.user(OWNER).get('working') === 'yes', 'the step running');
    let refusal: unknown;
    try {
      rt.callServer('cancelWork');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GasRuntimeUsageError);
    expect((refusal as GasRuntimeUsageError).code).toBe('EXECUTIONS_RUNNING');
    expect(() => rt.run('cancelWork')).toThrow(GasRuntimeUsageError);
    rt.cache.user(OWNER).put('cancel', 'yes');
    expect(await step).toBe('cancelled');
    await rt.idle();
    expect(rt.callServer('cancelWork')).toBe('sent');
  }, 60_000);
});

describe('the runtime\u2019s limits in concurrent executions', () => {
  const OVER_QUOTA = 'Service invoked too many times for one day: urlfetch.';
  const others: GasRuntime[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(others.splice(0).map((other) => other.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('counts every execution\u2019s fetches against the user\u2019s one daily quota, refusing those past it', async () => {
    const server = await startTestServer();
    try {
      const limited = createGasRuntime({ code: fixture('fetch'), owner: OWNER, urlFetchDailyQuota: 5, startTime: new Date('2024-03-01T12:00:00Z') });
      others.push(limited);
      const url = `${server.url}/status/200`;
      // Eight executions at once, two fetches each: sixteen asked for, five allowed in all.
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => limited.callServerAsync('fetchEachTimed', [[url, url]])));
      const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(refusals.map((o) => (o.reason as Error).message)).toEqual(Array(refusals.length).fill(OVER_QUOTA));
      expect((await server.stats()).requests).toBe(5);
      expect(limited.urlFetchQuota.used(OWNER)).toBe(5);
      expect(limited.executions.reduce((sum, e) => sum + e.urlFetchCount, 0)).toBe(5);
      // At most two executions got both their fetches through; every other one was refused (at its first or second fetch).
      expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeLessThanOrEqual(2);
      expect(refusals.length).toBeGreaterThanOrEqual(6);
      // Once spent, a later concurrent custom function (counted against the owner) is refused too, and a synchronous one.
      await expect(limited.runCustomFunctionAsync('FETCH_TEXT', [url], { user: EDITOR })).rejects.toThrow(OVER_QUOTA);
      expect(() => limited.runCustomFunction('FETCH_TEXT', [url])).toThrow(OVER_QUOTA);
      expect((await server.stats()).requests).toBe(5);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('refuses a URL outside the manifest\u2019s allowlist in a concurrent execution as in a synchronous one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gas-concurrent-allowlist-'));
    dirs.push(dir);
    copyFileSync(path.join(FIXTURES, 'fetch.js'), path.join(dir, 'Code.js'));
    writeFileSync(path.join(dir, 'appsscript.json'), JSON.stringify({ timeZone: 'Etc/UTC', urlFetchWhitelist: ['https://api.example.com/v1/'] }));
    const listed = createGasRuntime({ code: { path: path.join(dir, 'Code.js') }, owner: OWNER, fetchTimeoutMs: 500 });
    others.push(listed);
    // Port 9 on loopback: were it sent, it would fail with a network error, not the refusal.
    const url = 'http://127.0.0.1:9/v1/data';
    const refusal = `Request to ${url} failed because the URL has not been whitelisted in the script manifest.`;
    const sequential = listed.run('fetchFailure', [url]);
    expect(sequential).toMatchObject({ name: 'Exception', message: refusal });
    const [fromSidebar, fromCell] = await Promise.allSettled([
      listed.callServerAsync('fetchFailure', [url]),
      listed.runCustomFunctionAsync('FETCH_TEXT', [url]),
    ]);
    expect(fromSidebar).toEqual({ status: 'fulfilled', value: sequential });
    expect(fromCell).toMatchObject({ status: 'rejected', reason: { message: refusal } });
    expect(listed.urlFetchQuota.used(OWNER)).toBe(0);
  }, 60_000);

  it('drops cache entries at each concurrent execution\u2019s start, as many as the same starts made one after another (seed 7, drop rate 0.5)', async () => {
    const seeded = () => {
      const other = createGasRuntime({ code: fixture('limits'), cacheEviction: { seed: 7, dropRate: 0.5 }, startTime: new Date('2024-03-01T12:00:00Z') });
      others.push(other);
      // One putAll draws once, on the empty cache; _keys() and stats() draw nothing.
      other.cache.script().putAll(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'])));
      return other;
    };
    const sequential = seeded();
    for (let i = 0; i < 3; i++) sequential.run('noop');
    const expected = sequential.cache.stats().script;
    expect(expected.dropped).toBeGreaterThan(0);
    expect(expected.items).toBeGreaterThan(0);

    const concurrent = seeded();
    // Executions that make no cache call: every loss happens at a start, whatever order the three start in.
    await Promise.all([0, 1, 2].map(() => concurrent.callServerAsync('noop')));
    expect(concurrent.cache.stats().script).toEqual(expected);
    expect(concurrent.cache.script()._keys()).toHaveLength(40 - expected.dropped);
  }, 60_000);
});
