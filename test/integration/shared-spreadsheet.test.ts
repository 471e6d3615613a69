// A spreadsheet shared between its owner and an editor: formulas run with the owner's settings and
// list of allowed companies, the sidebar with the caller's own. Built add-in, runtime and emulator.

import { DEMO_IDS, OUTSIDER_TOKEN } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditPushHandle, ExportHandle, FormulaAccess, SettingsSummary } from '../../src/shared/rpc';
import { grantFormulaAccess, ok, OWNER, useStack, type Rpc, type Stack } from '../support/stack';
import { errorOf } from '../support/formula-errors';
import { DEMO_FUND_LISTING, demoFundListingQueries } from '../support/demo-fund';

const EDITOR = 'editor@example.org';
const M = DEMO_IDS.metrics;
const ACCESS_KEY_PREFIX = 'METRICS_FORMULA_ACCESS_';

let stack: Stack;
useStack((started) => (stack = started));

function accessKey(rt: GasRuntime): string {
  return ACCESS_KEY_PREFIX + rt.spreadsheet.getId();
}

/** The editor's first export, as far as the server lets it go: the sentence it ends with. */
async function editorExportProblem(rt: GasRuntime): Promise<string> {
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange(1, 1, 3, 2).setValues([
    ['Date', 'Value'],
    ['2024-01-01', '1'],
    ['2024-02-01', '2'],
  ]);
  const request = {
    companyId: DEMO_IDS.fund,
    range: 'Sheet1!A1:B3',
    spec: {
      layout: 'long',
      hasHeaderRow: true,
      skipBlanks: true,
      duplicates: 'reject',
      offPeriod: 'reject',
      onlyChanged: false,
      metricId: M.monthlyRecurringRevenue,
    },
    writeStatus: false,
  };
  const started = rt.callServer('startExport', [request], { user: EDITOR }) as Rpc<ExportHandle>;
  if (!started.ok) return started.error;
  const next = rt.callServer('continueExport', [started.value.exportId], { user: EDITOR }) as Rpc<ExportHandle>;
  if (!next.ok) return next.error;
  return next.value.report?.problem ?? next.value.report?.summary ?? 'no problem';
}

describe('an owner without a token', () => {
  it("gives an editor formulas that say the owner has not set one, while the editor's own sidebar says theirs is set", async () => {
    const rt = stack.runtime({ token: null, activeUser: EDITOR, activeUserSettings: {} });
    const message = errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue], { user: EDITOR }));
    expect(message).toBe(
      "Formulas in this spreadsheet use its owner's API connection, and the owner has not set an API token. The owner can set it in Extensions › Portfolio Metrics › Open sidebar › Settings; anyone else can make a copy of the spreadsheet (File › Make a copy) and use their own connection there.",
    );
    expect(message).not.toMatch(/your (API )?token/i);

    const settings = ok<SettingsSummary>(rt.callServer('getSettings', [], { user: EDITOR }));
    expect(settings).toMatchObject({ tokenSet: true, isOwner: false });
    expect(settings.sharingNote).toBe(
      `Formulas in this spreadsheet use its owner's (${OWNER}) API connection and the companies the owner allowed, not yours. Your own exports, imports and pushes use your connection, set here.`,
    );
    // The owner sees nothing extra.
    expect(ok<SettingsSummary>(rt.callServer('getSettings', [], { user: OWNER }))).toMatchObject({ tokenSet: false, isOwner: true, sharingNote: null });
    // The metric listing the access check needs was never asked for with anyone's token.
    expect(await stack.takeRequests()).toEqual([]);
  });
});

