// Option labels typed in a cell, resolved to option ids the way the API's label filter matches: whole label, any case.

import { joinAnd, quote } from '../../shared/words';
import type { AuditOption } from './types';

type LabelResolution = { ok: true; options: AuditOption[] } | { ok: false; reason: string };

/** Labels listed in a reason before "and N more". */
const LABELS_LISTED = 20;

/**
 * One label (select). Matched without regard to case or surrounding spaces; an exact match wins over a
 * match in another case, so options "AI" and "ai" stay apart.
 */
export function resolveLabel(text: string, options: readonly AuditOption[], propertyName: string): LabelResolution {
  const wanted = text.trim();
  const exact = options.filter((option) => option.label.trim() === wanted);
  const loose = exact.length > 0 ? exact : options.filter((option) => fold(option.label) === fold(wanted));
  if (loose.length === 1) return { ok: true, options: loose };
  if (loose.length > 1) return { ok: false, reason: `the label ${quote(wanted)} matches several options of ${propertyName}; ask an admin to rename one` };
  return { ok: false, reason: `unknown label ${quote(wanted)}: ${existingLabels(options, propertyName)}` };
}

/**
 * Several labels separated by commas (multiselect). A label may itself contain a comma, so at each
 * position the longest label that matches up to a comma (or the end) is taken first: with the options
 * "Hardware, IoT" and "Hardware", the text "Hardware, IoT, AI" reads as "Hardware, IoT" and "AI".
 * Text that matches no label up to the next comma is an unknown label. The result is in option order,
 * without repeats.
 */
export function resolveLabels(text: string, options: readonly AuditOption[], propertyName: string): LabelResolution {
  const candidates = options
    .map((option, order) => ({ option, folded: fold(option.label.trim()), order }))
    .filter((candidate) => candidate.folded !== '')
    .sort((a, b) => b.folded.length - a.folded.length || a.order - b.order);
  const folded = fold(text);
  const chosen = new Set<string>();
  const unknown: string[] = [];
  let at = 0;
  for (;;) {
    while (at < folded.length && (folded[at] === ',' || isSpace(folded[at]!))) at++;
    if (at >= folded.length) break;
    const match = candidates.find((candidate) => folded.startsWith(candidate.folded, at) && endsAtComma(folded, at + candidate.folded.length));
    if (match) {
      chosen.add(match.option.id);
      at = skipSpaces(folded, at + match.folded.length);
      continue;
    }
    const comma = folded.indexOf(',', at);
    const end = comma < 0 ? folded.length : comma;
    unknown.push(text.slice(at, end).trim());
    at = end;
  }
  if (unknown.length > 0) {
    const which = unknown.length === 1 ? `unknown label ${quote(unknown[0]!)}` : `unknown labels ${joinAnd(unknown.map(quote))}`;
    return { ok: false, reason: `${which}: ${existingLabels(options, propertyName)}` };
  }
  return { ok: true, options: options.filter((option) => chosen.has(option.id)) };
}

/** "the labels of Sector are "Fintech", "Healthcare" and "Energy"", cut after 20. */
function existingLabels(options: readonly AuditOption[], propertyName: string): string {
  if (options.length === 0) return `${propertyName} has no options`;
  return `the labels of ${propertyName} are ${joinAnd(
    options.map((option) => quote(option.label)),
    { limit: LABELS_LISTED },
  )}`;
}

/**
 * Case folding as the API's filter does it, character by character so that positions in the folded text
 * are positions in the original (a few characters, like "İ", grow when lower-cased; they are kept as they are).
 */
function fold(text: string): string {
  let folded = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    folded += lower.length === char.length ? lower : char;
  }
  return folded;
}

function isSpace(char: string): boolean {
  return /\s/.test(char);
}

function skipSpaces(text: string, at: number): number {
  let position = at;
  while (position < text.length && isSpace(text[position]!)) position++;
  return position;
}

function endsAtComma(text: string, at: number): boolean {
  const next = skipSpaces(text, at);
  return next >= text.length || text[next] === ',';
}
