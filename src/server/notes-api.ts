// Notes from the sheet: one note to the contacts of the selected rows, and a profile's portfolio notes into cells.

import { InputError } from '../core/api/errors';
import { findContactIdColumn, planContactNote, portfolioNotesTable, sendContactNote, type ContactNoteReport } from '../core/directory';
import { requireUuid } from '../core/validate/uuid';
import { activeAnchor, selectedRowsOf, writeTable } from '../gas/sheet-io';
import type { ContactNoteRequest, InsertReport, NoteTagSummary } from '../shared/rpc';
import { createClientForExecution } from './api-factory';

export function listNoteTags(companyId: string): NoteTagSummary[] {
  const tags = createClientForExecution({ maxTotalWaitMs: 60_000 }).notes.listTags(requireUuid(companyId, 'The company id'));
  return tags.map((tag) => ({ id: tag.id, name: tag.name }));
}

/**
 * The note goes once to every contact whose id is in a selected row, under a "Contact id" (or "Id")
 * header in the sheet's first row, as the contact import writes them.
 */
export function addNoteToSelectedContacts(request: ContactNoteRequest): ContactNoteReport {
  const selection = selectedRowsOf();
  const column = findContactIdColumn(selection.header);
  if (!column) throw new InputError('The sheet has no "Contact id" column in its first row: import the contacts first, or add the column.');
  if (!selection.rows.length) throw new InputError('Select the rows of the contacts (below the header row).');
  const cells = selection.cellsAt(column).map((cell, i) => ({ sheetRow: selection.rows[i]!, cell }));
  const plan = planContactNote({ content: request.content, noteTagId: request.noteTagId, skipRowsWithoutId: request.skipRowsWithoutId }, cells);
  // A POST is never retried blindly: the client does not repeat it after a lost answer.
  return sendContactNote(plan, createClientForExecution({ maxTotalWaitMs: 60_000 }));
}

export function insertPortfolioNotes(profileId: string): InsertReport {
  const id = requireUuid(profileId, 'The portfolio company profile id');
  const notes = createClientForExecution({ maxTotalWaitMs: 60_000 }).portfolio.listNotes(id);
  const anchor = activeAnchor();
  const rows = portfolioNotesTable(notes);
  const range = writeTable(anchor, rows);
  const count = rows.length - 1;
  return { range: `${anchor.sheetName}!${range}`, rows: count, message: `Wrote ${count} note${count === 1 ? '' : 's'} to ${anchor.sheetName}!${range}.` };
}
