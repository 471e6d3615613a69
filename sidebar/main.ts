// The sidebar's settings panel. Every API string is set as text, never as HTML.

import './styles.css';
import { server } from './server';
import type { SettingsSummary } from '../src/shared/rpc';

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The page has no #${id}.`);
  return found as T;
}

const form = element<HTMLFormElement>('settings-form');
const tokenInput = element<HTMLInputElement>('token');
const tokenStatus = element<HTMLParagraphElement>('token-status');
const baseUrlInput = element<HTMLInputElement>('base-url');
const companyInput = element<HTMLInputElement>('company-id');
const message = element<HTMLParagraphElement>('settings-message');
const buttons = Array.from(form.querySelectorAll('button'));

function say(text: string, kind: 'error' | 'success' | 'info'): void {
  message.textContent = text;
  message.className = kind === 'info' ? '' : kind;
}

function show(settings: SettingsSummary): void {
  tokenInput.value = '';
  tokenInput.placeholder = settings.tokenSet ? 'Set: type a new token to replace it' : 'Paste your API token';
  tokenStatus.textContent = settings.tokenSet
    ? `A token is set${settings.tokenLast4 ? ` (ending in ${settings.tokenLast4})` : ''}.`
    : 'No token is set.';
  baseUrlInput.value = settings.baseUrl ?? '';
  companyInput.value = settings.defaultCompanyId ?? '';
}

async function busy<T>(label: string, work: () => Promise<T>): Promise<T | undefined> {
  buttons.forEach((b) => (b.disabled = true));
  say(label, 'info');
  try {
    return await work();
  } catch (error) {
    say(error instanceof Error ? error.message : String(error), 'error');
    return undefined;
  } finally {
    buttons.forEach((b) => (b.disabled = false));
  }
}

async function load(): Promise<void> {
  const result = await busy('Loading settings…', () => server.getSettings());
  if (!result) return;
  if (result.ok) {
    show(result.value);
    say('', 'info');
  } else say(result.error, 'error');
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void busy('Saving…', async () => {
    const result = await server.saveSettings({
      token: tokenInput.value || undefined,
      baseUrl: baseUrlInput.value,
      defaultCompanyId: companyInput.value.trim() || null,
    });
    if (result.ok) {
      show(result.value);
      say('Saved.', 'success');
    } else say(result.error, 'error');
  });
});

element<HTMLButtonElement>('remove-token').addEventListener('click', () => {
  void busy('Removing the token…', async () => {
    const result = await server.saveSettings({ removeToken: true });
    if (result.ok) {
      show(result.value);
      say('The token was removed.', 'success');
    } else say(result.error, 'error');
  });
});

element<HTMLButtonElement>('test').addEventListener('click', () => {
  void busy('Testing the connection…', async () => {
    const result = await server.testConnection(companyInput.value.trim());
    if (!result.ok) say(result.error, 'error');
    else say(result.value.message, result.value.ok ? 'success' : 'error');
  });
});

void load();
