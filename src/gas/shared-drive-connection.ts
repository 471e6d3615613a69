// Who connected a spreadsheet in a Shared Drive: a record in the document's properties, signed with that person's key
// (core/settings/shared-drive.ts says why; core/trust how). Read by the sidebar (does the caller decide formula access?)
// and by every formula in an ownerless file (are the settings Apps Script handed it the connecting person's?).

import { InputError, type ConfigError } from '../core/errors';
import {
  callerDecides,
  decodeConnection,
  encodeConnection,
  sharedDriveAccessRefusal,
  sharedDriveFormulaProblem,
  type SharedDriveConnection,
} from '../core/settings/shared-drive';
import { signRecord, verifyRecord, type Hmac, type SignatureScope } from '../core/trust/signed-record';
import { withDocumentLock } from './cache-and-lock';
import { existingUserHmac, userHmac } from './user-signing-key';
import { BASE_URL_KEY, TOKEN_KEY, type UserProperties } from './user-settings';

/** Documented in SECURITY.md: `{ "record": <the record's JSON>, "signature": <signRecord's> }`. */
const CONNECTION_KEY = 'METRICS_SHARED_DRIVE_CONNECTION';

function scope(spreadsheetId: string): SignatureScope {
  return { purpose: 'shared-drive-connection', spreadsheetId };
}

/** True for a file in a Shared Drive: Apps Script names no owner ("or null for a document in a shared drive"). */
export function isOwnerless(book: GoogleAppsScript.Spreadsheet.Spreadsheet = SpreadsheetApp.getActiveSpreadsheet()): boolean {
  return book.getOwner() === null;
}

/** The stored connection, as checked with `hmac` (null: settings without a signing key, which signed nothing). */
export function readConnection(hmac: Hmac | null, spreadsheetId: string = SpreadsheetApp.getActiveSpreadsheet().getId()): SharedDriveConnection {
  const stored = PropertiesService.getDocumentProperties()?.getProperty(CONNECTION_KEY) ?? null;
  let parsed: { record?: unknown; signature?: unknown } = {};
  try {
    parsed = stored ? (JSON.parse(stored) as typeof parsed) : {};
  } catch {
    // A damaged value is no connection: the next person to decide connects the file again.
  }
  const text = typeof parsed.record === 'string' ? parsed.record : null;
  const record = decodeConnection(text, spreadsheetId);
  if (!record || text === null) return { kind: 'not-connected' };
  return { kind: 'connected', email: record.email, verified: hmac !== null && verifyRecord(hmac, scope(spreadsheetId), text, parsed.signature) };
}

/** The connection as the caller's own settings check it (the sidebar, the menu): `verified` means the caller connected it. */
export function connectionForCaller(): SharedDriveConnection {
  return readConnection(existingUserHmac());
}

/** The caller's email, or null where Apps Script hides it (blank, or the userinfo.email scope not granted). */
function callerEmail(): string | null {
  try {
    return Session.getActiveUser().getEmail() || null;
  } catch {
    return null;
  }
}

/**
 * Runs `change` (a change of the caller's formula access list) in a Shared Drive file once the caller may decide:
 * under the document's lock, checked just before it, the file is connected to the caller if no one has connected it
 * (two people at once: one connects, the other is refused), and refused with a sentence when someone else did.
 * `change` learns whether this call connected it; `refused`, when given, answers instead of the refusal.
 */
export function decidingFormulaAccess<T>(busy: string, change: (connectedNow: boolean) => T, refused?: () => T): T {
  return withDocumentLock(busy, () => {
    const book = SpreadsheetApp.getActiveSpreadsheet();
    const current = readConnection(existingUserHmac(), book.getId());
    if (!callerDecides(current)) {
      if (refused) return refused();
      throw new InputError(sharedDriveAccessRefusal(current.kind === 'connected' ? current.email : null));
    }
    if (current.kind === 'connected') return change(false);
    const text = encodeConnection({ v: 1, email: callerEmail(), spreadsheetId: book.getId(), connectedAt: new Date().toISOString() });
    PropertiesService.getDocumentProperties().setProperty(
      CONNECTION_KEY,
      JSON.stringify({ record: text, signature: signRecord(userHmac(), scope(book.getId()), text) }),
    );
    return change(true);
  });
}

/**
 * In a custom function: why the user properties Apps Script handed it (`props`, read once) may not be used, as the
 * cell's sentence; null in an owned file, or when they hold the key that signed the connection (they are the
 * connecting person's, whatever Sheets' reading: docs/platform.md, §12). Costs a Shared Drive file's formula one
 * document property read; an owned file's, nothing but getOwner().
 */
export function formulaSettingsProblem(props: UserProperties): ConfigError | null {
  let ownerless: boolean;
  try {
    ownerless = isOwnerless();
  } catch {
    // Apps Script refused to say: formulas behave as in an owned file, as they did before Shared Drives were handled.
    return null;
  }
  if (!ownerless) return null;
  return sharedDriveFormulaProblem(readConnection(existingUserHmac(props)), { token: Boolean(props[TOKEN_KEY]), baseUrl: Boolean(props[BASE_URL_KEY]) });
}
