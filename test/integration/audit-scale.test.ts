// The audit at a fund's scale on the built add-in against the emulator: 250 companies × 100 properties of
// non-ASCII text, a select of 501 options and a value of 50,001 characters. Each size is the smallest that
// still crosses the limit it is here for (with a little room where the bytes are counted, not exact):
// - the add-in's budget of 500 requests per 5 minutes, waited out twice: the build reads a page of each
//   list (the emulator's pages hold 25): ceil(250 / 25) = 10 pages of profiles + ceil(100 / 25) = 4 of
//   properties + 250 × 4 of values + 1 of options = 1,015 requests, more than 2 × 500;
// - the 500 KB a property store holds: the snapshot keeps each cell's key, its text verbatim up to 16
//   characters, else a 9-character hash. Half the cells are 16 characters of which 10 are CJK (about 37
//   bytes in UTF-8), half hashed: about 24 bytes a cell with its separator, 25,000 cells and 350 ids of
//   39 bytes make about 588 KB (asserted below, not assumed);
// - Sheets' 500 items of a list rule: 501 options; a cell's 50,000 characters: a value of 50,001.

import { randomUUID } from 'node:crypto';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditBuildHandle, AuditBuildReport, AuditPushHandle } from '../../src/shared/rpc';
import { ok, OWNER, startStack, waitOnBothClocks, type Stack } from '../support/stack';

const PROFILES = 250;
const PROPERTIES = 100;
const OPTIONS = 501;
const LONG = 50_001;
const AUDIT = 'Portfolio audit';
const STORE = /^Audit store (\d+)$/;

let stack: Stack;
const fund = randomUUID();
const profiles = Array.from({ length: PROFILES }, (_, i) => ({ id: randomUUID(), name: `Société ${i} — 株式会社` }));
const region = { id: randomUUID(), name: 'Région', data_type: 'select' };
const memo = { id: randomUUID(), name: 'Mémo', data_type: 'text' };
const texts = Array.from({ length: PROPERTIES - 2 }, (_, i) => ({ id: randomUUID(), name: `Propriété ${i}`, data_type: 'string' }));
const options = Array.from({ length: OPTIONS }, (_, i) => ({ id: randomUUID(), label: `Région ${i} · Ω` }));
const longMemo = 'Ünïcødé 株式会社 '.repeat(Math.ceil(LONG / 13)).slice(0, LONG);

/**
 * A non-ASCII value, short (kept verbatim in the snapshot: 16 characters at most, 10 of them CJK, so few
 * cells fill the snapshot) or long (hashed), for each cell.
 */
function textValue(profile: number, property: number): string {
  return (profile + property) % 2 === 0 ? `東京都千代田区丸の内${profile}·${property}` : `Société Générale d'Électricité ${profile}/${property} — 東京`;
}

