// The settings panel's server side: the caller's settings, the formula access list and the connection check.
// The rules live in core/settings; this reads and writes Apps Script's stores.

import { InputError } from '../core/errors';
import { checkConnection, type ConnectionReport } from '../core/settings/connection';
import { formulaAccessRefusal, sharingNote } from '../core/settings/sharing-note';
import { checkSettingsChange, type SettingsChange } from '../core/settings/settings-update';
import { callerIsOwner, spreadsheetOwnerEmail } from '../gas/ownership';
import { checkBaseUrl, readFormulaAccess, readSettingsSummary, saveCheckedSettings, saveFormulaAccess } from '../gas/user-settings';
import type { FormulaAccess, SettingsSummary } from '../shared/rpc';
import { sidebarClient } from './api-factory';

export function settingsForPage(): SettingsSummary {
  const stored = readSettingsSummary();
  const isOwner = callerIsOwner();
  return { ...stored, isOwner, sharingNote: sharingNote(isOwner, isOwner === false ? spreadsheetOwnerEmail() : null) };
}

export function saveSettings(change: SettingsChange): SettingsSummary {
  saveCheckedSettings(checkSettingsChange(change, checkBaseUrl));
  return settingsForPage();
}

export function testConnection(companyId: string): ConnectionReport {
  return checkConnection(sidebarClient(), companyId);
}

export function formulaAccess(): FormulaAccess {
  const isOwner = callerIsOwner();
  // A non-owner's sidebar reads only their own properties, not the owner's list formulas use.
  return { companyIds: isOwner === false ? [] : readFormulaAccess(), isOwner };
}

/**
 * Unknown ownership (null) is allowed: this writes the caller's own user properties, which formulas read only
 * when the caller is the owner. The ids themselves were checked by serve.
 */
export function setFormulaAccess(companyIds: string[]): FormulaAccess {
  if (!Array.isArray(companyIds)) throw new InputError('Give the company ids as a list.');
  const isOwner = callerIsOwner();
  if (isOwner === false) throw new InputError(formulaAccessRefusal(spreadsheetOwnerEmail()));
  return { companyIds: saveFormulaAccess(companyIds), isOwner };
}
