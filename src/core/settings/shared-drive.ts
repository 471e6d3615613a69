// A spreadsheet in a Shared Drive has no owner: `getOwner()` "Returns the owner of the document, or null for a document
// in a shared drive", and whose user properties a custom function reads there is stated nowhere (docs/platform.md, §12).
// So formula access there is decided by the person who connected the file: the first who let formulas read a company,
// recorded in the document, signed with their key (core/trust). A formula uses the settings Sheets hands it only when
// they hold that person's key: then they are that person's, whoever Sheets' reading makes them. Pure: the record's
// text, its verification and the sentences; gas/shared-drive-connection.ts reads and writes it.

import { ConfigError } from '../errors';
import { SETTINGS_HINT } from '../product';

/** The connection as stored (JSON, signed): who connected the file, which file, when. */
export interface SharedDriveConnectionRecord {
  v: 1;
  /** The connecting person's email, or null when Apps Script did not reveal it (the signature decides, not this). */
  email: string | null;
  /** A copy of the spreadsheet (File › Make a copy) is another file: a record of another id is no connection. */
  spreadsheetId: string;
  connectedAt: string;
}

/** The connection's state as one execution sees it. */
export type SharedDriveConnection =
  | { kind: 'not-connected' }
  /** `verified`: the settings that checked it hold the key that signed it (they are the connecting person's). */
  | { kind: 'connected'; email: string | null; verified: boolean };

/** Which case the file is in, as the caller's sidebar sees it: owned (by whom), or in a Shared Drive (connected or not). */
export type FileCase =
  | { kind: 'owned'; ownerEmail: string | null; callerIsOwner: boolean | null }
  | { kind: 'shared-drive'; connection: SharedDriveConnection };

/** The record's text, exactly as signed and stored. */
export function encodeConnection(record: SharedDriveConnectionRecord): string {
  return JSON.stringify(record);
}

/** The record of this spreadsheet, or null: absent, damaged, or another spreadsheet's (a copy's). */
export function decodeConnection(text: string | null | undefined, spreadsheetId: string): SharedDriveConnectionRecord | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const record = parsed as Partial<SharedDriveConnectionRecord>;
    if (record.v !== 1 || record.spreadsheetId !== spreadsheetId || typeof record.connectedAt !== 'string') return null;
    if (record.email !== null && typeof record.email !== 'string') return null;
    return { v: 1, email: record.email || null, spreadsheetId, connectedAt: record.connectedAt };
  } catch {
    return null;
  }
}

/** "alex@fund.com" or, when Apps Script hid the email, words that fit "connected by …". */
export function connectorName(email: string | null): string {
  return email ?? 'someone whose email Apps Script does not reveal';
}

const SNAPSHOT_HINT = "the sidebar's Metrics tab › Snapshot of today's values";
const FORMULA_ACCESS_HINT = `${SETTINGS_HINT} › Formula access`;

/**
 * Why a formula in a Shared Drive file reads no token, as one sentence that says what to do; null when it may use the
 * settings it was handed. It cannot tell whose settings those are (Session is refused in a custom function), only
 * whether they hold the connecting person's key.
 */
export function sharedDriveFormulaProblem(connection: SharedDriveConnection, settings: { token: boolean; baseUrl: boolean }): ConfigError | null {
  if (connection.kind === 'not-connected') {
    return new ConfigError(
      `This spreadsheet is in a Shared Drive, which has no owner whose API connection formulas could use, and no one has connected it: allow a company in ${FORMULA_ACCESS_HINT} to connect it to your connection, or insert the values as a snapshot (${SNAPSHOT_HINT}), which uses the connection of whoever refreshes it.`,
    );
  }
  const who = connectorName(connection.email);
  if (!connection.verified) {
    return new ConfigError(
      `This spreadsheet is in a Shared Drive and was connected by ${who}, but Sheets ran this formula with someone else's settings or none, so it could read no token: insert the values as a snapshot (${SNAPSHOT_HINT}), which uses the connection of whoever refreshes it, or keep the spreadsheet in My Drive, where formulas use its owner's connection.`,
    );
  }
  if (!settings.token || !settings.baseUrl) {
    const missing = !settings.token ? 'has not set an API token' : "has not set the API's base URL";
    return new ConfigError(
      `Formulas in this Shared Drive spreadsheet use the API connection of ${who}, who connected it and ${missing}: they can set it in ${SETTINGS_HINT}.`,
    );
  }
  return null;
}

/** Whether the caller decides which companies formulas here may read: anyone may while no one has connected it. */
export function callerDecides(connection: SharedDriveConnection): boolean {
  return connection.kind === 'not-connected' || connection.verified;
}

/** What the sidebar's Settings says about whose connection formulas here use (its sharing note). */
export function sharedDriveSharingNote(connection: SharedDriveConnection): string {
  if (connection.kind === 'not-connected') {
    return `This spreadsheet is in a Shared Drive, which has no owner, and no one has connected it: formulas here read no API connection until someone allows a company in Formula access, which connects it to their connection. Your own snapshots, exports, imports and pushes use your connection, set here.`;
  }
  if (connection.verified) {
    return `This spreadsheet is in a Shared Drive and you connected it: formulas here use your API connection and the companies you allow, but only when Sheets runs them with your settings; where it does not, they say so, and snapshots work for everyone.`;
  }
  return `This spreadsheet is in a Shared Drive and was connected by ${connectorName(connection.email)}: formulas here use that person's API connection and the companies they allowed, not yours. Your own snapshots, exports, imports and pushes use your connection, set here.`;
}

/** The Formula access panel's line in a Shared Drive file. */
export function sharedDriveAccessNote(connection: SharedDriveConnection): string {
  if (connection.kind === 'not-connected') {
    return 'This spreadsheet is in a Shared Drive and no one has connected it. Adding a company connects it to your API connection: formulas here then read your list and your token, and only you can change the list.';
  }
  if (connection.verified)
    return "You connected this Shared Drive spreadsheet: formulas here may read only these companies' data (a fund covers its portfolio companies), with your connection.";
  return `This Shared Drive spreadsheet was connected by ${connectorName(connection.email)}, and only they decide which companies formulas here may read, in their own sidebar. To use your own connection, insert values as snapshots, or make a copy of the spreadsheet (File › Make a copy).`;
}

/** Why the caller may not change formula access in a Shared Drive file someone else connected. */
export function sharedDriveAccessRefusal(email: string | null): string {
  return `This Shared Drive spreadsheet was connected by ${connectorName(email)}, and only they can change which companies formulas here may read: formulas use their connection and list, so nothing was changed. Ask them, or insert values as snapshots, which use your own connection.`;
}

/** What an insert adds to its report when it connected the file. */
export const CONNECTED_NOW = ' You connected this Shared Drive spreadsheet: its formulas use your API connection and the companies you allow.';
