// A profile's portfolio notes as a table for a sheet: a header row, then name, content, created at and id.

import type { PortfolioNote } from '../api/types';

/**
 * A cell of the table. Server-side only: Dates do not survive google.script.run. The server writes
 * the table through asSafeRows (sheets/cell-safety), so a note starting with = stays text.
 */
type PortfolioNoteCell = string | Date;

const PORTFOLIO_NOTES_HEADER: readonly string[] = ['Name', 'Content', 'Created at', 'Id'];

/**
 * One row per note, in the API's order (newest first), under a header row; no notes gives the header
 * alone. Text is shaped, not escaped: making it formula-safe is the writer's job.
 */
export function portfolioNotesTable(notes: readonly PortfolioNote[]): PortfolioNoteCell[][] {
  return [[...PORTFOLIO_NOTES_HEADER], ...notes.map((note) => [note.name ?? '', noteContent(note), createdAt(note.created_at), String(note.id ?? '')])];
}

/**
 * The note's text: `content` (the changelog removed `plaintext_content`), or the old field only when
 * `content` is absent, from a service still on the old shape. A null `content` is a note without text,
 * not a cue to show text from the old field that the service no longer stands behind.
 */
function noteContent(note: PortfolioNote): string {
  // The generated type marks content as always present.
  const content = (note as Partial<Pick<PortfolioNote, 'content'>>).content;
  if (content === undefined) return note.plaintext_content ?? '';
  return content ?? '';
}

/** An API date-time as a Date cell (Sheets shows it in the spreadsheet's time zone); unreadable text as it came. */
function createdAt(value: string | undefined): PortfolioNoteCell {
  if (!value) return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time);
}
