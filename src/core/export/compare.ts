// Compare-and-set: what the plan expects the server to hold for each item (the value the person approved in
// the preview, else the export's own first read), how it is kept compactly between steps, and the one
// conflict reason every comparison gives.

import { fnv1a64, utf8Bytes } from '../cache/chunked-cache';
import { normaliseDecimal } from '../validate/decimal';
import type { ExportItemState } from './types';

/** A data point's value as one read found it: its text, null for a blank point, undefined for no point on that date. */
export type FoundValue = string | null | undefined;

/**
 * What the plan expects the server to hold for an item's date. `by`: the preview (what the person saw and
 * approved) or the export's own comparison read (the plan made without a preview). Past what is kept in
 * full between steps, a value is known only by its hash: enough to compare, not to show.
 */
export type ApprovedValue = { by: ApprovedBy; absent: true } | { by: ApprovedBy; value: string | null } | { by: ApprovedBy; hash: string };

export type ApprovedBy = 'preview' | 'export';

export function approvedOf(found: FoundValue, by: ApprovedBy): ApprovedValue {
  return found === undefined ? { by, absent: true } : { by, value: found };
}

/** Whether the server still holds what the plan expected. */
export function stillApproved(approved: ApprovedValue, found: FoundValue): boolean {
  if ('absent' in approved) return found === undefined;
  if (found === undefined) return false;
  if ('hash' in approved) return found !== null && valueHash(found) === approved.hash;
  if (approved.value === null || found === null) return approved.value === found;
  return sameDecimal(approved.value, found);
}

function shownApproved(approved: ApprovedValue): string {
  if ('absent' in approved) return 'no value';
  if ('hash' in approved) return 'another value';
  return approved.value === null ? 'a blank' : approved.value;
}

function shownFound(found: FoundValue): string {
  return found === undefined ? 'no value' : found === null ? 'a blank' : found;
}

/**
 * The one reason of a conflict (lower-case, no final period): what the plan expected and what the server
 * holds now. Without an approved value (typed data sent with no preview that compared it) a value the person
 * never saw is not overwritten: the stricter reading.
 */
export function conflictReason(approved: ApprovedValue | undefined, found: FoundValue): string {
  if (!approved) return `conflict: the server holds ${shownFound(found)}, which no preview showed, so it was not written: preview to see it, then export`;
  const since = approved.by === 'preview' ? 'since the preview' : 'since the export compared it';
  return `conflict: the server's value changed ${since} (${shownApproved(approved)} then, ${shownFound(found)} now), so it was not written: preview again to see it, then export`;
}

/**
 * A short hash of a value, the same for every text of one number ("1.50", "1.5"): 3 characters, an upper-case
 * letter then two of [0-9A-Za-z] (26 × 62² = 99,944 hashes: a changed value goes unnoticed about once in
 * 100,000, and is then written as planned). Kept, its first letter's case says whose value it was.
 */
export function valueHash(text: string): string {
  let n = parseInt(fnv1a64(canonicalDecimal(text) ?? text).slice(0, 8), 16);
  let hash = HASH_FIRST[n % HASH_FIRST.length]!;
  n = Math.floor(n / HASH_FIRST.length);
  for (let i = 1; i < HASH_CHARS; i++) {
    hash += HASH_REST[n % HASH_REST.length];
    n = Math.floor(n / HASH_REST.length);
  }
  return hash;
}

const HASH_FIRST = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const HASH_REST = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HASH_CHARS = 3;

/** One token a kind, per source: the preview's and the export's own read are told apart in the reason. A hash is its own token (see valueHash). */
const TOKENS: Record<ApprovedBy, { absent: string; blank: string; same: string; full: string }> = {
  preview: { absent: '~', blank: '!', same: '=', full: '*' },
  export: { absent: '-', blank: '_', same: ':', full: '+' },
};
const NONE = '.';

/** Approved values kept compactly: one token per item, the full texts of values other than the sheet's in order. */
export type KeptApprovals = { tokens: string; values?: string[] };

