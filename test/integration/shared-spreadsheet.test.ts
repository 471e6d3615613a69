// A spreadsheet shared between its owner and an editor: formulas run with the owner's settings and
// list of allowed companies, the sidebar with the caller's own. Built add-in, runtime and emulator.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import type { ExportHandle, FormulaAccess, SettingsSummary } from '../../src/shared/rpc';
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
  sheet.getRange(1, 1, 3, 2).setValues([['Date', 'Value'], ['2024-01-01', '1'], ['2024-02-01', '2']]);
  const request = {
    companyId: DEMO_IDS.fund,
    range: 'Sheet1!A1:B3',
    spec: { layout: 'long', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, metricId: M.monthlyRecurringRevenue },
    writeStatus: false,
  };
  const started = rt.callServer('startExport', [request], { user: EDITOR }) as Rpc<ExportHandle>;
  if (!started.ok) return started.error;
  const next = rt.callServer('continueExport', [started.value.exportId], { user: EDITOR }) as Rpc<ExportHandle>;
  if (!next.ok) return next.error;
  return next.value.report?.problem ?? next.value.report?.summary ?? 'no problem';
}

describe('an owner without a token', () => {
  it('gives an editor formulas that say the owner has not set one, while the editor\'s own sidebar says theirs is set', async () => {
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
  it('answers the editor\'s formulas with the owner\'s connection, and tells the editor their own export has no token', async () => {
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
    expect(errorOf(() => rt.runCustomFunction('METRICS', [DEMO_IDS.startup], { user: EDITOR }))).toContain(`may not read the data of company ${DEMO_IDS.startup}`);
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
    const insertAt = (user: string) => ok<{ message: string }>(rt.callServer('insertMetricValues', [{
      companyId: DEMO_IDS.startup, metricIds: [M.startupChurn], startDate: null, endDate: null, mode: 'formula', headers: false,
    }], { user }));
    expect(insert(EDITOR).message).not.toContain('may now read');
    expect(rt.properties.user(OWNER).getProperty(accessKey(rt))).toBeNull();
    expect(errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.startupChurn], { user: EDITOR }))).toContain(`No metric with id ${M.startupChurn} was found`);

    expect(insert(OWNER).message).toContain(`Formulas in this spreadsheet may now read company ${DEMO_IDS.startup}'s data.`);
    expect(JSON.parse(rt.properties.user(OWNER).getProperty(accessKey(rt))!)).toEqual([DEMO_IDS.fund, DEMO_IDS.startup]);
    expect(rt.runCustomFunction('METRIC_VALUES', [M.startupChurn], { user: EDITOR })).not.toHaveLength(0);
    expect(insert(OWNER).message).not.toContain('may now read'); // already there
  });

  it('refuses an editor\'s attempt to change it, changing nothing in anyone\'s properties', async () => {
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
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]))).toContain(`No portfolio company profile with id ${DEMO_IDS.profile(1)} was found in the companies this spreadsheet may read`);
    expect(errorOf(() => rt.runCustomFunction('PORTFOLIO_PROPERTY_VALUES', [DEMO_IDS.profile(1), DEMO_IDS.fund]))).toContain(`may not read the data of company ${DEMO_IDS.fund}`);
    // The startup has no portfolio: one refused listing each, remembered for the cache period.
    const first = await stack.takeRequests();
    expect(first.every((r) => r.status === 403)).toBe(true);
    errorOf(() => rt.runCustomFunction('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]));
    expect(await stack.takeRequests()).toEqual([]);
    grantFormulaAccess(rt, [DEMO_IDS.startup, DEMO_IDS.fund]);
    expect((rt.runCustomFunction('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]) as unknown[][])[0]).toEqual(['Name', 'Content', 'Created at', 'Id']);
  });
});
