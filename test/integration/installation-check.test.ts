// Check this installation on the built add-in: in the runtime every check passes; the API refusing the token, an
// unreachable base URL, a URL outside the allowlist and a missing scope each fail their check with the URL (never
// the token); and each switch of docs/platform.md makes its matching check degraded. The check runs as a sidebar
// call beside Sheets recalculating the probe formula it writes (callServerAsync's recalculateWrittenFormulas).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GasRuntime, PlatformAssumptions } from '../../gas-runtime';
import { CHECK, type InstallationCheck } from '../../src/core/settings/installation-verdicts';
import type { InstallationCheckProgress, InstallationReport } from '../../src/shared/rpc';
import { ok, useStack, type Stack, type StackRuntimeOptions } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

// The scopes the add-in ships with: one left out is what a person who declined it at install has.
const SCOPES: string[] = (JSON.parse(readFileSync(path.join(__dirname, '../../appsscript.json'), 'utf8')) as { oauthScopes: string[] }).oauthScopes;

async function check(rt: GasRuntime): Promise<InstallationReport> {
  return ok<InstallationReport>(await rt.callServerAsync('checkInstallation', [], { recalculateWrittenFormulas: true }));
}

function runtime(options: StackRuntimeOptions = {}): GasRuntime {
  return stack.runtime({ timeZone: 'America/New_York', ...options });
}

const named = (report: InstallationReport, name: string): InstallationCheck => report.checks.find((c) => c.name === name)!;
const notPassing = (report: InstallationReport) => report.checks.filter((c) => c.status !== 'pass').map((c) => [c.name, c.status]);

function sheetText(rt: GasRuntime, name: string): string {
  const sheet = rt.spreadsheet.getSheetByName(name);
  return sheet ? sheet.getDataRange().getDisplayValues().flat().join('\n') : '';
}

