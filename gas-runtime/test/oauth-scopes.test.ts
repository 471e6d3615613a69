import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGasRuntime, CustomFunctionError, GasRuntimeUsageError, ScriptError } from '../index';
import { useTestServer, type TestServer } from './support/test-server';

const SPREADSHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const CURRENT_ONLY = 'https://www.googleapis.com/auth/spreadsheets.currentonly';
const EXTERNAL_REQUEST = 'https://www.googleapis.com/auth/script.external_request';
const CONTAINER_UI = 'https://www.googleapis.com/auth/script.container.ui';
const USERINFO_EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
/** The add-in's own manifest scopes. */
const ADDIN_SCOPES = [CURRENT_ONLY, EXTERNAL_REQUEST, CONTAINER_UI];

const SCRIPT = `
function openOther() { return SpreadsheetApp.openById('other-id').getName(); }
function readActive() { return SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getRange('A1').getValue(); }
function writeActive() { SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getRange('A1').setValue('x'); return 'written'; }
function fetchText(url) { return UrlFetchApp.fetch(url).getContentText(); }
function addMenu() { SpreadsheetApp.getUi().createAddonMenu().addItem('Open', 'openOther').addToUi(); return 'menu'; }
function showSidebar() { SpreadsheetApp.getUi().showSidebar(HtmlService.createHtmlOutput('<b>hi</b>')); return 'shown'; }
function keep() { PropertiesService.getDocumentProperties().setProperty('k', 'v'); CacheService.getScriptCache().put('k', 'v'); return Utilities.getUuid().length; }
function whoAmI() { return Session.getActiveUser().getEmail(); }
function zone() { return Session.getScriptTimeZone(); }
function caught() { try { UrlFetchApp.fetch('http://127.0.0.1:9/'); } catch (e) { return e.name + ': ' + e.message; } }
function READ_A1() { return SpreadsheetApp.getActiveSpreadsheet().getActiveSheet().getRange('A1').getValue(); }
function FETCH_TEXT(url) { return UrlFetchApp.fetch(url).getContentText(); }
function DRIVE_FILES() { return DriveApp.getFiles(); }
function MAIL() { MailApp.sendEmail('a@example.com', 's', 'b'); }
function DRIVE_CAUGHT() { try { DriveApp.getFiles(); } catch (e) { return e.name + ': ' + e.message; } }
`;

function refusal(call: string, scopes: string): string {
  return `Specified permissions are not sufficient to call ${call}. Required permissions: ${scopes}`;
}

let server: TestServer;

useTestServer((started) => (server = started));

