// The settings panel's server side: the caller's settings, the formula access list and the connection check.
// The rules live in core/settings; this reads and writes Apps Script's stores.

import { InputError } from '../core/errors';
import { apiChecks, noApiSentence } from '../core/settings/installation-verdicts';
import { observeApi } from './installation-probes';
import { checkConnection, type ConnectionReport } from '../core/settings/connection';
import { formulaAccessRefusal, sharingNote } from '../core/settings/sharing-note';
import { checkSettingsChange, type SettingsChange } from '../core/settings/settings-update';
import { callerDecides, sharedDriveAccessNote, sharedDriveSharingNote, type SharedDriveConnection } from '../core/settings/shared-drive';
import { callerIsOwner, fileCase, ownershipPermissionNote, spreadsheetOwnerEmail } from '../gas/ownership';
import { decidingFormulaAccess, isOwnerless } from '../gas/shared-drive-connection';
import {
  checkBaseUrl,
  readFormulaAccess,
  readSettingsSummary,
  readUserProperties,
  saveCheckedSettings,
  saveFormulaAccess,
  BASE_URL_KEY,
  TOKEN_KEY,
} from '../gas/user-settings';
import type { FormulaAccess, SettingsSummary, SharedDriveAccess } from '../shared/rpc';
import { sidebarClient } from './api-factory';

export function settingsForPage(): SettingsSummary {
  const stored = readSettingsSummary();
  const found = fileCase();
  if (found.kind === 'shared-drive') return { ...stored, isOwner: null, sharingNote: sharedDriveSharingNote(found.connection) };
  const isOwner = found.callerIsOwner;
  const note = [sharingNote(isOwner, isOwner === false ? found.ownerEmail : null), isOwner === null ? ownershipPermissionNote() : null]
    .filter(Boolean)
    .join(' ');
  return { ...stored, isOwner, sharingNote: note || null };
}

/** Two people connecting a Shared Drive file at once: the lock's sentence names what the other is doing. */
const DECIDING = 'changing which companies formulas may read';

function sharedDriveAccess(connection: SharedDriveConnection): SharedDriveAccess {
  return {
    connected: connection.kind === 'connected',
    connectedBy: connection.kind === 'connected' ? connection.email : null,
    callerDecides: callerDecides(connection),
    note: sharedDriveAccessNote(connection),
  };
}

/**
 * Saves, then tests what changed with one request (the installation check's, so both say the same): a token the API
 * refuses is taken back out (the one saved before stays) and the save is refused with the reason; one that could
 * not be tested (nothing answered) stays saved, and the answer says it was not checked.
 */
export function saveSettings(change: SettingsChange): SettingsSummary {
  const checked = checkSettingsChange(change, checkBaseUrl);
  const before = readUserProperties();
  saveCheckedSettings(checked);
  const summary = settingsForPage();
  // The page sends every field on each Save: only a token or an address that differs from the stored one is tested.
  const connectionChanged =
    (typeof checked.token === 'string' && checked.token !== before[TOKEN_KEY]) || (checked.baseUrl !== undefined && checked.baseUrl !== before[BASE_URL_KEY]);
  if (!connectionChanged || !summary.tokenSet || !summary.baseUrl) return summary;
  const seen = observeApi();
  if (seen.kind === 'refused' && checked.token) {
    const previous = before[TOKEN_KEY] ?? null;
    saveCheckedSettings({ token: previous });
    throw new InputError(
      `The API at ${seen.baseUrl} refused this token (HTTP ${seen.status}), so it was not saved${previous ? '; the token saved before is kept' : ''}. Paste the whole token again, as the platform's API support sent it.`,
    );
  }
  if (seen.kind === 'no-api') {
    // An address without the API is no connection: put back what was saved before, as for a refused token.
    saveCheckedSettings({ baseUrl: before[BASE_URL_KEY] ?? null, token: checked.token ? (before[TOKEN_KEY] ?? null) : undefined });
    const kept = before[BASE_URL_KEY] ? `; the address saved before (${before[BASE_URL_KEY]}) is kept` : '';
    throw new InputError(`${noApiSentence(seen.baseUrl, seen.request)} The address${checked.token ? ' and the token were' : ' was'} not saved${kept}.`);
  }
  const [api] = apiChecks(seen);
  const message = seen.kind === 'accepted' ? `Saved. The API at ${seen.baseUrl} accepted the token.` : `Saved, but not confirmed: ${api!.detail}`;
  return { ...summary, connection: { ok: seen.kind === 'accepted', message } };
}

export function testConnection(companyId: string): ConnectionReport {
  return checkConnection(sidebarClient(), companyId);
}

export function formulaAccess(): FormulaAccess {
  const found = fileCase();
  if (found.kind === 'shared-drive') {
    // Someone else's list is in their properties: the caller's own would be no answer.
    return { companyIds: callerDecides(found.connection) ? readFormulaAccess() : [], isOwner: null, sharedDrive: sharedDriveAccess(found.connection) };
  }
  const isOwner = found.callerIsOwner;
  // A non-owner's sidebar reads only their own properties, not the owner's list formulas use.
  return { companyIds: isOwner === false ? [] : readFormulaAccess(), isOwner };
}

/**
 * Unknown ownership (null) is allowed: this writes the caller's own user properties, which formulas read only
 * when the caller is the owner. In a Shared Drive the person who connected the file decides, and the first to decide
 * connects it (gas/shared-drive-connection.ts). The ids themselves were checked by serve.
 */
export function setFormulaAccess(companyIds: string[]): FormulaAccess {
  if (!Array.isArray(companyIds)) throw new InputError('Give the company ids as a list.');
  if (isOwnerless()) {
    decidingFormulaAccess(DECIDING, () => saveFormulaAccess(companyIds));
    return formulaAccess();
  }
  const isOwner = callerIsOwner();
  if (isOwner === false) throw new InputError(formulaAccessRefusal(spreadsheetOwnerEmail()));
  return { companyIds: saveFormulaAccess(companyIds), isOwner };
}
