// Settings: the token (never shown again once saved), the base URL, the default company, a connection test.

import { busy, byId, say } from './dom';
import type { Outcome } from './outcome';
import { mountFormulaAccess } from './formula-access-panel';
import { mountInstallationCheck } from './installation-check-panel';
import { server } from './server';
import type { SettingsSummary } from '../src/shared/rpc';

export interface SettingsPanel {
  /** The default company, for the other panels. */
  companyId(): string;
  onChange(listener: (settings: SettingsSummary) => void): void;
  /** Settles once the saved settings have been read (or failed to be), so panels that need the company can start. */
  loaded: Promise<void>;
}

export function mountSettings(): SettingsPanel {
  const panel = byId<HTMLElement>('panel-settings');
  const form = byId<HTMLFormElement>('settings-form');
  const tokenInput = byId<HTMLInputElement>('token');
  const tokenStatus = byId<HTMLElement>('token-status');
  const baseUrlInput = byId<HTMLInputElement>('base-url');
  const companyInput = byId<HTMLInputElement>('company-id');
  const removeButton = byId<HTMLButtonElement>('remove-token');
  const status = byId<HTMLElement>('settings-status');
  const sharingNote = byId<HTMLElement>('sharing-note');
  const listeners: Array<(s: SettingsSummary) => void> = [];

  function show(settings: SettingsSummary): void {
    tokenInput.value = '';
    tokenInput.placeholder = settings.tokenSet ? 'Type a new token to replace it' : 'Paste your API token';
    tokenStatus.textContent = settings.tokenSet ? 'A token is set.' : 'No token is set.';
    removeButton.hidden = !settings.tokenSet;
    baseUrlInput.value = settings.baseUrl ?? '';
    // What was saved: a Save whose refusal names no field ties it to the address only when the address changed.
    baseUrlInput.defaultValue = baseUrlInput.value;
    companyInput.value = settings.defaultCompanyId ?? '';
    // Only for someone who may not own the spreadsheet: whose connection formulas here use.
    sharingNote.textContent = settings.sharingNote ?? '';
    sharingNote.hidden = !settings.sharingNote;
    listeners.forEach((listener) => listener(settings));
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Saving…', async (): Promise<Outcome> => {
      const baseUrlBefore = baseUrlInput.defaultValue;
      const result = await server.saveSettings({
        token: tokenInput.value || undefined,
        baseUrl: baseUrlInput.value.trim(),
        defaultCompanyId: companyInput.value.trim() || null,
      });
      // The refusal names no field, so it is tied to one only when one alone was changed: the token, or the address.
      const tokenTyped = tokenInput.value !== '';
      const addressChanged = baseUrlInput.value.trim() !== baseUrlBefore;
      if (!result.ok)
        return { line: result.error, tone: 'error', field: tokenTyped && !addressChanged ? tokenInput : addressChanged && !tokenTyped ? baseUrlInput : null };
      show(result.value);
      // A changed token or address was tested with one request: say what the API answered.
      const tested = result.value.connection;
      return tested ? { line: tested.message, tone: tested.ok ? 'success' : 'warning' } : { line: 'Saved.', tone: 'success' };
    });
  });

  removeButton.addEventListener('click', () => {
    void busy(panel, status, 'Removing the token…', async (): Promise<Outcome> => {
      const result = await server.saveSettings({ removeToken: true });
      if (!result.ok) return { line: result.error, tone: 'error' };
      show(result.value);
      return { line: 'The token was removed.', tone: 'success' };
    });
  });

  byId<HTMLButtonElement>('test-connection').addEventListener('click', () => {
    void busy(panel, status, 'Testing the connection…', async (): Promise<Outcome> => {
      const companyId = companyInput.value.trim();
      if (!companyId) return { line: 'Enter a company id to test the connection with.', tone: 'error', field: companyInput };
      const result = await server.testConnection(companyId);
      if (!result.ok) return { line: result.error, tone: 'error' };
      return { line: result.value.message, tone: result.value.ok ? 'success' : 'error' };
    });
  });

  const loaded = busy(panel, status, 'Loading settings…', async () => {
    const result = await server.getSettings();
    if (!result.ok) return say(status, result.error, 'error');
    show(result.value);
    say(status, '');
  }).then(() => undefined);

  mountFormulaAccess(() => companyInput.value.trim());
  // The check's outcome replaces whatever the tab's status line said before (a "Saved." of an earlier save).
  mountInstallationCheck((line, tone) => say(status, line, tone));

  return {
    companyId: () => companyInput.value.trim(),
    onChange: (listener) => listeners.push(listener),
    loaded,
  };
}
