// One note for the contacts selected in a sheet: the POST /notes body from their id cells, sent once, with a report.

import { InputError } from '../errors';
import type { ApiClient } from '../api/client';
import type { NoteInput } from '../api/types';
import { joinAnd, quote } from '../../shared/words';
import { isUuid } from '../validate/uuid';
import { isBlankCell, shown } from './cell-text';
import { normaliseHeader } from './range-header';
import { classifyFailure } from '../jobs/classify-failure';

/** What the sidebar sends: the note as typed, and the tag chosen. */
export type ContactNoteDraft = {
  /** Plain text or Markdown, sent as typed. */
  content: string;
  /** A note tag's id; null or '' for none (the tag is optional). */
  noteTagId?: string | null;
  /** Send to the rows that have a contact id even when other selected rows have none. */
  skipRowsWithoutId?: boolean;
};

/** One selected row's contact id cell as getValues() read it: any value, so server-side only. */
export type ContactIdCell = { sheetRow: number; cell: unknown };

/**
 * - included: its contact gets the note.
 * - duplicate: its contact is already on an earlier selected row; it gets the note once.
 * - refused: no usable contact id; has a reason.
 */
type ContactNoteRowOutcome = 'included' | 'duplicate' | 'refused';

type ContactNoteRow = {
  sheetRow: number;
  contactId: string | null;
  outcome: ContactNoteRowOutcome;
  reason: string | null;
};

type ContactNotePlan = {
  /** The request body, or null when the note cannot be sent (see problems). */
  body: NoteInput | null;
  rows: ContactNoteRow[];
  /** Why the note cannot be sent, as sentences; empty when it can. */
  problems: string[];
  /** One sentence for the sidebar, like "The note goes to 3 contacts (rows 4 to 6)." */
  summary: string;
};

/**
 * - created: the API confirmed it (its answer shows `content` null right after creation, as the live
 *   service does: that is not a failure).
 * - not_sent: refused before sending, or the rate limit or settings stopped it; sending again is safe.
 * - failed: the API refused it; sending again as it is would fail again.
 * - unknown: no clear answer came back: it may have been created, so check before sending again.
 */
type ContactNoteOutcome = 'created' | 'not_sent' | 'failed' | 'unknown';

export type ContactNoteReport = {
  outcome: ContactNoteOutcome;
  noteId: string | null;
  /** Contacts the note went (or would have gone) to. */
  contactCount: number;
  /** Why it was not created; null when it was. */
  reason: string | null;
  summary: string;
  rows: ContactNoteRow[];
};

/** The column of a sheet's header row that holds contact ids ("Contact id", else "Id"), 1-based, or null. */
export function findContactIdColumn(headerRow: readonly unknown[]): number | null {
  const names = headerRow.map(normaliseHeader);
  for (const wanted of ['contact id', 'id']) {
    const index = names.indexOf(wanted);
    if (index >= 0) return index + 1;
  }
  return null;
}

/** Where a selection's contact ids are: the header row (1-based sheet row) and its "Contact id" column. */
type ContactHeader = { headerRow: number; column: number };

/**
 * The header row of the table a selection sits in, wherever that table starts: going up from the
 * selection's first row, the first row with a "Contact id" (or "Id") header. An empty row ends the table,
 * so another table's header above it is never taken. `rows` are the sheet's rows 1 to the selection's
 * first row, each from column 1.
 */
export function findContactHeader(rows: ReadonlyArray<ReadonlyArray<unknown>>): ContactHeader {
  const first = rows.length;
  for (let row = first; row >= 1; row--) {
    const cells = rows[row - 1] ?? [];
    if (cells.every(isBlankCell)) {
      if (row === first)
        throw new InputError(`Row ${first}, where the selection starts, is empty: select the rows of the contacts, with or without their header row.`);
      throw noHeader(row + 1, first);
    }
    const column = findContactIdColumn(cells);
    if (column !== null) return { headerRow: row, column };
  }
  throw noHeader(1, first);
}

function noHeader(tableStart: number, first: number): InputError {
  const where = tableStart === first ? `the selection's first row (row ${first})` : `the first row of the table holding the selection (row ${tableStart})`;
  return new InputError(
    `There is no "Contact id" column in ${where}: select rows of a contacts table whose header row has "Contact id" (the contact import adds it), or add the column.`,
  );
}

/**
 * Plans the note; nothing is sent. Every selected row must carry a contact id, unless the draft says to
 * skip those that do not; a contact selected twice gets the note once.
 */
