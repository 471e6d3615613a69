// Granular consent on the built add-in: a person may decline any one of the manifest's scopes. With each declined in
// turn (rt.authorize), the features that need it say which permission to grant and how, nothing that needs it
// reaches the emulator, and the rest of the add-in still works (asserted on the emulator's request log).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEMO_IDS } from '../../emulator/demo-data';
import { CustomFunctionError, type GasRuntime } from '../../gas-runtime';
import { MANIFEST_SCOPES, SCOPE } from '../../src/core/settings/permissions';
import type { SettingsSummary, SnapshotRefreshScheduleView } from '../../src/shared/rpc';
import { DIST } from '../support/built-bundle';
import { OWNER, ok, useStack, type Rpc, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const shipped: string[] = (JSON.parse(readFileSync(path.join(DIST, 'appsscript.json'), 'utf8')) as { oauthScopes: string[] }).oauthScopes;

/** The consent screen's words the sentences name (core/settings/permissions.ts). */
const NAMES = {
  [SCOPE.spreadsheets]: '"See, edit, create and delete your spreadsheets in Google Drive"',
  [SCOPE.externalRequest]: '"Connect to an external service"',
  [SCOPE.containerUi]: '"Display and run third-party web content in prompts and sidebars inside Google applications"',
  [SCOPE.scriptApp]: '"Allow this application to run when you are not present"',
  [SCOPE.userinfoEmail]: '"See your primary Google Account email address"',
};
const HOW = /To grant it, open (https:\/\/script\.google\.com\/\S+|Extensions › Portfolio Metrics › Open sidebar) and tick it/;

/** The owner's runtime with `scope` declined, and the emulator's log emptied. */
async function declining(scope: string): Promise<GasRuntime> {
  const rt = stack.runtime();
  rt.authorize(OWNER, { decline: [scope] });
  await stack.takeRequests();
  return rt;
}

function refusal(result: unknown): string {
  const answer = result as Rpc<unknown>;
  if (answer.ok) throw new Error(`Expected a refusal, got ${JSON.stringify(answer.value)}`);
  return answer.error;
}

/** The sidebar's metric listing, which must keep working whatever else is declined (when the API is reachable). */
async function listingStillWorks(rt: GasRuntime): Promise<void> {
  expect(ok<unknown[]>(rt.callServer('listMetrics', [DEMO_IDS.fund])).length).toBeGreaterThan(0);
  expect((await stack.takeRequests()).filter((request) => request.path.endsWith('/metrics')).length).toBeGreaterThan(0);
}

describe('every scope of the manifest may be declined', () => {
  it("covers exactly the manifest's scopes", () => {
    expect([...MANIFEST_SCOPES].sort()).toEqual([...shipped].sort());
    expect(Object.keys(NAMES).sort()).toEqual([...shipped].sort());
  });

  it('userinfo.email: settings load and save with ownership unknown, the note names the permission; the rest works', async () => {
    const rt = await declining(SCOPE.userinfoEmail);
    const settings = ok<SettingsSummary>(rt.callServer('getSettings'));
    expect(settings.isOwner).toBeNull();
    expect(settings.sharingNote).toContain(
      `Telling whether you own this spreadsheet (so whose connection its formulas use) needs the permission ${NAMES[SCOPE.userinfoEmail]}`,
    );
    expect(settings.sharingNote).toMatch(HOW);
    const saved = ok<SettingsSummary>(rt.callServer('saveSettings', [{ defaultCompanyId: DEMO_IDS.startup }]));
    expect(saved.defaultCompanyId).toBe(DEMO_IDS.startup);
    expect(rt.properties.user(OWNER).getProperty('METRICS_DEFAULT_COMPANY_ID')).toBe(DEMO_IDS.startup);
    // Session.getActiveUser was never called, so no execution failed.
    expect(rt.executions.filter((execution) => execution.outcome !== 'completed')).toEqual([]);
    await listingStillWorks(rt);
  });

  it('script.scriptapp: scheduling says which permission to grant, creates no trigger; the rest works', async () => {
    const rt = await declining(SCOPE.scriptApp);
    const error = refusal(rt.callServer('scheduleSnapshotRefresh', ['daily']));
    // Asked before acting (getAuthorizationInfo), so the sentence has the address Apps Script gives to grant it.
    expect(error).toContain(
      `Scheduling a snapshot refresh needs the permission ${NAMES[SCOPE.scriptApp]}, which was not granted to Portfolio Metrics. To grant it, open https://script.google.com/macros/d/`,
    );
    expect(rt.triggers.list()).toEqual([]);
    expect(ok<SnapshotRefreshScheduleView>(rt.callServer('getSnapshotRefreshSchedule')).message).toContain(NAMES[SCOPE.scriptApp]);
    expect(refusal(rt.callServer('cancelSnapshotRefresh'))).toContain(NAMES[SCOPE.scriptApp]);
    // Another person who granted it schedules as usual.
    const colleague = 'colleague@example.com';
    for (const [key, value] of Object.entries(rt.properties.user(OWNER).getProperties())) rt.properties.user(colleague).setProperty(key, value);
    ok<SnapshotRefreshScheduleView>(rt.callServer('scheduleSnapshotRefresh', ['daily'], { user: colleague }));
    expect(rt.triggers.list().map((trigger) => trigger.owner)).toEqual([colleague]);
    expect(ok<SettingsSummary>(rt.callServer('getSettings')).isOwner).toBe(true);
    await listingStillWorks(rt);
  });

  it('script.external_request: formulas and the sidebar say which permission to grant, nothing is sent; the rest works', async () => {
    const rt = await declining(SCOPE.externalRequest);
    let cell = '';
    try {
      rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue]);
    } catch (error) {
      expect(error).toBeInstanceOf(CustomFunctionError);
      cell = (error as Error).message;
    }
    expect(cell).toContain(`Reaching the API needs the permission ${NAMES[SCOPE.externalRequest]}`);
    expect(cell).toMatch(HOW);
    expect(refusal(rt.callServer('listMetrics', [DEMO_IDS.fund]))).toContain(`Reaching the API needs the permission ${NAMES[SCOPE.externalRequest]}`);
    expect(await stack.takeRequests()).toEqual([]);
    // What needs no request still works: settings, and the sidebar itself.
    expect(ok<SettingsSummary>(rt.callServer('getSettings')).isOwner).toBe(true);
    rt.run('showSidebar');
    expect(rt.ui.sidebars).toHaveLength(1);
  });

  it('script.container.ui: the menu and sidebar say which permission to grant in a toast; the rest works', async () => {
    const rt = await declining(SCOPE.containerUi);
    // Opened before any authorization (AuthMode.NONE) the menu is there; once the person declined, a toast says why not.
    rt.run('onOpen', [], { authMode: 'NONE' });
    expect(rt.ui.menuFunction('Open sidebar')).toBe('showSidebar');
    const toasts = rt.ui.toasts.length;
    rt.run('onOpen', [], { authMode: 'LIMITED' });
    rt.run('showSidebar');
    expect(rt.ui.sidebars).toHaveLength(0);
    const said = rt.ui.toasts.slice(toasts).map((toast) => toast.message);
    expect(said).toHaveLength(2);
    for (const message of said) {
      expect(message).toContain(`Portfolio Metrics's menu and sidebar needs the permission ${NAMES[SCOPE.containerUi]}`);
      expect(message).toMatch(HOW);
    }
    expect(rt.executions.filter((execution) => execution.outcome !== 'completed')).toEqual([]);
    // Menu items that need no sidebar work, and so do the sidebar's functions (another person's open sidebar).
    rt.run('refreshData');
    expect(rt.ui.toasts.at(-1)!.message).toContain('No add-in formulas to refresh');
    await listingStillWorks(rt);
  });

  it('spreadsheets: what touches the sheet says which permission to grant; settings and the connection test work', async () => {
    const rt = await declining(SCOPE.spreadsheets);
    rt.spreadsheet.setActiveRange(rt.spreadsheet.getSheetByName('Sheet1')!.getRange('B2'));
    const sentence = `Reading and writing this spreadsheet needs the permission ${NAMES[SCOPE.spreadsheets]}, which was not granted to Portfolio Metrics.`;
    const error = refusal(
      rt.callServer('insertMetricValues', [
        {
          companyId: DEMO_IDS.fund,
          metricIds: [DEMO_IDS.metrics.monthlyRecurringRevenue],
          startDate: '2024-01-01',
          endDate: '2024-03-31',
          mode: 'snapshot',
          headers: true,
        },
      ]),
    );
    expect(error).toContain(sentence);
    expect(error).toMatch(HOW);
    expect(rt.spreadsheet.getSheetByName('Sheet1')!.getRange('B2').getValue()).toBe('');
    // The metric listing is cached per spreadsheet, so it needs it too, and says so.
    expect(refusal(rt.callServer('listMetrics', [DEMO_IDS.fund]))).toContain(sentence);
    // Settings load and save (ownership unknown: the owner cannot be read), and the connection test reaches the API.
    expect(ok<SettingsSummary>(rt.callServer('getSettings')).isOwner).toBeNull();
    expect(ok<SettingsSummary>(rt.callServer('saveSettings', [{ defaultCompanyId: DEMO_IDS.startup }])).defaultCompanyId).toBe(DEMO_IDS.startup);
    await stack.takeRequests();
    ok<unknown>(rt.callServer('testConnection', [DEMO_IDS.fund]));
    expect((await stack.takeRequests()).length).toBeGreaterThan(0);
  });

  it("with the refusal that names no scope (the register's switch), formulas still name the permission, and the rest points to the check", async () => {
    const rt = stack.runtime({ assumptions: { declinedScopeRefusalNamesScope: false } });
    rt.authorize(OWNER, { decline: [SCOPE.externalRequest] });
    await stack.takeRequests();
    expect(() => rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue])).toThrow(
      `Reaching the API needs the permission ${NAMES[SCOPE.externalRequest]}`,
    );
    rt.authorize(OWNER, { decline: [SCOPE.spreadsheets] });
    rt.spreadsheet.setActiveRange(rt.spreadsheet.getSheetByName('Sheet1')!.getRange('B2'));
    const error = refusal(
      rt.callServer('insertMetricValues', [
        {
          companyId: DEMO_IDS.fund,
          metricIds: [DEMO_IDS.metrics.monthlyRecurringRevenue],
          startDate: '2024-01-01',
          endDate: '2024-03-31',
          mode: 'snapshot',
          headers: true,
        },
      ]),
    );
    expect(error).toBe(
      'Portfolio Metrics needs a permission you have not granted. Open Extensions › Portfolio Metrics › Check this installation: its first line names the permission and how to grant it. Everything else keeps working meanwhile.',
    );
    expect(await stack.takeRequests()).toEqual([]);
  });
});
