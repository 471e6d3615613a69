// A spreadsheet in a Shared Drive has no owner (`getOwner()` is null), and whose user properties a custom function reads
// there is stated nowhere: the runtime's `sharedDrive` switch (docs/platform.md, §12) runs the journeys under each
// reading: no one's, the file's creator's, the caller's. In each, the person who connected the file (the first to
// allow a company) decides formula access, formulas answer only with that person's settings and otherwise say what to
// do, snapshots and the scheduled refresh work with the connection of whoever runs them, and Check this installation
// says which case the file is in. Built add-in, runtime and emulator; assertions on cells and the request log.

import { DEMO_IDS, OUTSIDER_TOKEN } from '../../emulator/demo-data';
import type { GasRuntime, SharedDriveReading } from '../../gas-runtime';
import { CHECK } from '../../src/core/settings/installation-verdicts';
import type { FormulaAccess, InsertReport, InstallationReport, SettingsSummary } from '../../src/shared/rpc';
import { errorOf } from '../support/formula-errors';
import { ok, OWNER, useStack, type Rpc, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

/** The file's creator and the person who connects it: the demo token, which reaches the demo fund. */
const CONNECTOR = OWNER;
/** An editor with a token of their own, which reaches only Blue Harbor Partners. */
const EDITOR = 'editor@example.org';
const M = DEMO_IDS.metrics;
const CONNECTION_KEY = 'METRICS_SHARED_DRIVE_CONNECTION';
const SETTINGS = 'Extensions › Portfolio Metrics › Open sidebar › Settings';

const NOT_CONNECTED = `This spreadsheet is in a Shared Drive, which has no owner whose API connection formulas could use, and no one has connected it: allow a company in ${SETTINGS} › Formula access to connect it to your connection, or insert the values as a snapshot (the sidebar's Metrics tab › Snapshot of today's values), which uses the connection of whoever refreshes it.`;
const OTHER_SETTINGS = `This spreadsheet is in a Shared Drive and was connected by ${CONNECTOR}, but Sheets ran this formula with someone else's settings or none, so it could read no token: insert the values as a snapshot (the sidebar's Metrics tab › Snapshot of today's values), which uses the connection of whoever refreshes it, or keep the spreadsheet in My Drive, where formulas use its owner's connection.`;
const REFUSED = `This Shared Drive spreadsheet was connected by ${CONNECTOR}, and only they can change which companies formulas here may read: formulas use their connection and list, so nothing was changed. Ask them, or insert values as snapshots, which use your own connection.`;

function runtime(reading: SharedDriveReading, creator = CONNECTOR): GasRuntime {
  return stack.runtime({
    timeZone: 'America/New_York',
    sharedDrive: { customFunctionProperties: reading, creator },
    activeUser: EDITOR,
    activeUserSettings: { token: OUTSIDER_TOKEN, defaultCompany: DEMO_IDS.otherFund },
  });
}

/** Whose token each request carried: the demo user (the connector) or the outsider (the editor). */
async function requestsBy(): Promise<{ connector: number; editor: number; paths: string[] }> {
  const requests = await stack.takeRequests();
  return {
    connector: requests.filter((r) => r.userId === DEMO_IDS.demoUser).length,
    editor: requests.filter((r) => r.userId === DEMO_IDS.outsiderUser).length,
    paths: [...new Set(requests.map((r) => r.path))].sort(),
  };
}

async function pointCount(metricId: string): Promise<number> {
  return (await stack.emulator.control.state()).data_points.filter((p) => p.metric_id === metricId).length;
}

/** What each reading makes of the connector's and the editor's recalculation once the connector connected the file. */
const FORMULAS_ANSWER: Record<SharedDriveReading, { connector: boolean; editor: boolean }> = {
  // No one's settings: no formula can read a token, whoever recalculates.
  none: { connector: false, editor: false },
  // The creator's (the connector's) settings for everyone's recalculation.
  creator: { connector: true, editor: true },
  // Each person's own: only the connector's recalculation holds the connector's key.
  caller: { connector: true, editor: false },
};

describe.each(['none', 'creator', 'caller'] as const)("a spreadsheet in a Shared Drive whose formulas read %s's properties", (reading) => {
  it('is connected by the first person to allow a company, who alone decides from then on', async () => {
    const rt = runtime(reading);
    // Before anyone connects it, every formula says so, and nothing is asked of the API.
    for (const user of [CONNECTOR, EDITOR])
      expect(errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue], { user }))).toBe(NOT_CONNECTED);
    expect(ok<FormulaAccess>(rt.callServer('getFormulaAccess', [], { user: EDITOR })).sharedDrive).toMatchObject({ connected: false, callerDecides: true });
    expect(ok<SettingsSummary>(rt.callServer('getSettings', [], { user: EDITOR }))).toMatchObject({
      isOwner: null,
      sharingNote: expect.stringMatching(/^This spreadsheet is in a Shared Drive, which has no owner, and no one has connected it/),
    });

    const connected = ok<FormulaAccess>(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund]], { user: CONNECTOR }));
    expect(connected).toEqual({
      companyIds: [DEMO_IDS.fund],
      isOwner: null,
      sharedDrive: {
        connected: true,
        connectedBy: CONNECTOR,
        callerDecides: true,
        note: expect.stringMatching(/^You connected this Shared Drive spreadsheet/),
      },
    });
    const record = rt.properties.document().getProperty(CONNECTION_KEY)!;
    expect(JSON.parse(JSON.parse(record).record)).toMatchObject({ v: 1, email: CONNECTOR, spreadsheetId: rt.spreadsheet.getId() });

    // The editor sees who decides and cannot change it: nothing changes in the document or in anyone's properties.
    const editorBefore = rt.properties.user(EDITOR).getProperties();
    const connectorBefore = rt.properties.user(CONNECTOR).getProperties();
    expect(ok<FormulaAccess>(rt.callServer('getFormulaAccess', [], { user: EDITOR }))).toEqual({
      companyIds: [],
      isOwner: null,
      sharedDrive: {
        connected: true,
        connectedBy: CONNECTOR,
        callerDecides: false,
        note: `This Shared Drive spreadsheet was connected by ${CONNECTOR}, and only they decide which companies formulas here may read, in their own sidebar. To use your own connection, insert values as snapshots, or make a copy of the spreadsheet (File › Make a copy).`,
      },
    });
    expect(rt.callServer('setFormulaAccess', [[DEMO_IDS.otherFund]], { user: EDITOR }) as Rpc<FormulaAccess>).toEqual({ ok: false, error: REFUSED });
    expect(rt.properties.document().getProperty(CONNECTION_KEY)).toBe(record);
    expect(rt.properties.user(EDITOR).getProperties()).toEqual(editorBefore);
    expect(rt.properties.user(CONNECTOR).getProperties()).toEqual(connectorBefore);
    expect(ok<SettingsSummary>(rt.callServer('getSettings', [], { user: EDITOR })).sharingNote).toBe(
      `This spreadsheet is in a Shared Drive and was connected by ${CONNECTOR}: formulas here use that person's API connection and the companies they allowed, not yours. Your own snapshots, exports, imports and pushes use your connection, set here.`,
    );
    // The connector changes the list again; nothing of it reached the API.
    expect(ok<FormulaAccess>(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund, DEMO_IDS.startup]], { user: CONNECTOR })).companyIds).toEqual([
      DEMO_IDS.fund,
      DEMO_IDS.startup,
    ]);
    expect(await stack.takeRequests()).toEqual([]);
  });

  it("answers formulas only with the connecting person's settings, and otherwise says what to do without a request", async () => {
    const rt = runtime(reading);
    ok(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund]], { user: CONNECTOR }));
    const expected = FORMULAS_ANSWER[reading];
    const points = await pointCount(M.monthlyRecurringRevenue);
    for (const user of [CONNECTOR, EDITOR] as const) {
      const answers = user === CONNECTOR ? expected.connector : expected.editor;
      if (answers) {
        expect(rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue], { user })).toHaveLength(points);
      } else {
        expect(errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.monthlyRecurringRevenue], { user }))).toBe(OTHER_SETTINGS);
        expect(errorOf(() => rt.runCustomFunction('METRIC_VALUE', [M.monthlyRecurringRevenue, '2024-03'], { user }))).toBe(OTHER_SETTINGS);
      }
    }
    // Every request a formula sent carried the connector's token; the editor's was never spent by a formula.
    const sent = await requestsBy();
    expect(sent.editor).toBe(0);
    if (expected.connector || expected.editor) expect(sent.paths).toEqual(expect.arrayContaining(['/data_points', '/metrics']));
    else expect(sent).toEqual({ connector: 0, editor: 0, paths: [] });
    // Recalculated together, as Sheets does: the same answers.
    const outcomes = await rt.recalculate([
      { formula: `=METRIC_VALUE("${M.monthlyRecurringRevenue}", "2024-03")`, cell: 'A1', user: CONNECTOR },
      { formula: `=METRIC_VALUE("${M.monthlyRecurringRevenue}", "2024-03")`, cell: 'A2', user: EDITOR },
    ]);
    expect(outcomes.map((o) => (o.ok ? 'value' : o.error.message))).toEqual([
      expected.connector ? 'value' : OTHER_SETTINGS,
      expected.editor ? 'value' : OTHER_SETTINGS,
    ]);
    expect((await requestsBy()).editor).toBe(0);

    // Refresh data runs as the person who clicks it (the editor here), and the formulas it rewrites run again.
    rt.run('refreshData', [], { user: EDITOR });
    const rerun = await rt.recalculateWritten({ user: CONNECTOR });
    expect(rerun.map((o) => [o.cell, o.ok ? 'value' : o.error.message])).toEqual([
      ['A1', expected.connector ? 'value' : OTHER_SETTINGS],
      ['A2', expected.connector ? 'value' : OTHER_SETTINGS],
    ]);
    expect((await requestsBy()).editor).toBe(0);
  });

  it("inserts live formulas for the connector's list, and snapshots that refresh, from the sidebar and on schedule, with the inserter's own connection", async () => {
    const rt = runtime(reading);
    const sheet = rt.spreadsheet.getActiveSheet();
    // The connector's first insert of a live formula connects the file and allows its company.
    rt.spreadsheet.setActiveRange(sheet.getRange('A1'));
    const first = ok<InsertReport>(
      rt.callServer(
        'insertMetricValues',
        [{ companyId: DEMO_IDS.startup, metricIds: [M.startupChurn], startDate: null, endDate: null, mode: 'formula', headers: false }],
        { user: CONNECTOR },
      ),
    );
    expect(first.message).toContain(' You connected this Shared Drive spreadsheet: its formulas use your API connection and the companies you allow.');
    expect(first.message).toContain(`Formulas in this spreadsheet may now read company ${DEMO_IDS.startup}'s data.`);
    expect(ok<FormulaAccess>(rt.callServer('getFormulaAccess', [], { user: CONNECTOR })).companyIds).toEqual([DEMO_IDS.fund, DEMO_IDS.startup]);
    // The editor's insert writes the formula but changes no one's list.
    rt.spreadsheet.setActiveRange(sheet.getRange('D1'));
    const editors = ok<InsertReport>(
      rt.callServer(
        'insertMetricValues',
        [{ companyId: DEMO_IDS.otherFund, metricIds: [M.otherFundRevenue], startDate: null, endDate: null, mode: 'formula', headers: false }],
        { user: EDITOR },
      ),
    );
    expect(editors.message).not.toMatch(/may now read|You connected/);
    expect(sheet.getRange('D1').getFormula()).toContain(M.otherFundRevenue);
    expect(await stack.takeRequests()).toEqual([]);

    // The editor's snapshot: written with the editor's own token, whatever formulas can read here.
    rt.spreadsheet.setActiveRange(sheet.getRange('H1'));
    const snapshot = ok<InsertReport>(
      rt.callServer(
        'insertMetricValues',
        [{ companyId: DEMO_IDS.otherFund, metricIds: [M.otherFundRevenue], startDate: '2024-01-01', endDate: '2024-03-31', mode: 'snapshot', headers: true }],
        { user: EDITOR },
      ),
    );
    expect(snapshot.message).not.toContain('may now read');
    expect(sheet.getRange('H1:I1').getValues()).toEqual([['Date', 'Harbor Revenue']]);
    const written = sheet
      .getRange('I2:I4')
      .getValues()
      .map((row) => row[0]);
    expect(written.every((value) => typeof value === 'number')).toBe(true);
    let sent = await requestsBy();
    expect(sent).toMatchObject({ connector: 0 });
    expect(sent.editor).toBeGreaterThan(0);

    // Refreshed from the editor's sidebar, then by the editor's scheduled trigger: each time a value the API changed.
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: M.otherFundRevenue, date: '2024-02-01', value: '4242' }] });
    ok(rt.callServer('refreshSnapshots', [], { user: EDITOR }));
    expect(sheet.getRange('I3').getValue()).toBe(4242);
    ok(rt.callServer('scheduleSnapshotRefresh', ['hourly'], { user: EDITOR }));
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: M.otherFundRevenue, date: '2024-03-01', value: '4343' }] });
    const runs = rt.triggers.advance(3_600_000);
    expect(runs).toEqual([expect.objectContaining({ handlerFunction: 'runScheduledSnapshotRefresh', user: EDITOR, ok: true })]);
    expect(sheet.getRange('I3:I4').getValues()).toEqual([[4242], [4343]]);
    sent = await requestsBy();
    expect(sent.connector).toBe(0);
    expect(sent.editor).toBeGreaterThan(0);
    ok(rt.callServer('cancelSnapshotRefresh', [], { user: EDITOR }));
  });

  it("says in Check this installation which case the file is in, and whether formulas run with the caller's settings", async () => {
    const rt = runtime(reading);
    ok(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund]], { user: CONNECTOR }));
    const report = ok<InstallationReport>(await rt.callServerAsync('checkInstallation', [], { user: CONNECTOR, recalculateWrittenFormulas: true }));
    const line = (name: string) => report.checks.find((c) => c.name === name)!;
    expect(line(CHECK.file)).toEqual({
      name: CHECK.file,
      status: 'degraded',
      detail: `This spreadsheet is in a Shared Drive, which has no owner, and was connected by you (${CONNECTOR}): formulas here use that connection and list only when Sheets runs them with that person's settings, which Apps Script does not promise for a Shared Drive; elsewhere they say so (the line "${CHECK.sharedCache}" says whether they ran with yours). Snapshots, Refresh data and the scheduled refresh work either way, with the connection of whoever runs them.`,
    });
    // The probe formula the connector's check wrote ran in their recalculation: it finds their cache where formulas get their settings.
    expect(line(CHECK.sharedCache).status).toBe(FORMULAS_ANSWER[reading].connector ? 'pass' : 'degraded');
    expect(line(CHECK.sharedCache).detail).toContain('in this Shared Drive spreadsheet formulas');
    expect(rt.spreadsheet.getSheetByName(report.sheetName)!.getDataRange().getValues().flat()).toContain(CHECK.file);
  });
});