describe('Check this installation', () => {
  it('passes every check in the runtime, writes the report to its sheet and leaves no probe or trigger behind', async () => {
    const rt = runtime();
    const report = await check(rt);
    expect(notPassing(report)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual([
      CHECK.scopes,
      CHECK.api,
      CHECK.allowlist,
      CHECK.cache,
      CHECK.zones,
      CHECK.trigger,
      CHECK.file,
      CHECK.probe,
      CHECK.activeRange,
      CHECK.sharedCache,
      CHECK.dateArguments,
      CHECK.returnedDates,
      CHECK.recalculation,
      CHECK.writtenDates,
      CHECK.quotas,
    ]);
    expect(named(report, CHECK.api).detail).toBe(`The API at ${stack.emulator.url} accepted the saved token.`);
    expect(report.summary).toMatch(/^All 15 checks passed/);
    expect(named(report, CHECK.file).detail).toBe(
      'You own this spreadsheet (owner@example.com): formulas here use your API connection and the companies you allow, whoever opens it.',
    );

    const written = rt.spreadsheet.getSheetByName(report.sheetName)!;
    expect(written.getRange(7, 1, 1, 3).getValues()).toEqual([['Check', 'Status', 'What it means and what to do']]);
    expect(written.getRange(8, 1, report.checks.length, 3).getValues()).toEqual(report.checks.map((c) => [c.name, c.status, c.detail]));
    expect(rt.spreadsheet.getSheetByName('Installation probe')).toBeNull();
    expect(rt.triggers.list()).toEqual([]);
    // The probe formula ran as a custom function, beside the check.
    expect(rt.executions.filter((e) => e.functionName === 'INSTALLATION_PROBE' && e.kind === 'custom-function').length).toBeGreaterThanOrEqual(2);
    expect(sheetText(rt, report.sheetName)).not.toContain(stack.emulator.token);
    expect(JSON.stringify(report)).not.toContain(stack.emulator.token);
  });

  it('publishes each line as it is known while it runs, for the page to show, and its end', async () => {
    const rt = runtime();
    const progressId = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    expect(ok(await rt.callServerAsync('getInstallationCheckProgress', [progressId]))).toBeNull();
    // The API holds its answer: the check stops at its second line, and a read beside it sees the first.
    await stack.emulator.control.faults({ latencyMs: 600_000 });
    let answered = false;
    const running = rt.callServerAsync('checkInstallation', [progressId], { recalculateWrittenFormulas: true }).finally(() => (answered = true));
    let live: InstallationCheckProgress | null = null;
    while (!live && !answered) {
      live = ok<InstallationCheckProgress | null>(await rt.callServerAsync('getInstallationCheckProgress', [progressId]));
      if (live && live.running !== CHECK.api) live = null;
      if (!live) await new Promise((resolve) => setImmediate(resolve));
    }
    await stack.emulator.control.faults({ reset: true });
    await stack.emulator.control.release();
    const report = ok<InstallationReport>(await running);
    expect(live).toEqual({ done: [report.checks[0]], running: CHECK.api });
    expect(ok(await rt.callServerAsync('getInstallationCheckProgress', [progressId]))).toEqual({ done: report.checks, running: null });
    expect(rt.callServer('getInstallationCheckProgress', ['not-an-id'])).toEqual({
      ok: false,
      error: expect.stringMatching(/^The progress id must be an id like/),
    });
  });

  it('says the API refused the saved token, with its address and never the token', async () => {
    const token = 'refused-token-0123456789abcdef';
    const rt = runtime({ token });
    const report = await check(rt);
    expect(named(report, CHECK.api)).toEqual({
      name: CHECK.api,
      status: 'fail',
      detail: expect.stringContaining(`The API at ${stack.emulator.url} refused the saved token (HTTP 401)`),
    });
    expect(named(report, CHECK.allowlist).status).toBe('pass');
    expect(JSON.stringify(report)).not.toContain(token);
    expect(sheetText(rt, report.sheetName)).not.toContain(token);
  });

  it('says the base URL could not be reached, naming it', async () => {
    const rt = runtime();
    const unreachable = 'http://127.0.0.1:9/';
    rt.properties.user('owner@example.com').setProperty('METRICS_API_BASE_URL', unreachable);
    const report = await check(rt);
    expect(named(report, CHECK.api).status).toBe('fail');
    expect(named(report, CHECK.api).detail).toContain('Could not reach the API at http://127.0.0.1:9');
    expect(JSON.stringify(report)).not.toContain(stack.emulator.token);
  });

  it('fails the allowlist check when the manifest does not allow the base URL', async () => {
    const report = await check(runtime({ urlFetchWhitelist: ['https://api.example.com/'] }));
    expect(named(report, CHECK.allowlist).status).toBe('fail');
    expect(named(report, CHECK.allowlist).detail).toContain(`${stack.emulator.url} is not in the manifest's urlFetchWhitelist`);
    expect(named(report, CHECK.api).status).toBe('fail');
  });

  it('fails the permissions check when a scope of the manifest was not granted', async () => {
    const report = await check(runtime({ oauthScopes: SCOPES.filter((scope) => !scope.endsWith('container.ui')) }));
    expect(notPassing(report)).toEqual([[CHECK.scopes, 'fail']]);
    expect(named(report, CHECK.scopes).detail).toContain(
      'is not granted: "Display and run third-party web content in prompts and sidebars inside Google applications" (without it: the menu and the sidebar)',
    );
  });

  it('lists each declined scope with what stops without it, and the lines that need one say so', async () => {
    const declined = SCOPES.filter((scope) => scope.endsWith('script.scriptapp') || scope.endsWith('userinfo.email'));
    const rt = runtime();
    rt.authorize('owner@example.com', { decline: declined });
    const report = await check(rt);
    expect(notPassing(report)).toEqual([
      [CHECK.scopes, 'fail'],
      [CHECK.trigger, 'fail'],
    ]);
    const scopes = named(report, CHECK.scopes).detail;
    expect(scopes).toContain(
      'Some permissions the add-in asks for are not granted: "Allow this application to run when you are not present" (without it: scheduled snapshot refreshes); "See your primary Google Account email address" (without it: telling whether you own this spreadsheet, and your email in the Pushes sheet). Everything else works.',
    );
    expect(scopes).toContain('open https://script.google.com/macros/d/');
    expect(named(report, CHECK.trigger).detail).toMatch(
      /^Not tested: Scheduling a snapshot refresh needs the permission "Allow this application to run when you are not present"/,
    );
    expect(rt.triggers.list()).toEqual([]);
  });

  it('says the API cannot be reached until "Connect to an external service" is granted, and sends nothing', async () => {
    const rt = runtime();
    rt.authorize('owner@example.com', { decline: SCOPES.filter((scope) => scope.endsWith('external_request')) });
    await stack.takeRequests();
    const report = await check(rt);
    expect(named(report, CHECK.api)).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('Reaching the API needs the permission "Connect to an external service"'),
    });
    expect(named(report, CHECK.allowlist).status).toBe('degraded');
    expect(await stack.takeRequests()).toEqual([]);
  });

  it('from the menu writes the report; a probe Sheets calculates only after the check is read by the next check', async () => {
    const rt = runtime();
    rt.run('checkInstallationFromMenu');
    expect(rt.ui.toasts.at(-1)!.message).toContain('The report is on the "Installation check" sheet.');
    expect(sheetText(rt, 'Installation check')).toContain('run the check again in a minute, and it reads what the probe showed');
    // Sheets calculates the probe after the menu item's execution ends; the next check reads it.
    expect((await rt.recalculateWritten()).map((outcome) => outcome.sheet)).toEqual(['Installation probe']);
    rt.run('checkInstallationFromMenu');
    const rows = rt.spreadsheet.getSheetByName('Installation check')!.getDataRange().getValues();
    const statusOf = (name: string) => rows.find((row) => row[0] === name)?.[1];
    expect([CHECK.probe, CHECK.activeRange, CHECK.sharedCache, CHECK.dateArguments].map(statusOf)).toEqual(['degraded', 'pass', 'pass', 'pass']);
  });

  const SWITCHED: Array<[string, PlatformAssumptions, string]> = [
    ['the active range is not the calling cell', { activeRangeIsCallingCell: false }, CHECK.activeRange],
    ["formulas do not share the owner's cache", { sharedCachesAcrossExecutions: false }, CHECK.sharedCache],
    ['Intl does not know the zones', { intlKnowsZone: false }, CHECK.zones],
    ['identical formula text is not recalculated', { identicalFormulaRecalculates: false }, CHECK.recalculation],
    ["date arguments are built in the script's zone", { datesInScriptZone: true }, CHECK.dateArguments],
    ['a date a script writes gets no date format', { writtenDatesGetDateFormat: false }, CHECK.writtenDates],
  ];

  it("fails the returned-dates check when a Date a formula returns is shown on the script's clock (no way for the add-in to be right then)", async () => {
    const report = await check(runtime({ assumptions: { returnedDatesInScriptZone: true } }));
    expect(notPassing(report)).toEqual([[CHECK.returnedDates, 'fail']]);
    expect(named(report, CHECK.returnedDates).detail).toContain('shows as 2024-01-15 05:00 here');
  });

  it.each(SWITCHED)('says degraded, and nothing else, when %s', async (_name, assumptions, checkName) => {
    const report = await check(runtime({ assumptions }));
    expect(notPassing(report)).toEqual([[checkName, 'degraded']]);
    expect(report.summary).toMatch(/^1 check found the add-in slower or limited/);
  });
});
