// Email addresses as people type them into sheets: the practical subset of RFC 5322 that mail systems accept.

import { quote } from '../../shared/words';

/** atext of RFC 5322 §3.2.3: the characters of a dot-atom local part. */
const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
/** A DNS label (RFC 1035, letters, digits and inner hyphens), at most 63 characters. */
const DOMAIN_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/**
 * Checks an address as a dot-atom local part, an @ and a domain name of at least two labels (RFC 5321
 * lengths: 64 before the @, 254 in all). Left out on purpose: quoted local parts, comments, IP-literal
 * domains and display names ("Jane <jane@example.com>"): valid in RFC 5322, but not what a contact's
 * email looks like, and a typo far more often than intended. Non-ASCII addresses are refused too,
 * since the API's format check (JSON Schema "email") refuses them.
 * Returns a reason naming the problem, or undefined when the address is fine.
 */
export function emailProblem(address: string): string | undefined {
  const shown = quote(address);
  // Copied from a mail client, an address often comes as "Jane <jane@example.com>": say so rather than "contains a space".
  if (/<[^<>]*@[^<>]*>$/.test(address)) return `the email ${shown} is in angle brackets: give the address alone, like jane@example.com`;
  if (/\s/.test(address)) return `the email ${shown} contains a space`;
  if (address.length > 254) return `the email ${shown} is longer than 254 characters`;
  const at = address.lastIndexOf('@');
  if (at < 0) return `the email ${shown} has no @`;
  if (address.indexOf('@') !== at) return `the email ${shown} has more than one @`;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local === '') return `the email ${shown} has nothing before the @`;
  if (domain === '') return `the email ${shown} has no domain after the @`;
  if (local.length > 64) return `the part before the @ in ${shown} is longer than 64 characters`;
  if (!local.split('.').every((atom) => LOCAL_ATOM.test(atom))) {
    return `the part before the @ in ${shown} is not valid (letters, digits and !#$%&'*+/=?^_\`{|}~- only, with dots between them)`;
  }
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) {
    return `the domain of ${shown} is not a domain name like example.com`;
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? '')) return `the domain of ${shown} ends in a number, not a name like .com`;
  return undefined;
}