describe('connecting a Shared Drive file', () => {
  it("waits for the document's lock: while someone else holds it, nothing is connected and nothing is saved", () => {
    const rt = runtime('caller');
    const before = rt.properties.user(EDITOR).getProperties();
    rt.locks.hold('document', { forMs: 60_000, user: CONNECTOR });
    expect(rt.callServer('setFormulaAccess', [[DEMO_IDS.otherFund]], { user: EDITOR })).toEqual({
      ok: false,
      error: 'Someone else is changing which companies formulas may read in this spreadsheet. Try again in a moment.',
    });
    expect(rt.properties.document().getProperty(CONNECTION_KEY)).toBeNull();
    expect(rt.properties.user(EDITOR).getProperties()).toEqual(before);
  });

  it('is not carried by a record of another spreadsheet (a copy): the caller connects this one', () => {
    const rt = runtime('caller');
    const copied = JSON.stringify({
      record: JSON.stringify({ v: 1, email: CONNECTOR, spreadsheetId: 'the original', connectedAt: '2026-01-01T00:00:00.000Z' }),
      signature: 'x:y',
    });
    rt.properties.document().setProperty(CONNECTION_KEY, copied);
    expect(ok<FormulaAccess>(rt.callServer('getFormulaAccess', [], { user: EDITOR })).sharedDrive).toMatchObject({ connected: false, callerDecides: true });
    expect(ok<FormulaAccess>(rt.callServer('setFormulaAccess', [[DEMO_IDS.otherFund]], { user: EDITOR })).sharedDrive).toMatchObject({
      connected: true,
      connectedBy: EDITOR,
      callerDecides: true,
    });
    expect(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund]], { user: CONNECTOR })).toEqual({
      ok: false,
      error: expect.stringMatching(new RegExp(`^This Shared Drive spreadsheet was connected by ${EDITOR}`)),
    });
  });
});

