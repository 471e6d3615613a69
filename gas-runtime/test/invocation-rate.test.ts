// "Script invoked too many times per second for this Google user account." (quotas page): custom functions a
// recalculation invokes past the limit per user per second are refused before they start; one formula filling a
// range is one invocation however many cells it fills.

import { createGasRuntime, GasRuntimeUsageError, type GasRuntime, type GasRuntimeOptions } from '../index';
import { DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND, INVOCATION_RATE_REFUSAL, InvocationRate } from '../invocation-rate';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const CODE = `
function CELL(value) { return value; }
function BLOCK(rows) { return rows.map(function (row) { return row.map(function (value) { return value; }); }); }
`;

const runtimes: GasRuntime[] = [];
function runtime(options: Partial<GasRuntimeOptions> = {}): GasRuntime {
  const rt = createGasRuntime({ code: CODE, owner: OWNER, startTime: new Date('2024-03-01T12:00:00Z'), ...options });
  runtimes.push(rt);
  return rt;
}
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.close()));
});

/** A model of `rows` × 8 values in A1:H…, and one =CELL(A1) per value beside it (J1:Q…). */
function perCellModel(rt: GasRuntime, rows: number): Array<{ formula: string; cell: string }> {
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange(1, 1, rows, 8).setValues(Array.from({ length: rows }, (_, r) => Array.from({ length: 8 }, (__, c) => r * 8 + c)));
  return Array.from({ length: rows * 8 }, (_, i) => {
    const row = Math.floor(i / 8) + 1;
    const column = i % 8;
    return { formula: `=CELL(${String.fromCharCode(65 + column)}${row})`, cell: `${String.fromCharCode(74 + column)}${row}` };
  });
}

describe('custom functions invoked too many times per second', () => {
  it(`refuses a per-cell model of 2,000 cells past ${DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND} in its second with the quotas page's words; one formula filling the 2,000 cells runs`, async () => {
    const rt = runtime();
    const cells = perCellModel(rt, 250);
    expect(cells).toHaveLength(2000);
    const outcomes = await rt.recalculate(cells);
    const refused = outcomes.filter((o) => !o.ok);
    // The first 30 the recalculation asks for run; every other is refused before it starts.
    expect(outcomes.slice(0, DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND).every((o) => o.ok)).toBe(true);
    expect(refused).toHaveLength(2000 - DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND);
    expect(refused.every((o) => !o.ok && o.error.code === '#ERROR!' && o.error.message === INVOCATION_RATE_REFUSAL)).toBe(true);
    expect(rt.spreadsheet.getActiveSheet().getRange('Q250').getValue()).toBe('#ERROR!');
    const failed = rt.executions.filter((e) => e.outcome === 'failed');
    expect(failed).toHaveLength(2000 - DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND);
    expect(failed.every((e) => e.kind === 'custom-function' && e.error === INVOCATION_RATE_REFUSAL && e.durationMs === 0 && e.urlFetchCount === 0)).toBe(true);
    expect(rt.invocationRate.counted(OWNER)).toEqual({ invoked: 2000, refused: 2000 - DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND });

    // A second later, the same values as one formula: one invocation fills every cell.
    rt.clock.advance(1000);
    const [block] = await rt.recalculate([{ formula: '=BLOCK(A1:H250)', cell: 'S1' }]);
    expect(block!.ok).toBe(true);
    expect(rt.spreadsheet.getActiveSheet().getRange('S1:Z250').getValues()).toEqual(rt.spreadsheet.getActiveSheet().getRange('A1:H250').getValues());
    expect(rt.invocationRate.counted(OWNER)).toEqual({ invoked: 2001, refused: 2000 - DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND });
  }, 120_000);

  it("counts per user as the daily quotas are: an editor's cells count on the owner, whose functions they run", async () => {
    const rt = runtime({ assumptions: { customFunctionsPerSecond: 5 } });
    const cells = perCellModel(rt, 1).slice(0, 6);
    const outcomes = await rt.recalculate(cells.map((cell, i) => ({ ...cell, user: i % 2 === 0 ? EDITOR : OWNER })));
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, true, true, false]);
    expect(rt.invocationRate.counted(OWNER)).toEqual({ invoked: 6, refused: 1 });
    expect(rt.invocationRate.counted(EDITOR)).toEqual({ invoked: 0, refused: 0 });
  }, 60_000);

  it('refuses nothing with the switch off, and never counts the synchronous entry points (one cell at a time)', async () => {
    const off = runtime({ assumptions: { customFunctionsPerSecond: false } });
    const cells = perCellModel(off, 10);
    expect((await off.recalculate(cells)).every((o) => o.ok)).toBe(true);
    expect(off.invocationRate).toMatchObject({ limit: null });
    const on = runtime({ assumptions: { customFunctionsPerSecond: 2 } });
    for (let i = 0; i < 5; i++) expect(on.runCustomFunction('CELL', [i])).toBe(i);
    expect(on.invocationRate.counted(OWNER)).toEqual({ invoked: 0, refused: 0 });
    expect(() => runtime({ assumptions: { customFunctionsPerSecond: 0 } })).toThrow(GasRuntimeUsageError);
  }, 60_000);
});

describe('the second it counts in', () => {
  it("is any 1,000 ms of the runtime's clock, refused invocations included", () => {
    let now = 0;
    const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
    const rate = new InvocationRate(3, clock);
    const asked = (n: number) => Array.from({ length: n }, () => rate.invoke(OWNER) === null);
    expect(asked(4)).toEqual([true, true, true, false]);
    clock.advance(999);
    // All four (the refused one too) are still in the second ending now.
    expect(asked(1)).toEqual([false]);
    clock.advance(1);
    // The first four are a second old: only the one at 999 ms is in the window.
    expect(asked(3)).toEqual([true, true, false]);
    expect(rate.invoke(EDITOR)).toBeNull();
    expect(rate.counted(OWNER)).toEqual({ invoked: 8, refused: 3 });
    expect(new InvocationRate(false, clock).limit).toBeNull();
  });
});