export function planContactNote(draft: ContactNoteDraft, cells: readonly ContactIdCell[]): ContactNotePlan {
  const problems: string[] = [];
  const content = typeof draft.content === 'string' ? draft.content : '';
  if (content.trim() === '') problems.push('The note is empty: write its content.');
  const tag = typeof draft.noteTagId === 'string' ? draft.noteTagId.trim() : '';
  if (tag !== '' && !isUuid(tag)) problems.push(`The note tag ${quote(tag)} is not a note tag id: choose a tag in the list, or none.`);

  const seen = new Map<string, number>();
  const rows = cells.map(({ sheetRow, cell }): ContactNoteRow => {
    const refused = (reason: string): ContactNoteRow => ({ sheetRow, contactId: null, outcome: 'refused', reason });
    if (isBlankCell(cell)) return refused('no contact id in this row: create the contact first (the contact import writes its id)');
    const text = typeof cell === 'string' ? cell.trim() : cell;
    if (typeof text === 'string' && /^check:/i.test(text))
      return refused(`the id cell says ${quote(text)}: look the contact up in the app and paste its id first`);
    if (!isUuid(text)) return refused(`the id cell holds ${shown(cell)}, which is not a contact id`);
    const contactId = text.toLowerCase();
    const earlier = seen.get(contactId);
    if (earlier !== undefined) return { sheetRow, contactId, outcome: 'duplicate', reason: `same contact as row ${earlier}` };
    seen.set(contactId, sheetRow);
    return { sheetRow, contactId, outcome: 'included', reason: null };
  });

  const included = rows.filter((row) => row.outcome === 'included');
  const refused = rows.filter((row) => row.outcome === 'refused');
  if (rows.length === 0) problems.push('No rows are selected: select the rows of the contacts the note is for.');
  else if (included.length === 0) problems.push(`None of the selected rows has a contact id (${rowList(refused)}).`);
  else if (refused.length > 0 && !draft.skipRowsWithoutId) {
    problems.push(
      `${refused.length === 1 ? 'One selected row has' : `${refused.length} selected rows have`} no usable contact id (${rowList(refused)}): ` +
        `fix ${refused.length === 1 ? 'it' : 'them'}, or send the note to the other ${contactCount(included.length)} only.`,
    );
  }

  if (problems.length > 0) return { body: null, rows, problems, summary: problems.join(' ') };
  const body: NoteInput = { content, contact_ids: included.map((row) => row.contactId ?? '') };
  if (tag !== '') body.note_tag_id = tag.toLowerCase();
  const skipped = refused.length > 0 ? ` (${refused.length} selected ${refused.length === 1 ? 'row is' : 'rows are'} skipped: no contact id)` : '';
  return { body, rows, problems, summary: `The note goes to ${contactCount(included.length)}${skipped}.` };
}

/** Sends the planned note: one POST /notes, never repeated (a lost answer could mean the note exists). */
export function sendContactNote(plan: ContactNotePlan, client: ApiClient): ContactNoteReport {
  const count = plan.body?.contact_ids.length ?? 0;
  const report = (outcome: ContactNoteOutcome, reason: string | null, summary: string, noteId: string | null = null): ContactNoteReport => ({
    outcome,
    noteId,
    contactCount: count,
    reason,
    summary,
    rows: plan.rows,
  });
  if (!plan.body) return report('not_sent', plan.summary, `Not sent: ${plan.summary}`);
  try {
    const note = client.notes.create(plan.body);
    return report('created', null, `Note added to ${contactCount(count)}.`, note.id);
  } catch (error) {
    const failure = classifyFailure(error, 'import');
    switch (failure.kind) {
      case 'refused':
        return report('failed', failure.reason, `Not added: ${failure.reason}.`);
      case 'unknown':
        return report(
          'unknown',
          failure.message,
          `${failure.message} The note may have been added: look at one of the contacts in the app before sending it again.`,
        );
      case 'wait':
      case 'stop':
        return report('not_sent', failure.message, `Not sent: ${failure.message}`);
    }
  }
}

function contactCount(count: number): string {
  return `${count} ${count === 1 ? 'contact' : 'contacts'}`;
}

/** "rows 4 and 7", cut short past ten rows so a large selection cannot flood the sidebar. */
function rowList(rows: readonly ContactNoteRow[]): string {
  return `${rows.length === 1 ? 'row' : 'rows'} ${joinAnd(
    rows.map((row) => String(row.sheetRow)),
    { limit: 10 },
  )}`;
}
