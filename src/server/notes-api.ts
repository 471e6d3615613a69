// Notes from the sheet: one note to the contacts of the selected rows, and a profile's portfolio notes into cells.

import { InputError } from '../core/errors';
import { findContactHeader, planContactNote, portfolioNotesTable, sendContactNote, type ContactNoteReport } from '../core/directory';
import { countOf } from '../shared/words';
import { timeFormatIn } from '../core/sheets/number-formats';
import { requireUuid } from '../core/validate/uuid';
import { activeAnchor, selectedRowsOf, writeTable } from '../gas/sheet-io';
import { spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import type { ContactNoteRequest, InsertReport, NoteTagSummary } from '../shared/rpc';
import { sidebarClient } from './api-factory';

export function listNoteTags(companyId: string): NoteTagSummary[] {
  const tags = sidebarClient().notes.listTags(requireUuid(companyId, 'The company id'));
  return tags.map((tag) => ({ id: tag.id, name: tag.name }));
}

/**
 * Once to every contact whose id is in a selected row, under a "Contact id" (or "Id") header as the contact import
 * writes it: in the selection's first row, or the header row of the table holding the selection.
 */
export function addNoteToSelectedContacts(request: ContactNoteRequest): ContactNoteReport {
  const selection = selectedRowsOf();
  const { headerRow, column } = findContactHeader(selection.rowsToSelection);
  const fromRow = Math.max(selection.firstRow, headerRow + 1);
  if (fromRow > selection.lastRow) throw new InputError('Select the rows of the contacts (below the header row).');
  const cells = selection.cellsAt(column, fromRow).map((cell, i) => ({ sheetRow: fromRow + i, cell }));
  const plan = planContactNote(request, cells);
  // A POST is never retried blindly: the client does not repeat it after a lost answer.
  return sendContactNote(plan, sidebarClient());
}

export function insertPortfolioNotes(profileId: string): InsertReport {
  const id = requireUuid(profileId, 'The portfolio company profile id');
  const notes = sidebarClient().portfolio.listNotes(id);
  const anchor = activeAnchor();
  const rows = portfolioNotesTable(notes);
  // "Created at" (the third column) names the zone its time is shown in, as the Changes and Pushes sheets do.
  const createdAt = timeFormatIn(spreadsheetTimeZone());
  const range = writeTable(anchor, rows, { headerRows: 1, leftColumns: 2, rows: rows.slice(1).map(() => [createdAt]) });
  const count = rows.length - 1;
  return { range: `${anchor.sheetName}!${range}`, rows: count, message: `Wrote ${countOf(count, 'note')} to ${anchor.sheetName}!${range}.` };
}
