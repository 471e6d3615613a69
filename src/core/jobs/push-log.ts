// The rows of the "Pushes" sheet: one per value an export, an audit push or an import sent (or held back),
// with when, who, what, the value before and after, and the outcome. Pure; the writer is gas/changes-sheet.ts.
// It never holds the token: only names, values and the active user's email.

import { formatCount } from '../../shared/words';

export const PUSHES_SHEET = 'Pushes';

export const PUSHES_HEADER = ['Time', 'Who', 'Kind', 'What', 'Period', 'Old value', 'New value', 'Outcome', 'Cell', 'Push'] as const;

export type PushKind = 'Export' | 'Audit push' | 'Audit overwrite' | 'Import profiles' | 'Import contacts' | 'Undo';

export type PushLogRow = {
  /** ISO 8601: when the step that settled it ended. */
  time: string;
  /** The active user's email; '' when Google does not say (another domain's user, a consumer account). */
  who: string;
  kind: PushKind;
  /** The metric's name, "company › property", or the imported row's name or email. */
  what: string;
  /** The data point's date (exports); '' otherwise. */
  period: string;
  /** What the server held just before the write, in full, when the job read it; null when it did not. */
  oldValue: string | null;
  newValue: string | null;
  /** "updated", "created", "failed: <reason>", "conflict: <reason>". */
  outcome: string;
  /** Where in the spreadsheet, like 'Portfolio audit'!D7. */
  cell: string;
  /** The id of the push (its job) the row belongs to: "the last push" is the rows of one id. */
  push: string;
};

/** The reason of an undo's conflict: lower-case, no final period, so it reads after "conflict: ". */
export const UNDO_CONFLICT_REASON = 'changed on the server since the push, so the value before the push was not restored and that change is kept';

/** The characters a cell holds (Sheets refuses more: "Your input contains more than the maximum of 50000 characters in a single cell"). */
export const CELL_CHARACTERS = 50_000;

/**
 * A value as its cell shows it: whole when it fits; else its beginning, then where the whole value is (the push's
 * journal, which keeps every value in full, split across cells: `journal` names its sheet).
 */
export function fitValue(text: string | null, push: string, journal: string): string | null {
  if (text === null || text.length <= CELL_CHARACTERS) return text;
  const note = ` … [${formatCount(text.length)} characters in all: longer than a cell holds. The whole value is in the journal of Push ${push}, the hidden sheet "${journal}".]`;
  return `${text.slice(0, CELL_CHARACTERS - note.length - 1)}${note}`;
}

/** A row as the sheet holds it, in PUSHES_HEADER's order; `journal` names the sheet that keeps values too long for a cell. */
export function pushLogCells(row: PushLogRow, journal = 'journal'): Array<Date | string | null> {
  const texts = [
    row.who || null,
    row.kind,
    row.what,
    row.period || null,
    fitValue(row.oldValue, row.push, journal),
    fitValue(row.newValue, row.push, journal),
    row.outcome,
    row.cell,
    row.push,
  ].map(keepApostrophe);
  return [new Date(row.time), ...texts];
}

/**
 * Sheets takes a leading apostrophe as the mark that keeps the rest text, and drops it: doubled, the text
 * ('Portfolio audit'!D7, a value typed as 'quoted) is shown as it is.
 */
function keepApostrophe(text: string | null): string | null {
  return text?.startsWith("'") ? `'${text}` : text;
}

/** Items that settled between two reports of the same job (items in the same order): pending before, anything else after. */
export function newlySettled<T extends { outcome: string }>(before: readonly T[], after: readonly T[]): T[] {
  return after.filter((item, index) => before[index]?.outcome === 'pending' && item.outcome !== 'pending');
}

/** "failed: the value is too long", or the outcome alone when there is no reason. */
export function outcomeText(outcome: string, reason: string | null | undefined): string {
  return reason ? `${outcome}: ${reason}` : outcome;
}
