// What Undo of one push restores, from that push's journal alone: every value it replaced whose body was read
// just before the write, nothing for a value it sent unchanged, and, listed with its reason, what the API cannot
// undo. A value a later push wrote again is held back (restoring it would undo that later push too). Pure.

import { sameDecimal } from '../export/diff';
import { stored, targetKey, type JournalEntry, type PushJournal } from './journal';

/** Why a value the push created is not undone: the spec has no delete, and does not say a blank clears a value. */
export const CREATED_REASON =
  'the push created it (there was no value before): the API has no delete, and its description does not say a blank value clears one, so clear it in the web application';

/** Why a value that was blank before the push is not blanked again: the tail of CREATED_REASON. */
export const BLANK_BEFORE_REASON = `it was blank before the push: ${CREATED_REASON.slice(CREATED_REASON.indexOf('the API'))}`;

export const NOT_READ_REASON = 'the push sent it without reading the value it replaced, if any, and the API has no delete: check it in the web application';

export const IMPORT_CREATED_REASON =
  'the import created this record (it did not exist before), and the API cannot delete it: delete it in the web application if it is not wanted';

export const IMPORT_NOT_KEPT_REASON =
  'the import updated this existing profile without keeping the values it replaced: check them in the web application (it existed before the import: do not delete it)';

/** The part of a journal that says it was altered: its values are not restored from what is left of it. */
export const INCOMPLETE_REASON = "part of this push's journal was changed or removed in the sheet by someone else, so it is not trusted";

/** A value Undo does not restore, as the sidebar lists it. */
export type NotUndoneEntry = { what: string; period: string; cell: string; value: string; reason: string };

export type UndoPlan = {
  /** The entries to write back, in the push's order. */
  restore: JournalEntry[];
  /** Entries a later push wrote again, with that push: reported as conflicts, not written. */
  heldBack: Array<{ entry: JournalEntry; by: PushJournal }>;
  /** Values the push sent that the server already held ("unchanged, sent again"): nothing to undo. */
  nothingToUndo: number;
  notUndone: NotUndoneEntry[];
  /** Values (or records) the push stored. */
  storedCount: number;
};

/** What a target is, in the person's words: the metric, "company › property", or the record's name. */
export function describeTarget(entry: JournalEntry): { what: string; period: string } {
  const { target } = entry;
  switch (target.type) {
    case 'point':
      return { what: target.metricName, period: target.date };
    case 'cell':
      return { what: `${target.profileName} › ${target.propertyName}`, period: '' };
    case 'field':
      return { what: `${target.profileName} › ${target.field}`, period: '' };
    default:
      return { what: target.name, period: '' };
  }
}

function notUndone(entry: JournalEntry, reason: string): NotUndoneEntry {
  return { ...describeTarget(entry), cell: entry.cell, value: entry.written ?? '', reason };
}

function isBlankText(text: string | null | undefined): boolean {
  return text === null || text === undefined || text.trim() === '';
}

function isBlankBody(body: JournalEntry['replacedBody']): boolean {
  if (!body) return true;
  if ('value' in body) return body.value.trim() === '';
  if ('portfolio_property_option_id' in body) return !body.portfolio_property_option_id;
  return body.portfolio_property_option_ids.length === 0;
}

/** How Undo treats one stored entry: restore it, nothing to do, or a reason it cannot. */
function verdict(entry: JournalEntry): 'restore' | 'nothing' | string {
  const { target } = entry;
  switch (target.type) {
    case 'record':
      return IMPORT_CREATED_REASON;
    case 'field':
      if (entry.replacedField === undefined) return IMPORT_NOT_KEPT_REASON;
      return entry.replacedField === entry.writtenField ? 'nothing' : 'restore';
    case 'cell':
      if (entry.outcome === 'created') return CREATED_REASON;
      if (entry.replacedBody === undefined) return NOT_READ_REASON;
      if (isBlankBody(entry.replacedBody)) return BLANK_BEFORE_REASON;
      return JSON.stringify(entry.replacedBody) === JSON.stringify(entry.writtenBody) ? 'nothing' : 'restore';
    default:
      if (entry.outcome === 'created') return CREATED_REASON;
      if (entry.replaced === undefined) return NOT_READ_REASON;
      if (isBlankText(entry.replaced)) return BLANK_BEFORE_REASON;
      return entry.written !== null && sameDecimal(entry.replaced!, entry.written) ? 'nothing' : 'restore';
  }
}

/**
 * The undo of `push`, given the other journals (`others`: later pushes may have written its targets again;
 * undos of them may have restored those). An incomplete journal restores nothing: what is left of it may be
 * an editor's selection.
 */
export function planUndo(push: PushJournal, others: readonly PushJournal[]): UndoPlan {
  const plan: UndoPlan = { restore: [], heldBack: [], nothingToUndo: 0, notUndone: [], storedCount: 0 };
  const undoneTargets = new Map<string, Set<string>>();
  for (const undo of others) {
    if (!undo.undoes) continue;
    const targets = undoneTargets.get(undo.undoes) ?? new Set<string>();
    for (const entry of undo.entries) if (entry.outcome === 'updated' || entry.outcome === 'unchanged') targets.add(targetKey(entry.target));
    undoneTargets.set(undo.undoes, targets);
  }
  for (const entry of push.entries) {
    if (!stored(entry)) continue;
    plan.storedCount++;
    if (push.incomplete) {
      plan.notUndone.push(notUndone(entry, INCOMPLETE_REASON));
      continue;
    }
    const what = verdict(entry);
    if (what === 'nothing') {
      plan.nothingToUndo++;
      continue;
    }
    if (what !== 'restore') {
      plan.notUndone.push(notUndone(entry, what));
      continue;
    }
    const key = targetKey(entry.target);
    const later = others.find(
      (other) =>
        other.push !== push.push &&
        !other.undoes &&
        other.entries.some((their) => stored(their) && their.at > entry.at && targetKey(their.target) === key) &&
        !undoneTargets.get(other.push)?.has(key),
    );
    if (later) plan.heldBack.push({ entry, by: later });
    else plan.restore.push(entry);
  }
  return plan;
}
