import { createGasRuntime, CustomFunctionError } from '../index';
import { fixture, FIXTURES } from './support/fixtures';

function runtime() {
  return createGasRuntime({ code: fixture('addon'), files: FIXTURES, owner: 'owner@example.com' });
}

describe('custom functions', () => {
  it('may read the spreadsheet but not change it', () => {
    const rt = runtime();
    rt.spreadsheet
      .getActiveSheet()
      .getRange('A1:B1')
      .setValues([[1, 'two']]);
    expect(rt.runCustomFunction('CUSTOM_READ', ['A1:B1'])).toEqual([[1, 'two']]);
    expect(() => rt.runCustomFunction('CUSTOM_WRITE')).toThrow(new CustomFunctionError('You do not have permission to call setValue'));
    expect(rt.spreadsheet.getActiveSheet().getRange('Z1').getValue()).toBe('');
  });

  it('cannot reach the UI or open other spreadsheets', () => {
    const rt = runtime();
    expect(() => rt.runCustomFunction('CUSTOM_UI')).toThrow(new CustomFunctionError('Cannot call SpreadsheetApp.getUi() from this context.'));
    expect(() => rt.runCustomFunction('CUSTOM_OPEN_OTHER')).toThrow(/^You do not have permission to call SpreadsheetApp\.openById/);
  });

  it('may generate HTML', () => {
    expect(runtime().runCustomFunction('CUSTOM_HTML')).toBe('<b>x</b>');
  });

  // "Custom functions can call certain Apps Script services … Cache, HTML, JDBC, Language, Lock, Maps, Properties,
  // Spreadsheet, URL Fetch, Utilities, XML" (custom functions guide): Session is not among them.
  it('may not call Session', () => {
    const rt = createGasRuntime({ code: fixture('services') });
    expect(() => rt.runCustomFunction('SESSION_EMAIL')).toThrow(new CustomFunctionError('You do not have permission to call Session.getActiveUser'));
  });

  it('are found without regard to case, never private ones', () => {
    const rt = runtime();
    expect(rt.runCustomFunction('custom_double', [4])).toBe(8);
    expect(() => rt.runCustomFunction('helper_')).toThrow(new CustomFunctionError("Unknown function: 'helper_'.", '#NAME?'));
    expect(rt.executions).toHaveLength(1);
  });
});

describe('auth modes of ordinary executions', () => {
  it('passes onOpen an event carrying the auth mode', () => {
    const rt = runtime();
    expect(rt.run('onOpen', [], { authMode: 'LIMITED' })).toBe('LIMITED');
    expect(rt.properties.document().getProperty('opened')).toBe('yes');
    expect(rt.run('onOpen', [{ authMode: 'NONE' }])).toBe('NONE');
  });

  it('allows only adding menus in AuthMode.NONE', () => {
    const results = runtime().run('onOpenTouchingEverything', [], { authMode: 'NONE' });
    expect(results).toEqual({
      menu: 'ok',
      properties: 'You do not have permission to call PropertiesService.getUserProperties',
      cache: 'You do not have permission to call CacheService.getScriptCache',
      fetch: 'You do not have permission to call UrlFetchApp.fetch. Required permissions: https://www.googleapis.com/auth/script.external_request',
      spreadsheet:
        'You do not have permission to call SpreadsheetApp.getActiveSpreadsheet. Required permissions: (https://www.googleapis.com/auth/spreadsheets.currentonly || https://www.googleapis.com/auth/spreadsheets)',
      sidebar: 'You do not have permission to call Ui.showSidebar. Required permissions: https://www.googleapis.com/auth/script.container.ui',
      html: 'ok',
    });
  });

  it('allows the document, UI and properties but not the network in AuthMode.LIMITED', () => {
    const results = runtime().run('onOpenTouchingEverything', [], { authMode: 'LIMITED' }) as Record<string, string>;
    expect(results).toMatchObject({ menu: 'ok', properties: 'ok', cache: 'ok', spreadsheet: 'ok', sidebar: 'ok', html: 'ok' });
    expect(results.fetch).toMatch(/^You do not have permission to call UrlFetchApp\.fetch/);
  });

  it('shows the active user only with full authorization', () => {
    const rt = createGasRuntime({ code: fixture('services'), owner: 'owner@example.com', activeUser: 'ann@example.com', scriptTimeZone: 'Europe/Paris' });
    const full = rt.run('session') as { active: string; effective: string; scriptTimeZone: string; key: string };
    expect(full).toMatchObject({ active: 'ann@example.com', effective: 'ann@example.com', scriptTimeZone: 'Europe/Paris' });
    expect(rt.run('session', [], { authMode: 'LIMITED' })).toMatchObject({ active: '', effective: '', key: full.key });
  });
});