/**
 * At most this many bytes of approved values are kept in full (the overwrites a preview listed, for the
 * conflict's "then"); past it only their hashes, 3 bytes each. An export of 30,000 overwrites keeps about 150 KB,
 * inside a job's 170 KB (JOB_MAX_BYTES; a larger one is refused at its start, asking to split the range); the preview's record is removed when the export starts, so the two are never both kept.
 */
export const APPROVED_KEPT_BYTES = 32 * 1024;

/**
 * The approvals of the items still to be compared before their write (pending or, before a start, unchanged);
 * `guarded` picks those items (every item when not given), the others keep none.
 */
export function keepApprovals(items: readonly ExportItemState[], guarded: (item: ExportItemState) => boolean = () => true): KeptApprovals | undefined {
  let tokens = '';
  const values: string[] = [];
  let bytes = 0;
  let any = false;
  for (const item of items) {
    const approved = guarded(item) ? item.approved : undefined;
    if (!approved) {
      tokens += NONE;
      continue;
    }
    any = true;
    const t = TOKENS[approved.by];
    if ('absent' in approved) tokens += t.absent;
    else if ('hash' in approved) tokens += kept(approved.hash, approved.by);
    else if (approved.value === null) tokens += t.blank;
    else if (item.value !== undefined && approved.value === item.value) tokens += t.same;
    else if ((bytes += utf8Bytes(JSON.stringify(approved.value)) + 1) <= APPROVED_KEPT_BYTES) {
      tokens += t.full;
      values.push(approved.value);
    } else tokens += kept(valueHash(approved.value), approved.by);
  }
  if (!any) return undefined;
  return values.length > 0 ? { tokens, values } : { tokens };
}

/** A hash as kept: upper case first for the preview's value, lower case for the export's own read. */
function kept(hash: string, by: ApprovedBy): string {
  return by === 'preview' ? hash : hash[0]!.toLowerCase() + hash.slice(1);
}

/** Puts kept approvals back on the items (read again from the same range: the same items in the same order). */
export function restoreApprovals(items: ExportItemState[], kept: KeptApprovals | undefined): void {
  if (!kept) return;
  let at = 0;
  let next = 0;
  for (const item of items) {
    const token = kept.tokens[at];
    if (token === undefined) return;
    if (/[A-Za-z]/.test(token)) {
      // A hash: its first letter's case says whose value it was.
      const by: ApprovedBy = token === token.toUpperCase() ? 'preview' : 'export';
      item.approved = { by, hash: token.toUpperCase() + kept.tokens.slice(at + 1, at + HASH_CHARS) };
      at += HASH_CHARS;
      continue;
    }
    at++;
    if (token === NONE) continue;
    const by: ApprovedBy = Object.values(TOKENS.preview).includes(token) ? 'preview' : 'export';
    const t = TOKENS[by];
    if (token === t.absent) item.approved = { by, absent: true };
    else if (token === t.blank) item.approved = { by, value: null };
    else if (token === t.same) item.approved = { by, value: item.value ?? null };
    else if (token === t.full) item.approved = { by, value: kept.values?.[next++] ?? null };
    else throw new Error(`Unknown approval token in a stored export: ${token}`);
  }
}

/**
 * Whether two decimal texts are the same number: "1.50" equals "1.5", "-0" equals "0", "1e3" equals
 * "1000". Compared as text after canonicalising, so no double ever rounds a difference away.
 */
export function sameDecimal(a: string, b: string): boolean {
  const left = canonicalDecimal(a);
  return left !== undefined && left === canonicalDecimal(b);
}

function canonicalDecimal(text: string): string | undefined {
  const normal = normaliseDecimal(text.trim());
  if (normal === undefined) return undefined;
  const trimmed = normal.includes('.') ? normal.replace(/0+$/, '').replace(/\.$/, '') : normal;
  return trimmed === '-0' ? '0' : trimmed;
}