describe('an owner with a token and an editor without one', () => {
  it("answers the editor's formulas with the owner's connection, and tells the editor their own export has no token", async () => {
    const rt = stack.runtime({ activeUser: EDITOR, activeUserSettings: { token: null } });
    const rows = rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue], { user: EDITOR }) as unknown[][];
    const state = await stack.emulator.control.state();
    expect(rows).toHaveLength(state.data_points.filter((p) => p.metric_id === M.monthlyRecurringRevenue).length);
    expect((await stack.takeRequests()).map((r) => [r.path, r.status])).toEqual([...DEMO_FUND_LISTING.map((path) => [path, 200]), ['/data_points', 200]]);

    expect(await editorExportProblem(rt)).toBe('No API token is set. Open Extensions › Portfolio Metrics › Open sidebar › Settings and paste your API token.');
    expect(ok<SettingsSummary>(rt.callServer('getSettings', [], { user: EDITOR }))).toMatchObject({ tokenSet: false, isOwner: false });
    expect((await stack.takeRequests()).filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('formula access', () => {
  it('refuses a company the owner did not allow, then answers once the owner allows it: one listing per allowed company, none warm', async () => {
    const rt = stack.runtime({ activeUser: EDITOR, activeUserSettings: {} });
    const message = errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.startupMrr], { user: EDITOR }));
    expect(message).toBe(
      `No metric with id ${M.startupMrr} was found in the companies this spreadsheet may read (1 company): check the id. If it is another company's, the spreadsheet's owner can allow that company in the add-in's Settings › Formula access, or by inserting one of its metrics from the sidebar as a live formula.`,
    );
    expect(errorOf(() => rt.runCustomFunction('METRICS', [DEMO_IDS.startup], { user: EDITOR }))).toContain(
      `may not read the data of company ${DEMO_IDS.startup}`,
    );
    // Only the default company's listing was read; no data point of the refused metric.
    expect((await stack.takeRequests()).map((r) => `${r.path}?${r.query}`)).toEqual(demoFundListingQueries());

    expect(ok<FormulaAccess>(rt.callServer('getFormulaAccess', [], { user: OWNER }))).toEqual({ companyIds: [DEMO_IDS.fund], isOwner: true });
    const granted = ok<FormulaAccess>(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund, DEMO_IDS.startup.toUpperCase()]], { user: OWNER }));
    expect(granted).toEqual({ companyIds: [DEMO_IDS.fund, DEMO_IDS.startup], isOwner: true });
    expect(JSON.parse(rt.properties.user(OWNER).getProperty(accessKey(rt))!)).toEqual([DEMO_IDS.fund, DEMO_IDS.startup]);

    const rows = rt.runCustomFunction('METRIC_VALUES', [M.startupMrr], { user: EDITOR }) as unknown[][];
    expect(rows.length).toBeGreaterThan(0);
    // The fund's listing is still cached; the startup's is read once, then the series.
    expect((await stack.takeRequests()).map((r) => `${r.path}?${r.query.replace(/&page_size=100/, '')}`)).toEqual([
      `/metrics?company_id=${DEMO_IDS.startup}&page=1`,
      `/data_points?metric_id=${M.startupMrr}&page=1`,
    ]);
    rt.runCustomFunction('METRIC_VALUES', [M.startupMrr], { user: EDITOR });
    rt.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-03'], { user: EDITOR });
    rt.runCustomFunction('METRIC_LATEST', [M.startupMrr, '2024-06-30'], { user: EDITOR });
    expect((await stack.takeRequests()).filter((r) => r.path === '/metrics')).toEqual([]);

    // Taking the company off the list refuses it again, even with its series cached.
    ok(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund]], { user: OWNER }));
    expect(errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.startupMrr], { user: EDITOR }))).toContain(`No metric with id ${M.startupMrr} was found`);
    expect(await stack.takeRequests()).toEqual([]);
  });

  it('grows when the owner inserts a live formula for a company from the sidebar, not when an editor does', async () => {
    const rt = stack.runtime({ activeUser: EDITOR, activeUserSettings: {} });
    let column = 0;
    const insert = (user: string) => {
      const sheet = rt.spreadsheet.getActiveSheet();
      rt.spreadsheet.setActiveRange(sheet.getRange(1, 1 + 3 * column++)); // an empty cell for each formula
      return insertAt(user);
    };
    const insertAt = (user: string) =>
      ok<{ message: string }>(
        rt.callServer(
          'insertMetricValues',
          [
            {
              companyId: DEMO_IDS.startup,
              metricIds: [M.startupChurn],
              startDate: null,
              endDate: null,
              mode: 'formula',
              headers: false,
            },
          ],
          { user },
        ),
      );
    expect(insert(EDITOR).message).not.toContain('may now read');
    expect(rt.properties.user(OWNER).getProperty(accessKey(rt))).toBeNull();
    expect(errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.startupChurn], { user: EDITOR }))).toContain(`No metric with id ${M.startupChurn} was found`);

    expect(insert(OWNER).message).toContain(`Formulas in this spreadsheet may now read company ${DEMO_IDS.startup}'s data.`);
    expect(JSON.parse(rt.properties.user(OWNER).getProperty(accessKey(rt))!)).toEqual([DEMO_IDS.fund, DEMO_IDS.startup]);
    expect(rt.runCustomFunction('METRIC_VALUES', [M.startupChurn], { user: EDITOR })).not.toHaveLength(0);
    expect(insert(OWNER).message).not.toContain('may now read'); // already there
  });

  it("refuses an editor's attempt to change it, changing nothing in anyone's properties", async () => {
    const rt = stack.runtime({ activeUser: EDITOR, activeUserSettings: {} });
    grantFormulaAccess(rt, [DEMO_IDS.fund]);
    const ownerBefore = rt.properties.user(OWNER).getProperties();
    const editorBefore = rt.properties.user(EDITOR).getProperties();

    const refused = rt.callServer('setFormulaAccess', [[DEMO_IDS.fund, DEMO_IDS.startup]], { user: EDITOR }) as Rpc<FormulaAccess>;
    expect(refused).toEqual({
      ok: false,
      error: `Only its owner (${OWNER}) can change which companies formulas in this spreadsheet may read: formulas use the owner's connection and list, so nothing was changed. Ask the owner, or make a copy of the spreadsheet (File › Make a copy) to use your own.`,
    });
    expect(rt.properties.user(OWNER).getProperties()).toEqual(ownerBefore);
    expect(rt.properties.user(EDITOR).getProperties()).toEqual(editorBefore);
    // The editor cannot read the owner's list either: their sidebar sees only their own properties.
    expect(ok<FormulaAccess>(rt.callServer('getFormulaAccess', [], { user: EDITOR }))).toEqual({ companyIds: [], isOwner: false });
    expect(errorOf(() => rt.runCustomFunction('METRICS', [DEMO_IDS.startup], { user: EDITOR }))).toContain('may not read the data of company');
    expect(await stack.takeRequests()).toEqual([]);
  });

  it('checks every id before saving anything', () => {
    const rt = stack.runtime();
    const before = rt.properties.user(OWNER).getProperties();
    const result = rt.callServer('setFormulaAccess', [[DEMO_IDS.startup, 'not-an-id']]) as Rpc<FormulaAccess>;
    expect(result).toEqual({ ok: false, error: 'A company id must be an id like 123e4567-e89b-12d3-a456-426614174000, but it is "not-an-id".' });
    expect(rt.properties.user(OWNER).getProperties()).toEqual(before);
  });

  it('checks portfolio profiles and properties against the allowed funds', async () => {
    const rt = stack.runtime({ defaultCompany: DEMO_IDS.startup });
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]))).toContain(
      `No portfolio company profile with id ${DEMO_IDS.profile(1)} was found in the companies this spreadsheet may read`,
    );
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_PROPERTY_VALUES', [DEMO_IDS.profile(1), DEMO_IDS.fund]))).toContain(
      `may not read the data of company ${DEMO_IDS.fund}`,
    );
    // The startup has no portfolio: one refused listing each, remembered for the cache period.
    const first = await stack.takeRequests();
    expect(first.every((r) => r.status === 403)).toBe(true);
    errorOf(() => rt.runCustomFunction('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]));
    expect(await stack.takeRequests()).toEqual([]);
    grantFormulaAccess(rt, [DEMO_IDS.startup, DEMO_IDS.fund]);
    expect((rt.runCustomFunction('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]) as unknown[][])[0]).toEqual(['Name', 'Content', 'Created at', 'Id']);
  });
});

describe('the audit push', () => {
  const AUDIT = 'Portfolio audit';
  const HEADQUARTERS = DEMO_IDS.property(7);

  /** A second fund the owner's token reaches, with one profile and one text property. */
  async function secondFund(): Promise<{ fund: string; profile: string; property: string }> {
    const created = await stack.emulator.control.fixtures({ companies: [{ name: 'Second Fund', kind: 'investor' }] });
    const fund = created.companies[0]!.id;
    const more = await stack.emulator.control.fixtures({
      portfolio_company_profiles: [{ company_id: fund, name: 'Second Fund Co' }],
      portfolio_properties: [{ company_id: fund, name: 'Notes', data_type: 'string' }],
    });
    return { fund, profile: more.portfolio_company_profiles[0]!.id, property: more.portfolio_properties[0]!.id };
  }

  /** The owner's audit of the demo fund, built from the owner's sidebar. */
  function ownersAudit() {
    const rt = stack.runtime({ activeUser: EDITOR, activeUserSettings: { token: OUTSIDER_TOKEN, defaultCompany: DEMO_IDS.otherFund } });
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund], { user: OWNER }));
    const sheet = rt.spreadsheet.getSheetByName(AUDIT)!;
    const values = sheet.getDataRange().getValues();
    const row = values.findIndex((r) => r[0] === DEMO_IDS.profile(4)) + 1;
    const column = values[0]!.indexOf(HEADQUARTERS) + 1;
    expect(row).toBeGreaterThan(0);
    expect(column).toBeGreaterThan(0);
    return { rt, sheet, row, column, store: rt.spreadsheet.getSheetByName(`Audit store ${sheet.getSheetId()}`)! };
  }

  const CHANGED =
    'The audit in "Portfolio audit" was changed by someone else (or written by another user), so it was not used with your connection. Build the audit again from your sidebar, then make your edits and push.';

  const BUILT_BY_ANOTHER =
    'The audit in "Portfolio audit" was built by someone else, and a push sends only an audit you built, with your connection: nothing was sent. Ask them to push it, or build the audit again from your sidebar, then make your edits and push.';

  const headquartersOf = async (profile: string, property: string) =>
    (await stack.emulator.control.state()).portfolio_property_values
      .filter((v) => v.portfolio_company_profile_id === profile && v.portfolio_property_id === property)
      .map((v) => v.value);

  it('refuses a sheet an editor redirected to another fund the owner reaches: nothing is written to either fund, and the owner is told why', async () => {
    const second = await secondFund();
    const { rt, sheet, row, column, store } = ownersAudit();
    const before = await headquartersOf(DEMO_IDS.profile(4), HEADQUARTERS);

    // The editor's find-and-replace: the marker, the row's profile id, the column's property id, and the same
    // ids in the hidden store, all to the second fund's; then a value typed in the redirected cell.
    const swap = (text: string) =>
      text.split(DEMO_IDS.fund).join(second.fund).split(DEMO_IDS.profile(4)).join(second.profile).split(HEADQUARTERS).join(second.property);
    sheet.getRange(1, 1).setValue(swap(String(sheet.getRange(1, 1).getValue())));
    sheet.getRange(row, 1).setValue(second.profile);
    sheet.getRange(1, column).setValue(second.property);
    const pieces = Number(store.getRange(1, 2).getValue());
    const snapshot = store
      .getRange(1, 1, pieces, 1)
      .getValues()
      .map((r) => String(r[0]))
      .join('');
    expect(snapshot).toContain(DEMO_IDS.profile(4));
    store.getRange(1, 1, pieces, 1).setValues(Array.from({ length: pieces }, (_, i) => [i === 0 ? swap(snapshot) : '']));
    store.getRange(1, 2).setValue('1');
    sheet.getRange(row, column).setValue('Planted by the editor');
    await stack.takeRequests();

    // The owner's push: the store no longer holds what the owner signed. The editor's own: the owner built it.
    expect(rt.callServer('startAuditPush', [null], { user: OWNER })).toEqual({ ok: false, error: CHANGED });
    expect(rt.callServer('startAuditPush', [null], { user: EDITOR })).toEqual({ ok: false, error: BUILT_BY_ANOTHER });

    // Refused before any request, with anyone's token; neither fund holds the editor's text.
    expect(await stack.takeRequests()).toEqual([]);
    expect(await headquartersOf(second.profile, second.property)).toEqual([]);
    expect(await headquartersOf(DEMO_IDS.profile(4), HEADQUARTERS)).toEqual(before);
  });

  it.each([
    ["an older audit's marker cell alone names the second fund", 'marker'],
    ["the sheet's developer metadata alone names the second fund", 'metadata'],
    ["the store alone has the second fund's ids", 'store'],
    ["the store is another audit's, signed by the owner too", 'copied store'],
  ])('refuses when %s', async (_, what) => {
    const second = await secondFund();
    const { rt, sheet, row, column, store } = ownersAudit();
    // Audits built before the fund moved to developer metadata named it in A1; they are still read, so still checked.
    if (what === 'marker') sheet.getRange(1, 1).setValue(`portfolio-audit:v1:${second.fund}`);
    if (what === 'metadata')
      sheet
        .getDeveloperMetadata()
        .find((entry) => entry.getKey() === 'portfolio-audit:v1')!
        .setValue(second.fund);
    if (what === 'store') store.getRange(1, 1).setValue(String(store.getRange(1, 1).getValue()).split(DEMO_IDS.profile(4)).join(second.profile));
    if (what === 'copied store') {
      // The owner's earlier audit of the same fund, kept under another name: its store is signed for that sheet.
      sheet.setName('Older audit');
      ok(rt.callServer('buildAudit', [DEMO_IDS.fund], { user: OWNER }));
      const current = rt.spreadsheet.getSheetByName(AUDIT)!;
      const currentStore = rt.spreadsheet.getSheetByName(`Audit store ${current.getSheetId()}`)!;
      currentStore.getRange(1, 1, 2, 2).setValues(store.getRange(1, 1, 2, 2).getValues());
      expect(currentStore.getRange(2, 2).getValue()).not.toBe('');
      current.getRange(row, column).setValue('Planted by the editor');
    }
    sheet.getRange(row, column).setValue('Planted by the editor');
    await stack.takeRequests();
    expect(rt.callServer('startAuditPush', [null], { user: OWNER })).toEqual({ ok: false, error: CHANGED });
    expect(await stack.takeRequests()).toEqual([]);
  });

  it('lets an editor push an audit they built themselves, with their own connection', async () => {
    const rt = stack.runtime({ activeUser: EDITOR, activeUserSettings: { token: OUTSIDER_TOKEN, defaultCompany: DEMO_IDS.otherFund } });
    ok(rt.callServer('buildAudit', [DEMO_IDS.otherFund], { user: EDITOR }));
    const sheet = rt.spreadsheet.getSheetByName(AUDIT)!;
    const values = sheet.getDataRange().getValues();
    sheet.getRange(values.findIndex((r) => r[0] === DEMO_IDS.profile(13)) + 1, values[0]!.indexOf(DEMO_IDS.property(16)) + 1).setValue('Rated by the editor');
    await stack.takeRequests();
    let handle = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null], { user: EDITOR }));
    expect(handle.fund).toBe(`the fund ${DEMO_IDS.otherFund}`);
    // The owner did not build it: refused for them, whoever's spreadsheet it is.
    expect(rt.callServer('startAuditPush', [null], { user: OWNER })).toEqual({ ok: false, error: BUILT_BY_ANOTHER });
    for (let i = 0; !handle.report && i < 20; i++) handle = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [handle.pushId], { user: EDITOR }));
    const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.userId)).toEqual([DEMO_IDS.outsiderUser]);
    expect(await headquartersOf(DEMO_IDS.profile(13), DEMO_IDS.property(16))).toEqual(['Rated by the editor']);
  });

  it("pushes the owner's own audit, naming the fund in the handle the sidebar asks with and in the report", async () => {
    const { rt, sheet, row, column } = ownersAudit();
    sheet.getRange(row, column).setValue('Porto');
    await stack.takeRequests();
    let handle = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null], { user: OWNER }));
    expect(handle).toMatchObject({ fund: `the fund ${DEMO_IDS.fund}`, progress: { cellsTotal: 1, cellsDone: 0 } });
    for (let i = 0; !handle.report && i < 20; i++) handle = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [handle.pushId], { user: OWNER }));
    expect(handle.report!.summary).toMatch(new RegExp(`^The fund ${DEMO_IDS.fund}: \\d+ cells compared: 1 (created|updated), \\d+ unchanged\\.$`));
    const puts = (await stack.takeRequests()).filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(await headquartersOf(DEMO_IDS.profile(4), HEADQUARTERS)).toEqual(['Porto']);
  });

  it('pushes an audit built before the fund moved to developer metadata: its A1 marker names the fund', async () => {
    const { rt, sheet, row, column } = ownersAudit();
    // As an earlier version left it: the fund in A1, no metadata.
    for (const entry of sheet.getDeveloperMetadata()) entry.remove();
    sheet.getRange(1, 1).setValue(`portfolio-audit:v1:${DEMO_IDS.fund}`);
    sheet.getRange(row, column).setValue('Faro');
    await stack.takeRequests();
    let handle = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null], { user: OWNER }));
    expect(handle.fund).toBe(`the fund ${DEMO_IDS.fund}`);
    for (let i = 0; !handle.report && i < 20; i++) handle = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [handle.pushId], { user: OWNER }));
    expect((await stack.takeRequests()).filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(await headquartersOf(DEMO_IDS.profile(4), HEADQUARTERS)).toEqual(['Faro']);
    // Without either, the sheet names no fund: refused before any request.
    sheet.getRange(1, 1).setValue('#ids');
    sheet.getRange(row, column).setValue('Braga');
    expect(rt.callServer('startAuditPush', [null], { user: OWNER })).toEqual({
      ok: false,
      error: expect.stringMatching(/^This sheet is not a portfolio audit sheet/),
    });
    expect(await stack.takeRequests()).toEqual([]);
  });
});
