// A spreadsheet in a Shared Drive (createGasRuntime's `sharedDrive`): getOwner() is null, and a custom function reads
// the user properties, cache and lock of no one, the creator or the caller, per the reading (docs/platform.md, §12).

import { createGasRuntime, CustomFunctionError, GasRuntimeUsageError, NO_ONES_STORE, type GasRuntime, type GasRuntimeOptions } from '../index';

const CREATOR = 'creator@example.com';
const EDITOR = 'editor@example.org';

const CODE = `
function OWNER() { var owner = SpreadsheetApp.getActiveSpreadsheet().getOwner(); return owner === null ? 'null' : owner.getEmail(); }
function WHOSE() { return PropertiesService.getUserProperties().getProperty('who') || 'nothing'; }
function WRITE() { PropertiesService.getUserProperties().setProperty('written', 'yes'); return 'written'; }
function CACHED() { return CacheService.getUserCache().get('who') || 'nothing'; }
function owner() { var owner = SpreadsheetApp.getActiveSpreadsheet().getOwner(); return owner === null ? null : owner.getEmail(); }
function whose() { return PropertiesService.getUserProperties().getProperty('who'); }
`;

const runtimes: GasRuntime[] = [];
function runtime(options: Partial<GasRuntimeOptions> = {}): GasRuntime {
  const rt = createGasRuntime({ code: CODE, owner: CREATOR, ...options });
  for (const user of [CREATOR, EDITOR]) {
    rt.properties.user(user).setProperty('who', user);
    rt.cache.user(user).put('who', user);
  }
  runtimes.push(rt);
  return rt;
}
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((rt) => rt.close()));
});

function cellError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof CustomFunctionError) return error.message;
    throw error;
  }
  throw new Error('the formula did not fail');
}

it('has an owner by default, whose store every custom function reads', () => {
  const rt = runtime();
  expect(rt.run('owner')).toBe(CREATOR);
  expect(rt.runCustomFunction('OWNER', [], { user: EDITOR })).toBe(CREATOR);
  expect(rt.runCustomFunction('WHOSE', [], { user: EDITOR })).toBe(CREATOR);
});

describe('a spreadsheet in a Shared Drive', () => {
  it('has no owner, in the sidebar and in a custom function, whatever the reading', () => {
    for (const reading of ['none', 'creator', 'caller'] as const) {
      const rt = runtime({ sharedDrive: { customFunctionProperties: reading } });
      expect(rt.run('owner', [], { user: EDITOR })).toBeNull();
      expect(rt.runCustomFunction('OWNER', [], { user: EDITOR })).toBe('null');
      // Outside a custom function every person has their own store, as anywhere.
      expect(rt.callServer('whose', [], { user: EDITOR })).toBe(EDITOR);
    }
  });

  it("reads no one's properties by default (the stricter reading): an empty store whose writes are refused", () => {
    const rt = runtime({ sharedDrive: {} });
    for (const user of [CREATOR, EDITOR]) {
      expect(rt.runCustomFunction('WHOSE', [], { user })).toBe('nothing');
      expect(rt.runCustomFunction('CACHED', [], { user })).toBe('nothing');
      expect(cellError(() => rt.runCustomFunction('WRITE', [], { user }))).toBe('You do not have permission to call setProperty');
    }
    expect(rt.properties.user(NO_ONES_STORE).getProperties()).toEqual({});
    expect(rt.properties.calls().user[NO_ONES_STORE]).toMatchObject({ getProperty: 2, setProperty: 2 });
  });

  it("reads the creator's properties and cache under 'creator', writable only when the creator recalculates", () => {
    const rt = runtime({ sharedDrive: { customFunctionProperties: 'creator' } });
    expect(rt.runCustomFunction('WHOSE', [], { user: EDITOR })).toBe(CREATOR);
    expect(rt.runCustomFunction('CACHED', [], { user: EDITOR })).toBe(CREATOR);
    expect(cellError(() => rt.runCustomFunction('WRITE', [], { user: EDITOR }))).toBe('You do not have permission to call setProperty');
    expect(rt.runCustomFunction('WRITE', [], { user: CREATOR })).toBe('written');
    expect(rt.properties.user(CREATOR).getProperty('written')).toBe('yes');
  });

  it("takes the creator from the option, apart from the runtime's owner", () => {
    const rt = runtime({ owner: 'someone@example.com', sharedDrive: { customFunctionProperties: 'creator', creator: EDITOR } });
    expect(rt.runCustomFunction('WHOSE', [], { user: CREATOR })).toBe(EDITOR);
  });

  it("reads the caller's own properties and cache under 'caller', which the caller may write", async () => {
    const rt = runtime({ sharedDrive: { customFunctionProperties: 'caller' } });
    expect(rt.runCustomFunction('WHOSE', [], { user: EDITOR })).toBe(EDITOR);
    expect(rt.runCustomFunction('WHOSE', [], { user: CREATOR })).toBe(CREATOR);
    expect(rt.runCustomFunction('CACHED', [], { user: EDITOR })).toBe(EDITOR);
    expect(rt.runCustomFunction('WRITE', [], { user: EDITOR })).toBe('written');
    expect(rt.properties.user(EDITOR).getProperty('written')).toBe('yes');
    expect(rt.properties.user(CREATOR).getProperty('written')).toBeNull();
    // Concurrent executions (worker threads) read the same stores.
    const outcomes = await rt.recalculate([
      { formula: '=WHOSE()', cell: 'A1', user: EDITOR },
      { formula: '=WHOSE()', cell: 'A2', user: CREATOR },
      { formula: '=OWNER()', cell: 'A3', user: EDITOR },
    ]);
    expect(outcomes.map((o) => (o.ok ? o.values : o.error))).toEqual([[[EDITOR]], [[CREATOR]], [['null']]]);
  });

  it('follows the reading in concurrent executions too', async () => {
    const none = runtime({ sharedDrive: { customFunctionProperties: 'none' } });
    expect((await none.recalculate([{ formula: '=WHOSE()', cell: 'A1', user: CREATOR }]))[0]).toMatchObject({ ok: true, values: [['nothing']] });
    const creator = runtime({ sharedDrive: { customFunctionProperties: 'creator' } });
    expect((await creator.recalculate([{ formula: '=WHOSE()', cell: 'A1', user: EDITOR }]))[0]).toMatchObject({ ok: true, values: [[CREATOR]] });
  });

  it('refuses an unknown reading or option', () => {
    expect(() => runtime({ sharedDrive: { customFunctionProperties: 'owner' as never } })).toThrow(GasRuntimeUsageError);
    expect(() => runtime({ sharedDrive: { reading: 'none' } as never })).toThrow(GasRuntimeUsageError);
  });
});
