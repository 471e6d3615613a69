// What an audit keeps in the document (the sheet's marker and hidden ids, the store's snapshot, a build's pages)
// is cells any editor can rewrite: a push or a build acts on it only once it verifies as written by
// the user at the keyboard (core/trust). The snapshot decides every profile and property a push may send (a
// cell whose ids it lacks is skipped, see prepareAuditPush), so a signed snapshot and a marker that agrees with
// it bound the push to the fund and ids its builder chose; the names it recorded bind each id to the row and
// column that show them (id-places.ts).

import { InputError, UntrustedRecordError } from '../errors';
import { requireSigned, signedByAnother, verifyRecord, type Hmac, type SignatureScope } from '../trust/signed-record';
import { requireIdsInPlace } from './id-places';
import { parseSnapshot } from './snapshot';
import type { AuditSheetRead, AuditSnapshot } from './types';

/** A snapshot signs for one audit sheet of one spreadsheet: copied to another sheet's store, it does not verify. */
export function auditSnapshotScope(spreadsheetId: string, auditSheetId: number): SignatureScope {
  return { purpose: `audit-snapshot:${auditSheetId}`, spreadsheetId };
}

/** A build's pages sign for that build only. */
export function auditBuildScope(spreadsheetId: string, buildId: string): SignatureScope {
  return { purpose: `audit-build:${buildId}`, spreadsheetId };
}

const REBUILD = 'Build the audit again from your sidebar, then make your edits and push.';

/**
 * The snapshot, once it verifies as the pushing user's, the sheet's marker names its fund, and every hidden id
 * of the read sits beside the name the snapshot recorded for it (id-places.ts); otherwise, before anything is
 * read, sent or written, a sentence: built by someone else (the signature names another signer, a claim an
 * editor could forge, which at worst words a tampered audit as another's: still refused), changed by someone
 * else (UntrustedRecordError), or ids moved away from their names (or not recorded: an older audit).
 */
export function requireOwnAudit(
  hmac: Hmac,
  scope: SignatureScope,
  stored: { text: string; signature: string | null },
  read: Pick<AuditSheetRead, 'companyId' | 'rows' | 'columns'>,
  sheetName: string,
): AuditSnapshot {
  const what = { what: `The audit in "${sheetName}"`, remedy: REBUILD };
  if (!verifyRecord(hmac, scope, stored.text, stored.signature) && signedByAnother(hmac, stored.signature)) {
    throw new InputError(
      `The audit in "${sheetName}" was built by someone else, and a push sends only an audit you built, with your connection: nothing was sent. Ask them to push it, or ${REBUILD.charAt(0).toLowerCase()}${REBUILD.slice(1)}`,
    );
  }
  requireSigned(hmac, scope, stored.text, stored.signature, what);
  const snapshot = parseSnapshot(stored.text);
  if (read.companyId.toLowerCase() !== snapshot.companyId.toLowerCase()) throw new UntrustedRecordError(what.what, what.remedy);
  requireIdsInPlace(read, snapshot, sheetName);
  return snapshot;
}

/** One kept page piece as signed: its place and its text, kept apart. */
export function buildPieceText(list: string, page: string, piece: string, text: string): string {
  return JSON.stringify([list, page, piece, text]);
}

/** "the fund c0000000-…": the API gives a fund no name, so a push names it by its id. */
export function fundLabel(fundId: string): string {
  return `the fund ${fundId}`;
}