describe("the audit at a fund's scale", () => {
  beforeAll(async () => {
    // The API's own limit out of the way: the add-in's budget (500 requests per 5 minutes) is what paces the
    // build's 1,015 reads over three windows, passed on the runtime's virtual clock.
    stack = await startStack({ rateLimit: 100_000 });
    const control = stack.emulator.control;
    await control.fixtures({
      companies: [{ id: fund, name: 'Fonds Européen', kind: 'investor' }],
      portfolio_company_profiles: profiles.map((p) => ({ ...p, company_id: fund })),
      portfolio_properties: [region, memo, ...texts].map((p) => ({ ...p, company_id: fund })),
      portfolio_property_options: options.map((o) => ({ ...o, portfolio_property_id: region.id })),
    });
    const values: Array<Record<string, unknown>> = [];
    profiles.forEach((profile, p) => {
      values.push({ portfolio_company_profile_id: profile.id, portfolio_property_id: region.id, portfolio_property_option_id: options[p % OPTIONS]!.id });
      values.push({ portfolio_company_profile_id: profile.id, portfolio_property_id: memo.id, value: p === 0 ? longMemo : `Mémo ${p}` });
      texts.forEach((property, q) => values.push({ portfolio_company_profile_id: profile.id, portfolio_property_id: property.id, value: textValue(p, q) }));
    });
    // The control API takes bodies of up to 1 MB.
    for (let start = 0; start < values.length; start += 4_000) await control.fixtures({ portfolio_property_values: values.slice(start, start + 4_000) });
  }, 240_000);
  afterAll(() => stack?.stop());

  /**
   * Builds through the job, as the sidebar does: one buildAudit of this fund needs 1,015 reads, and the
   * add-in's budget of 500 requests per 5 minutes refuses that in one execution. Each wait is passed on both
   * clocks; the steps (and so the rate windows crossed) are counted.
   */
  async function build(rt: GasRuntime): Promise<AuditBuildReport> {
    const began = Date.now();
    let handle = ok<AuditBuildHandle>(rt.callServer('startAuditBuild', [fund]));
    let steps = 0;
    let waitedMs = 0;
    let peakUserBytes = 0;
    let peakDocumentBytes = 0;
    for (; !handle.report && handle.progress.status === 'running' && steps < 400; steps++) {
      waitedMs += handle.progress.waitingForRateLimitMs ?? 0;
      await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
      handle = ok<AuditBuildHandle>(rt.callServer('continueAuditBuild', [handle.buildId]));
      peakUserBytes = Math.max(peakUserBytes, userPropertyBytes(rt));
      peakDocumentBytes = Math.max(peakDocumentBytes, documentPropertyBytes(rt));
    }
    // eslint-disable-next-line no-console -- what a build of this fund costs
    console.log(
      `scale build: ${steps} steps, ${handle.progress.pagesRead} pages, ${Math.round(waitedMs / 60_000)} min waited (virtual), ${Date.now() - began} ms real, peak user properties ${Math.round(peakUserBytes / 1024)} KB, document ${Math.round(peakDocumentBytes / 1024)} KB`,
    );
    // The job's state (which pages are read) stays far inside the 500 KB a property store holds; the pages themselves are on the build's sheet.
    expect(peakUserBytes).toBeLessThan(500 * 1024);
    expect(peakDocumentBytes).toBeLessThan(500 * 1024);
    if (!handle.report) throw new Error(`The build ended ${handle.progress.status}: ${handle.progress.problem ?? 'no report'}`);
    // The reads crossed two of the budget's 5-minute windows, on the virtual clock: one wait is at most a
    // window, so more than one window waited is two waits at least (a step's own time shortens each a little).
    expect(waitedMs).toBeGreaterThan(2 * 5 * 60_000 - 2 * 60_000);
    expect(handle.progress.pagesRead).toBeGreaterThan(2 * 500);
    expect(rt.spreadsheet.getSheets().filter((sheet) => sheet.getName().startsWith('Audit build '))).toEqual([]);
    return handle.report;
  }

  async function push(rt: GasRuntime, sheetName: string | null = null): Promise<AuditPushHandle> {
    let handle = ok<AuditPushHandle>(rt.callServer('startAuditPush', [sheetName]));
    for (let i = 0; !handle.report && i < 20; i++) handle = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [handle.pushId]));
    return handle;
  }

  function cellOf(rt: GasRuntime, sheetName: string, profileId: string, propertyId: string) {
    const sheet = rt.spreadsheet.getSheetByName(sheetName)!;
    const values = sheet.getDataRange().getValues();
    return sheet.getRange(values.findIndex((row) => row[0] === profileId) + 1, values[0]!.indexOf(propertyId) + 1);
  }

  /** Bytes of every document property, keys and values, in UTF-8, as the runtime counts its 500 KB. */
  function documentPropertyBytes(rt: GasRuntime): number {
    const all = rt.properties.document().getProperties();
    return Object.entries(all).reduce((sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);
  }

  /** Bytes of the user's properties (the job store's), keys and values, in UTF-8. */
  function userPropertyBytes(rt: GasRuntime): number {
    const all = rt.properties.user(OWNER).getProperties();
    return Object.entries(all).reduce((sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);
  }

  /** Every audit store: hidden, protected with a warning, and named by the id of a sheet that exists. */
  function stores(rt: GasRuntime): Array<{ id: number; owner: string | undefined }> {
    const sheets = rt.spreadsheet.getSheets();
    return sheets
      .filter((sheet) => /^Audit store /.test(sheet.getName()))
      .map((store) => {
        expect(store.getName()).toMatch(STORE);
        expect(store.isSheetHidden()).toBe(true);
        expect(store.getProtections('SHEET' as never).map((p) => p.isWarningOnly())).toEqual([true]);
        const id = Number(STORE.exec(store.getName())![1]);
        return { id, owner: sheets.find((sheet) => sheet.getSheetId() === id)?.getName() };
      });
  }

  function storedSnapshot(rt: GasRuntime, sheetName: string): { profiles: string[]; properties: string[]; rows: string[]; cut?: string[] } {
    const id = rt.spreadsheet.getSheetByName(sheetName)!.getSheetId();
    const store = rt.spreadsheet.getSheetByName(`Audit store ${id}`)!;
    const count = Number(store.getRange(1, 2).getValue());
    return JSON.parse(
      store
        .getRange(1, 1, count, 1)
        .getValues()
        .map((row) => String(row[0]))
        .join(''),
    );
  }

  async function storedValue(profileId: string, propertyId: string): Promise<string | null | undefined> {
    const state = await stack.emulator.control.state();
    return state.portfolio_property_values.find((v) => v.portfolio_company_profile_id === profileId && v.portfolio_property_id === propertyId)?.value;
  }

  it('builds 250 companies × 100 properties, pushes an edit and rebuilds, keeping the snapshot out of the 500 KB property store and leaving no orphan', async () => {
    const rt = stack.runtime();
    const built = await build(rt);
    expect([built.profiles, built.properties]).toEqual([PROFILES, PROPERTIES]);
    const snapshot = storedSnapshot(rt, AUDIT);
    expect([snapshot.profiles.length, snapshot.properties.length, snapshot.rows.length]).toEqual([PROFILES, PROPERTIES, PROFILES]);
    // The snapshot is far past what document properties hold; none of it is there.
    expect(Buffer.byteLength(JSON.stringify(snapshot))).toBeGreaterThan(500 * 1024);
    expect(
      rt.properties
        .document()
        .getKeys()
        .filter((key) => key.startsWith('METRICS_AUDIT_SNAPSHOT')),
    ).toEqual([]);
    expect(documentPropertyBytes(rt)).toBeLessThan(9 * 1024);
    // The finished build left nothing in the job store but the settings.
    expect(userPropertyBytes(rt)).toBeLessThan(2 * 1024);
    expect(stores(rt)).toEqual([{ id: rt.spreadsheet.getSheetByName(AUDIT)!.getSheetId(), owner: AUDIT }]);

    const [profile, property] = [profiles[7]!, texts[3]!];
    cellOf(rt, AUDIT, profile.id, property.id).setValue('Genève — édité');
    await stack.emulator.control.clearRequests();
    const pushed = await push(rt);
    expect(pushed.report!.totals).toMatchObject({ updated: 1, failed: 0 });
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(await storedValue(profile.id, property.id)).toBe('Genève — édité');

    // Rebuilt in place: the same sheet, one store, the pushed value shown, nothing left to push.
    await build(rt);
    expect(stores(rt)).toEqual([{ id: rt.spreadsheet.getSheetByName(AUDIT)!.getSheetId(), owner: AUDIT }]);
    expect(cellOf(rt, AUDIT, profile.id, property.id).getValue()).toBe('Genève — édité');
    expect((await push(rt)).report!.totals).toMatchObject({ updated: 0, created: 0, failed: 0 });

    // Renamed, the audit keeps its snapshot (by the sheet's id) and still pushes.
    rt.spreadsheet.getSheetByName(AUDIT)!.setName('Audit de mars');
    cellOf(rt, 'Audit de mars', profile.id, property.id).setValue('Genève — encore');
    expect((await push(rt, 'Audit de mars')).report!.totals).toMatchObject({ updated: 1, failed: 0 });
    expect(await storedValue(profile.id, property.id)).toBe('Genève — encore');

    // A rebuild beside the renamed audit: each store belongs to a sheet. Once the renamed one is deleted, the next build leaves one store.
    await build(rt);
    expect(
      stores(rt)
        .map((store) => store.owner)
        .sort(),
    ).toEqual(['Audit de mars', AUDIT]);
    rt.spreadsheet.deleteSheet(rt.spreadsheet.getSheetByName('Audit de mars')!);
    await build(rt);
    expect(stores(rt)).toEqual([{ id: rt.spreadsheet.getSheetByName(AUDIT)!.getSheetId(), owner: AUDIT }]);
    expect(documentPropertyBytes(rt)).toBeLessThan(9 * 1024);
    expect(userPropertyBytes(rt)).toBeLessThan(2 * 1024);
  }, 600_000);

  /**
   * One build of the fund for the two tests below, whichever runs first (or alone): each reads what a build shows
   * (a dropdown, a cut value), and the one that edits pushes nothing, so neither changes what the other reads. A
   * build of this fund is the file's main cost; the first test builds its own, as it pushes and rebuilds.
   */
  let builtOnce: Promise<{ rt: GasRuntime; report: AuditBuildReport }> | undefined;
  function sharedBuild(): Promise<{ rt: GasRuntime; report: AuditBuildReport }> {
    builtOnce ??= (async () => {
      const rt = stack.runtime();
      return { rt, report: await build(rt) };
    })();
    return builtOnce;
  }

  it('gives a select of 501 options a dropdown that reads its labels from a range on the hidden store', async () => {
    const { rt } = await sharedBuild();
    const rule = cellOf(rt, AUDIT, profiles[3]!.id, region.id).getDataValidation()!;
    expect(String(rule.getCriteriaType())).toBe('VALUE_IN_RANGE');
    const source = rule.getCriteriaValues()[0] as { getValues(): unknown[][]; getSheet(): { getName(): string; isSheetHidden(): boolean } };
    expect(source.getSheet().getName()).toMatch(STORE);
    expect(source.getSheet().isSheetHidden()).toBe(true);
    expect(source.getValues().map((row) => row[0])).toEqual(options.map((o) => o.label));
    expect(cellOf(rt, AUDIT, profiles[3]!.id, region.id).getValue()).toBe(options[3]!.label);
  }, 300_000);

  it('shows a 50,001-character value cut with a visible mark, lists it in the report, and never pushes it', async () => {
    const { rt, report: built } = await sharedBuild();
    const cell = cellOf(rt, AUDIT, profiles[0]!.id, memo.id);
    expect(built.cut).toEqual([{ cell: cell.getA1Notation(), company: profiles[0]!.name, property: memo.name, length: LONG }]);
    expect(built.message).toContain('shown cut');
    const shown = cell.getValue() as string;
    expect(shown.length).toBeLessThanOrEqual(50_000);
    expect(longMemo.startsWith(shown.slice(0, 40_000))).toBe(true);
    expect(shown).toMatch(/… \[cut: 50001 characters in all; edit this value in the app\]$/);

    // Untouched, it is not sent; edited, it is skipped with the reason; the API keeps all 50,001 characters.
    cell.setValue(`Ajouté: ${shown}`.slice(0, 50_000 - 1) + 'x');
    await stack.emulator.control.clearRequests();
    const pushed = await push(rt);
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toEqual([]);
    expect(pushed.report!.problems.map((p) => [p.cell, p.outcome])).toEqual([[cell.getA1Notation(), 'skipped']]);
    expect(pushed.report!.problems[0]!.reason).toMatch(/cut to fit a cell/);
    expect(await storedValue(profiles[0]!.id, memo.id)).toBe(longMemo);
  }, 300_000);
});