describe('a Shared Drive file its creator did not connect', () => {
  it("never spends the creator's token, when formulas read the creator's properties: the connector's formulas say so", async () => {
    const rt = runtime('creator', EDITOR);
    ok(rt.callServer('setFormulaAccess', [[DEMO_IDS.fund]], { user: CONNECTOR }));
    // The editor created the file and holds a token, but did not connect it: formulas read the editor's settings.
    for (const user of [CONNECTOR, EDITOR]) expect(errorOf(() => rt.runCustomFunction('METRIC_VALUES', [M.otherFundRevenue], { user }))).toBe(OTHER_SETTINGS);
    expect(await stack.takeRequests()).toEqual([]);
  });

  it('reports a file no one connected in Check this installation', async () => {
    const rt = runtime('none');
    const report = ok<InstallationReport>(await rt.callServerAsync('checkInstallation', [], { user: EDITOR, recalculateWrittenFormulas: true }));
    expect(report.checks.find((c) => c.name === CHECK.file)).toEqual({
      name: CHECK.file,
      status: 'degraded',
      detail: `This spreadsheet is in a Shared Drive, which has no owner, and no one has connected it: formulas here read no API connection, and say so. Allow a company in ${SETTINGS} › Formula access to connect it to yours. Snapshots, Refresh data and the scheduled refresh work either way, with the connection of whoever runs them.`,
    });
    // The check connects nothing.
    expect(rt.properties.document().getProperty(CONNECTION_KEY)).toBeNull();
  });
});