describe('the manifest oauthScopes', () => {
  it('refuse SpreadsheetApp.openById without the spreadsheets scope', () => {
    const rt = createGasRuntime({ code: SCRIPT, oauthScopes: ADDIN_SCOPES });
    expect(() => rt.run('openOther')).toThrow(new ScriptError(refusal('SpreadsheetApp.openById', SPREADSHEETS), 'Exception', 'openOther'));
    expect(rt.executions[0]).toMatchObject({ outcome: 'failed', error: refusal('SpreadsheetApp.openById', SPREADSHEETS) });
  });

  it('let spreadsheets.currentonly read and change the active spreadsheet', () => {
    const rt = createGasRuntime({ code: SCRIPT, oauthScopes: [CURRENT_ONLY] });
    expect(rt.run('writeActive')).toBe('written');
    expect(rt.run('readActive')).toBe('x');
    expect(rt.runCustomFunction('READ_A1')).toBe('x');
  });

  it('let the full spreadsheets scope stand in for currentonly', () => {
    const rt = createGasRuntime({ code: SCRIPT, oauthScopes: [SPREADSHEETS] });
    expect(rt.run('writeActive')).toBe('written');
  });

  it('refuse the active spreadsheet without either spreadsheet scope, naming both', () => {
    const rt = createGasRuntime({ code: SCRIPT, oauthScopes: [EXTERNAL_REQUEST] });
    expect(() => rt.run('readActive')).toThrow(refusal('SpreadsheetApp.getActiveSpreadsheet', `(${CURRENT_ONLY} || ${SPREADSHEETS})`));
    expect(() => rt.runCustomFunction('READ_A1')).toThrow(
      new CustomFunctionError(refusal('SpreadsheetApp.getActiveSpreadsheet', `(${CURRENT_ONLY} || ${SPREADSHEETS})`)),
    );
  });

  it('refuse UrlFetchApp.fetch without script.external_request, and allow it with', async () => {
    const without = createGasRuntime({ code: SCRIPT, oauthScopes: [CURRENT_ONLY] });
    expect(() => without.run('fetchText', [`${server.url}/status/200`])).toThrow(refusal('UrlFetchApp.fetch', EXTERNAL_REQUEST));
    expect(() => without.runCustomFunction('FETCH_TEXT', [`${server.url}/status/200`])).toThrow(
      new CustomFunctionError(refusal('UrlFetchApp.fetch', EXTERNAL_REQUEST)),
    );
    expect(without.run('caught')).toBe(`Exception: ${refusal('UrlFetchApp.fetch', EXTERNAL_REQUEST)}`);
    expect(without.executions.map((execution) => execution.urlFetchCount)).toEqual([0, 0, 0]);

    const allowed = createGasRuntime({ code: SCRIPT, oauthScopes: ADDIN_SCOPES });
    expect(allowed.run('fetchText', [`${server.url}/status/200`])).toBe('error 200');
    await allowed.close();
  });

  it('refuse menus and sidebars without script.container.ui, and allow them with', () => {
    const without = createGasRuntime({ code: SCRIPT, oauthScopes: [CURRENT_ONLY] });
    expect(() => without.run('addMenu', [], { authMode: 'NONE' })).toThrow(refusal('Ui.createAddonMenu', CONTAINER_UI));
    expect(() => without.run('showSidebar')).toThrow(refusal('Ui.showSidebar', CONTAINER_UI));
    expect(without.ui.sidebars).toHaveLength(0);

    const allowed = createGasRuntime({ code: SCRIPT, oauthScopes: ADDIN_SCOPES });
    expect(allowed.run('addMenu', [], { authMode: 'NONE' })).toBe('menu');
    expect(allowed.run('showSidebar')).toBe('shown');
    expect(allowed.ui.menuFunction('Open')).toBe('openOther');
  });

  it('refuse Session.getActiveUser without userinfo.email, as its reference page lists that scope', () => {
    const without = createGasRuntime({ code: SCRIPT, oauthScopes: ADDIN_SCOPES });
    expect(() => without.run('whoAmI')).toThrow(new ScriptError(refusal('Session.getActiveUser', USERINFO_EMAIL), 'Exception', 'whoAmI'));
    // The rest of Session lists no scope.
    expect(without.run('zone')).toBe('America/New_York');

    const granted = createGasRuntime({ code: SCRIPT, oauthScopes: [...ADDIN_SCOPES, USERINFO_EMAIL] });
    expect(granted.run('whoAmI')).toBe('owner@example.com');
  });

  it('need no scope for properties, cache and utilities', () => {
    expect(createGasRuntime({ code: SCRIPT, oauthScopes: [] }).run('keep')).toBe(36);
  });

  it('come from the appsscript.json beside the bundle, and are not checked when it declares none', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'gas-runtime-scopes-'));
    try {
      writeFileSync(path.join(folder, 'Code.js'), SCRIPT);
      writeFileSync(path.join(folder, 'appsscript.json'), JSON.stringify({ timeZone: 'Etc/UTC', oauthScopes: [EXTERNAL_REQUEST] }));
      const declared = createGasRuntime({ code: { path: path.join(folder, 'Code.js') } });
      expect(() => declared.run('readActive')).toThrow(/^Specified permissions are not sufficient to call SpreadsheetApp\.getActiveSpreadsheet/);

      writeFileSync(path.join(folder, 'appsscript.json'), JSON.stringify({ timeZone: 'Etc/UTC' }));
      const undeclared = createGasRuntime({ code: { path: path.join(folder, 'Code.js') } });
      expect(undeclared.run('writeActive')).toBe('written');

      writeFileSync(path.join(folder, 'appsscript.json'), JSON.stringify({ oauthScopes: SPREADSHEETS }));
      expect(() => createGasRuntime({ code: { path: path.join(folder, 'Code.js') } })).toThrow(GasRuntimeUsageError);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('custom functions calling services that need authorization', () => {
  it('get the platform permission error, not a gap in the runtime', () => {
    const rt = createGasRuntime({ code: SCRIPT });
    expect(() => rt.runCustomFunction('DRIVE_FILES')).toThrow(new CustomFunctionError('You do not have permission to call DriveApp.getFiles'));
    expect(() => rt.runCustomFunction('MAIL')).toThrow(new CustomFunctionError('You do not have permission to call MailApp.sendEmail'));
    expect(rt.runCustomFunction('DRIVE_CAUGHT')).toBe('Exception: You do not have permission to call DriveApp.getFiles');
  });

  it('still meet a loud gap outside custom functions, where Apps Script would run the service', () => {
    const rt = createGasRuntime({ code: SCRIPT });
    expect(() => rt.run('DRIVE_CAUGHT')).toThrow(expect.objectContaining({ code: 'NOT_IMPLEMENTED' }) as unknown as Error);
  });
});

const SCRIPT_APP = 'https://www.googleapis.com/auth/script.scriptapp';
/** The add-in's shipped manifest: the scopes a person is asked to grant, any of which they may decline. */
const MANIFEST = [SPREADSHEETS, EXTERNAL_REQUEST, CONTAINER_UI, SCRIPT_APP, USERINFO_EMAIL];

const CONSENT_SCRIPT = `
${SCRIPT}
function schedule() { ScriptApp.newTrigger('zone').timeBased().everyHours(1).create(); return ScriptApp.getProjectTriggers().length; }
function info(scopes) {
  const info = scopes ? ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL, scopes) : ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
  return { status: String(info.getAuthorizationStatus()), url: info.getAuthorizationUrl(), authorized: info.getAuthorizedScopes() };
}
function limitedInfo() { return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.LIMITED).getAuthorizationStatus()); }
function require(scopes) { ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, scopes); return 'granted'; }
function requireCaught(scopes) { try { ScriptApp.requireScopes(ScriptApp.AuthMode.FULL, scopes); } catch (e) { return 'caught'; } return 'granted'; }
function requireAll() { ScriptApp.requireAllScopes(ScriptApp.AuthMode.FULL); return 'granted'; }
function FETCH_CELL(url) { return UrlFetchApp.fetch(url).getContentText(); }
function GRANTED() { return String(ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL).getAuthorizationStatus()); }
`;

/** A runtime of the add-in's manifest in which `user` declined `declined`. */
function consentRuntime(declined: string[], user = 'owner@example.com') {
  const rt = createGasRuntime({ code: CONSENT_SCRIPT, oauthScopes: MANIFEST });
  rt.authorize(user, { decline: declined });
  return rt;
}

function declinedRefusal(call: string, scopes: string): string {
  return `You do not have permission to call ${call}. Required permissions: ${scopes}`;
}

describe('granular consent: a user may decline any scope the manifest asks for', () => {
  it("refuses only the calls that need the declined scope, with Apps Script's words, and only for that user", async () => {
    const rt = consentRuntime([EXTERNAL_REQUEST]);
    expect(() => rt.run('fetchText', [`${server.url}/status/200`])).toThrow(
      new ScriptError(declinedRefusal('UrlFetchApp.fetch', EXTERNAL_REQUEST), 'Exception', 'fetchText'),
    );
    expect(() => rt.runCustomFunction('FETCH_CELL', [`${server.url}/status/200`])).toThrow(
      new CustomFunctionError(declinedRefusal('UrlFetchApp.fetch', EXTERNAL_REQUEST)),
    );
    expect(rt.executions.map((execution) => execution.urlFetchCount)).toEqual([0, 0]);
    // Everything else still works for them.
    expect(rt.run('writeActive')).toBe('written');
    expect(rt.run('whoAmI')).toBe('owner@example.com');
    expect(rt.run('schedule')).toBe(1);
    // Another user granted everything.
    expect(rt.run('fetchText', [`${server.url}/status/200`], { user: 'colleague@example.com' })).toBe('error 200');
    await rt.close();
  });

  it.each([
    ['userinfo.email', USERINFO_EMAIL, 'whoAmI', 'Session.getActiveUser'],
    ['script.scriptapp', SCRIPT_APP, 'schedule', 'ScriptApp.newTrigger'],
    ['script.container.ui', CONTAINER_UI, 'showSidebar', 'Ui.showSidebar'],
    ['spreadsheets', SPREADSHEETS, 'readActive', 'SpreadsheetApp.getActiveSpreadsheet'],
  ])('with %s declined, refuses what needs it and runs the rest', (_name, scope, refused, call) => {
    const rt = consentRuntime([scope]);
    const needed = scope === SPREADSHEETS ? `(${CURRENT_ONLY} || ${SPREADSHEETS})` : scope;
    expect(() => rt.run(refused)).toThrow(declinedRefusal(call, needed));
    expect(rt.run('keep')).toBe(36);
    expect(rt.run('zone')).toBe('America/New_York');
  });

  it('lets an add-on build its menu in AuthMode.NONE, before any grant matters', () => {
    const rt = consentRuntime([CONTAINER_UI]);
    expect(rt.run('addMenu', [], { authMode: 'NONE' })).toBe('menu');
    expect(() => rt.run('addMenu', [], { authMode: 'FULL' })).toThrow(declinedRefusal('Ui.createAddonMenu', CONTAINER_UI));
  });

  it('reports the declined scope through getAuthorizationInfo, for the manifest or a given list', () => {
    const rt = consentRuntime([SCRIPT_APP]);
    expect(rt.run('info')).toEqual({
      status: 'REQUIRED',
      url: 'https://script.google.com/macros/d/gas-runtime-script/authorize',
      authorized: MANIFEST.filter((scope) => scope !== SCRIPT_APP),
    });
    expect(rt.run('info', [[USERINFO_EMAIL, SCRIPT_APP]])).toEqual({ status: 'REQUIRED', url: expect.any(String), authorized: [USERINFO_EMAIL] });
    expect(rt.run('info', [[USERINFO_EMAIL]])).toEqual({ status: 'NOT_REQUIRED', url: null, authorized: [USERINFO_EMAIL] });
    // "no other authorization mode requires that users grant authorization"
    expect(rt.run('limitedInfo')).toBe('NOT_REQUIRED');
    rt.authorize('owner@example.com', {});
    expect(rt.run('info')).toEqual({ status: 'NOT_REQUIRED', url: null, authorized: MANIFEST });
  });

  it('ends the execution at requireScopes for a declined scope, even when the script catches it', () => {
    const rt = consentRuntime([USERINFO_EMAIL]);
    expect(rt.run('require', [[SPREADSHEETS, SCRIPT_APP]])).toBe('granted');
    expect(() => rt.run('require', [[SPREADSHEETS, USERINFO_EMAIL]])).toThrow('Authorization is required to perform that action.');
    expect(() => rt.run('requireCaught', [[USERINFO_EMAIL]])).toThrow('Authorization is required to perform that action.');
    expect(() => rt.run('requireAll')).toThrow('Authorization is required to perform that action.');
    expect(rt.executions.map((execution) => execution.outcome)).toEqual(['completed', 'failed', 'failed', 'failed']);
    // A scope the manifest does not ask for is an error, not a prompt.
    expect(() => rt.run('require', [['https://www.googleapis.com/auth/drive']])).toThrow(/does not request these scopes/);
    expect(consentRuntime([]).run('requireAll')).toBe('granted');
  });

  it('does not let a custom function ask ScriptApp (not among the services the custom functions guide lists)', () => {
    const rt = consentRuntime([EXTERNAL_REQUEST]);
    expect(() => rt.runCustomFunction('GRANTED')).toThrow(new CustomFunctionError('You do not have permission to call ScriptApp.getAuthorizationInfo'));
    expect(rt.run('info')).toMatchObject({ status: 'REQUIRED' });
  });

  it('refuses to decline a scope the manifest does not ask for', () => {
    const rt = createGasRuntime({ code: CONSENT_SCRIPT, oauthScopes: MANIFEST });
    expect(() => rt.authorize('owner@example.com', { decline: ['https://www.googleapis.com/auth/drive'] })).toThrow(GasRuntimeUsageError);
  });

  it('takes declines as an option, and applies them to concurrent executions too', async () => {
    const rt = createGasRuntime({ code: CONSENT_SCRIPT, oauthScopes: MANIFEST, declinedScopes: { 'owner@example.com': [EXTERNAL_REQUEST] } });
    await expect(rt.callServerAsync('fetchText', [`${server.url}/status/200`])).rejects.toThrow(declinedRefusal('UrlFetchApp.fetch', EXTERNAL_REQUEST));
    await expect(rt.callServerAsync('fetchText', [`${server.url}/status/200`], { user: 'colleague@example.com' })).resolves.toBe('error 200');
    await rt.close();
  });
});
