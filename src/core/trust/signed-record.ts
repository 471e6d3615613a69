// The one rule for state the add-in keeps in the document (cells, hidden sheets, notes, developer metadata):
// every editor of the spreadsheet can change it, so what a job or refresh reads there is a *request* from
// whoever edited it last, never a grant (SECURITY.md, "What the document holds is a request"). Before acting on
// it with a user's connection, the add-in checks that this user wrote it, here, for this purpose: the record is
// signed with a key that lives only in that user's own properties (gas/user-signing-key.ts), and a record whose
// signature does not verify is refused with UntrustedRecordError's sentence. Pure: the HMAC is handed in.
//
// API (all a caller needs):
//   signRecord(hmac, scope, text)             -> the signature to store beside `text`
//   verifyRecord(hmac, scope, text, sig)      -> true only when this user signed exactly `text` in this scope
//   requireSigned(hmac, scope, text, sig, w)  -> throws UntrustedRecordError (w: what, what to do) unless it verifies
//   signedByAnother(hmac, sig)                -> the signature names another user as its signer: a claim anyone
//                                                 can write, for wording and for not reporting others' records
//                                                 as tampered, never for trusting anything
// `text` is the record exactly as stored (sign the JSON you write, verify the JSON you read: no canonical form
// to drift). `scope` binds the purpose ("snapshot", "audit", …) and the spreadsheet's id, so a record copied
// from another spreadsheet, or from one feature's store to another's, does not verify.

import { UntrustedRecordError } from '../errors';

/** HMAC-SHA256 of `text` under the current user's own key, as text (base64); from gas/user-signing-key.ts. */
export type Hmac = (text: string) => string;

/** What a signature is for: a feature's name and the spreadsheet the record lives in. */
export interface SignatureScope {
  purpose: string;
  spreadsheetId: string;
}

/** Bumped if the signed message's layout changes: old signatures then fail, which refuses (never trusts) them. */
const LAYOUT = 'v1';

function message(scope: SignatureScope, text: string): string {
  // JSON keeps the parts apart: no purpose or id can end where the record begins.
  return JSON.stringify([LAYOUT, scope.purpose, scope.spreadsheetId, text]);
}

/** The signer's part of a signature: the same for every record one user signs, and nothing about the key. */
function signerOf(hmac: Hmac): string {
  return hmac(JSON.stringify([LAYOUT, 'signer'])).slice(0, 12);
}

/** The signature of `text` for `scope`, to store beside it: "signer:mac". */
export function signRecord(hmac: Hmac, scope: SignatureScope, text: string): string {
  return `${signerOf(hmac)}:${hmac(message(scope, text))}`;
}

/** Compares every character, so how long a wrong signature took says nothing about where it went wrong. */
function sameText(a: string, b: string): boolean {
  let differs = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) differs |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return differs === 0;
}

/** True only when the current user signed exactly `text` for `scope`; a missing or malformed signature is false. */
export function verifyRecord(hmac: Hmac, scope: SignatureScope, text: string, signature: unknown): boolean {
  return typeof signature === 'string' && signature !== '' && sameText(signRecord(hmac, scope, text), signature);
}

/**
 * True when `signature` is well formed and names a signer other than the current user. Anyone can write that
 * part, so it only chooses words ("inserted by someone else" rather than "changed"); the record stays refused.
 */
export function signedByAnother(hmac: Hmac, signature: unknown): boolean {
  if (typeof signature !== 'string') return false;
  const [signer, mac, ...rest] = signature.split(':');
  return rest.length === 0 && Boolean(signer) && Boolean(mac) && !sameText(signer!, signerOf(hmac));
}

/**
 * Throws UntrustedRecordError unless `text` verifies. `what` names the record ("The definition of the snapshot
 * at Sheet1!B2:D6") and `remedy` says what to do ("Insert the snapshot again").
 */
export function requireSigned(hmac: Hmac, scope: SignatureScope, text: string, signature: unknown, what: { what: string; remedy: string }): void {
  if (!verifyRecord(hmac, scope, text, signature)) throw new UntrustedRecordError(what.what, what.remedy);
}
