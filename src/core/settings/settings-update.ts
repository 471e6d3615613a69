// What the settings panel may save: every field checked before anything is stored.

import { requireUuid } from '../validate/uuid';
import { validateToken } from './token';

/** A settings change from the page; absent fields stay as they are. */
export type SettingsChange = {
  token?: string;
  removeToken?: boolean;
  baseUrl?: string;
  defaultCompanyId?: string | null;
};

/** What the store writes: undefined keeps a setting, null removes it. */
export type CheckedSettings = { token?: string | null; baseUrl?: string | null; defaultCompanyId?: string | null };

/**
 * Every field is checked before anything is saved, so a wrong one leaves no half-saved mix. The base URL's
 * check is given: beside validateBaseUrl it needs the build's allowlist, which only the adapter knows.
 * An empty token field keeps the token (the page never holds it to send back); an empty company clears it.
 */
export function checkSettingsChange(change: SettingsChange, checkBaseUrl: (input: string) => string): CheckedSettings {
  const token = change.removeToken ? null : change.token !== undefined && change.token !== '' ? validateToken(change.token) : undefined;
  const baseUrl = change.baseUrl !== undefined ? checkBaseUrl(change.baseUrl) : undefined;
  const defaultCompanyId =
    change.defaultCompanyId === undefined ? undefined : change.defaultCompanyId ? requireUuid(change.defaultCompanyId, 'The default company id') : null;
  return { token, baseUrl, defaultCompanyId };
}
