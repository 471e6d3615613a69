// The optional fields of a profile row, read from cells and checked before anything is sent.

import { isCurrencyCode, replacementOf } from '../validate/currency-codes';
import { isUuid } from '../validate/uuid';
import { cellText, isBlankCell, isClearMark, shown } from './cell-text';
import { isDateLike } from '../validate/dates';

/**
 * What a cell says about one optional field: nothing (blank: leave it as it is on update, absent on
 * create), clear it (the dash, see CLEAR_MARK), a value to send (with a note when the value was
 * tidied up, never silently), or a reason it cannot be sent.
 */
export type FieldRead<T> = { kind: 'absent' } | { kind: 'clear' } | { kind: 'value'; value: T; note?: string } | { kind: 'invalid'; reason: string };

/** The characters RFC 3986 allows in a URI; anything else (spaces, quotes, accents) must be percent-encoded. */
const URI_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** Text that is clearly a host and maybe a path, typed without its scheme: www.example.com/about. */
const BARE_HOST = /^(?:[A-Za-z0-9-]+\.)+[A-Za-z][A-Za-z0-9-]*(?::\d+)?(?:[/?#]\S*)?$/;
const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const IPV6_HOST = /^\[[0-9A-Fa-f:.]+\]$/;

/**
 * A website: an http or https URL with a host (the contract's uri format with an http(s) scheme).
 * Typed without a scheme (acme.com) it gets https:// with a note; an upper-case scheme is lowered,
 * since the API's check of the scheme is case-sensitive and the two mean the same.
 */
export function readWebsite(cell: unknown): FieldRead<string> {
  if (typeof cell === 'number') return invalid(`the website is the number ${cell}, not a web address`);
  const text = optionalText(cell, 'website');
  if ('kind' in text) return text;
  let url = text.value;
  let note: string | undefined;
  const scheme = SCHEME.exec(url)?.[1];
  // Checked before the scheme: "acme.example:8080" would otherwise read as the scheme "acme.example".
  if (!url.includes('://') && !url.includes('@') && BARE_HOST.test(url)) {
    url = `https://${url}`;
    note = 'https:// added to the website';
  } else if (scheme === undefined) {
    return invalid(`the website ${shown(url)} is not a web address like https://example.com`);
  } else if (/^https?$/i.test(scheme)) {
    url = scheme.toLowerCase() + url.slice(scheme.length);
  }
  // Any other scheme, or http: without the slashes, as typed.
  if (!url.startsWith('http://') && !url.startsWith('https://')) {
    return invalid(`the website ${shown(url)} is not a web address: it must start with http:// or https://`);
  }
  if (!URI_CHARS.test(url) || /%(?![0-9A-Fa-f]{2})/.test(url)) {
    return invalid(`the website ${shown(url)} holds characters a URL cannot (spaces, quotes, accents): percent-encode them`);
  }
  const authority = url.replace(/^https?:\/\//, '').split(/[/?#]/)[0] ?? '';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const portMatch = /:(\d*)$/.exec(hostAndPort);
  const host = portMatch ? hostAndPort.slice(0, portMatch.index) : hostAndPort;
  if (host === '') return invalid(`the website ${shown(url)} has no host`);
  if (portMatch && (portMatch[1] === '' || Number(portMatch[1]) > 65535)) return invalid(`the website ${shown(url)} has an invalid port`);
  if (!IPV6_HOST.test(host) && !host.split('.').every((label) => HOST_LABEL.test(label))) {
    return invalid(`the website ${shown(url)} has no valid host name (like example.com)`);
  }
  return note ? { kind: 'value', value: url, note } : { kind: 'value', value: url };
}

/**
 * A currency: an ISO 4217 code in use, checked against the list (currency-codes.ts), since the API
 * checks only that it is three letters and would store a typo. Lower case is accepted and upper-cased
 * with a note. `where` is the cell's address (D4), so the reason names the cell to correct.
 */
export function readCurrency(cell: unknown, where: string): FieldRead<string> {
  const at = ` in ${where}`;
  if (typeof cell === 'number') return invalid(`the currency${at} is the number ${cell}: give the three-letter code, like USD or EUR`);
  const text = optionalText(cell, 'currency');
  if ('kind' in text) return text;
  if (!/^[A-Za-z]{3}$/.test(text.value)) return invalid(`the currency ${shown(text.value)}${at} is not an ISO 4217 code: give three letters, like USD or EUR`);
  const code = text.value.toUpperCase();
  const replacement = replacementOf(code);
  if (replacement) return invalid(`the currency ${shown(text.value)}${at} was withdrawn from ISO 4217: use ${replacement}, which replaced it`);
  if (!isCurrencyCode(code))
    return invalid(`the currency ${shown(text.value)}${at} is not an ISO 4217 code in use: correct it to a current code, like USD, EUR or GBP`);
  return code === text.value ? { kind: 'value', value: code } : { kind: 'value', value: code, note: `currency ${shown(text.value)} upper-cased to ${code}` };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * A fiscal year end month: 1 to 12, from a number cell or text ("3", "03", "3.0"), or an English month
 * name, whole or in three letters ("March", "mar", "Sept."): unambiguous, and how people say it.
 * A date cell is refused rather than guessed at (Sheets turns "Mar 2024" into one).
 */
export function readMonth(cell: unknown): FieldRead<number> {
  const what = 'fiscal year end month';
  if (isDateLike(cell)) return invalid(`the ${what} is a date cell: give a month number from 1 to 12 or an English month name`);
  if (typeof cell === 'number') return monthNumber(cell, String(cell));
  const text = optionalText(cell, what);
  if ('kind' in text) return text;
  const value = text.value;
  if (/^\d+(?:\.\d*)?$/.test(value)) return monthNumber(Number(value), value);
  const word = value.toLowerCase().replace(/\.$/, '');
  const index = MONTHS.findIndex((name) => name === word || (word.length === 3 && name.startsWith(word)) || (word === 'sept' && name === 'september'));
  if (index >= 0) return { kind: 'value', value: index + 1 };
  return invalid(`the ${what} ${shown(value)} is not a month: give a number from 1 to 12 or an English month name`);
}

function monthNumber(value: number, text: string): FieldRead<number> {
  if (Number.isInteger(value) && value >= 1 && value <= 12) return { kind: 'value', value };
  return invalid(`the fiscal year end month ${shown(text)} is not a month number from 1 to 12`);
}

/** A primary contact: the contact's id (the API has no lookup by email, and the contact import writes ids into its sheet). */
export function readContactId(cell: unknown): FieldRead<string> {
  const text = optionalText(cell, 'primary contact');
  if ('kind' in text) return text;
  if (!isUuid(text.value)) {
    return invalid(`the primary contact ${shown(text.value)} is not a contact id (ids look like 123e4567-e89b-12d3-a456-426614174000)`);
  }
  return { kind: 'value', value: text.value.toLowerCase() };
}

/** Blank, the clear mark, a cell that is not text, or text to check further. */
function optionalText(cell: unknown, what: string): { value: string } | Exclude<FieldRead<never>, { kind: 'value' }> {
  if (isBlankCell(cell)) return { kind: 'absent' };
  if (isClearMark(cell)) return { kind: 'clear' };
  const text = cellText(cell, what);
  if ('reason' in text) return invalid(text.reason);
  return { value: text.text };
}

function invalid(reason: string): { kind: 'invalid'; reason: string } {
  return { kind: 'invalid', reason };
}
