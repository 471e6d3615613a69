// The last push of a spreadsheet, kept for Undo (issue 27, item 4): what an audit push stored (with the ids
// and the server's value before each cell), the data points an export updated (with the value each
// replaced), and what else an export or import stored (for the list of what the API cannot undo). Kept in the user's properties, not in the sheet, so no editor of it can rewrite it; one
// record per user, not per spreadsheet, so the spreadsheets a person pushes from cannot fill the 500 KB store.

import { cellName } from '../core/audit';
import type { AuditPushItem, AuditPushState } from '../core/audit/types';
import type { ExportedPoint } from '../core/export';
import { newlySettled, type PushKind, type PushLogRow } from '../core/jobs/push-log';
import { forgetJob, loadJob, saveJob, spreadsheetId } from '../gas/job-store';
import { quoteSheetName } from '../gas/sheet-io';

const LAST_PUSH = 'last-push';
/** The record's one id: a push from another spreadsheet replaces it. */
const RECORD_ID = 'user';

/**
 * At most this many values of one push are kept for Undo, and listed: far inside the 500 KB the user's
 * properties hold in all, beside a running job's own state (300 KB at most). Beyond it, they are counted.
 */
export const KEPT_FOR_UNDO = 300;

/** A cell an audit push stored, as Undo needs it. */
export type PushedCell = {
  profileId: string;
  profileName: string;
  propertyId: string;
  what: string;
  /** Its 1-based position in the push's audit sheet: its address (auditCellAddress) is not kept per cell. */
  row: number;
  column: number;
  /** What the push wrote, as shown, and its snapshot key (what the server must still hold for Undo to restore). */
  shown: string;
  key: string;
  /** The server's value the push read just before writing; null when it did not read it (an overwrite push). */
  was: string | null;
  outcome: 'created' | 'updated';
};

/** The last push of this spreadsheet by this user. */
export type LastPush = {
  /** The spreadsheet it was pushed from: Undo in another one finds nothing. */
  spreadsheet: string;
  pushId: string;
  kind: PushKind;
  /** An export's or an import's rows of what it stored, but an export's updates (kept as `points`). */
  rows: Array<Omit<PushLogRow, 'who'>>;
  /** The data points an export updated, with the value each replaced: what Undo writes back. */
  points?: ExportedPoint[];
  /** The audit push's stored cells (the first KEPT_FOR_UNDO), with the ids Undo writes to. */
  audit?: { sheetName: string; companyId: string; cells: PushedCell[] };
  /** Values stored beyond KEPT_FOR_UNDO: neither restored nor listed, only counted. */
  notKept: number;
};

/** The last push of this user, when it was pushed from this spreadsheet. */
export function loadLastPush(): LastPush | null {
  const last = loadJob<LastPush>(LAST_PUSH, RECORD_ID);
  return last && last.spreadsheet === spreadsheetId() ? last : null;
}

/** Undo took it: a second Undo does not restore it again. */
export function forgetLastPush(): void {
  forgetJob(LAST_PUSH, RECORD_ID);
}

/** The record of push `pushId`: the stored one when it is that push's, else a new one (a newer push replaces the last). */
function lastPushOf(pushId: string, kind: PushKind): LastPush {
  const kept = loadLastPush();
  return kept && kept.pushId === pushId ? kept : { spreadsheet: spreadsheetId(), pushId, kind, rows: [], notKept: 0 };
}

/** Appends while the record holds fewer than KEPT_FOR_UNDO values in all, counting the rest. */
function keep<T>(list: T[], more: readonly T[], last: LastPush): void {
  const room = Math.max(0, KEPT_FOR_UNDO - last.rows.length - (last.points?.length ?? 0) - (last.audit?.cells.length ?? 0));
  list.push(...more.slice(0, room));
  last.notKept += Math.max(0, more.length - room);
}

/**
 * Keeps what an export's or an import's step stored, as the last push of this spreadsheet (the audit push
 * keeps its cells): an export's updates as `points` (what Undo restores), every other stored value as its row.
 */
export function rememberPushRows(pushId: string, rows: ReadonlyArray<Omit<PushLogRow, 'who'>>, points: readonly ExportedPoint[] = []): void {
  const asPoints = new Set(points.map((point) => point.cell));
  const stored = rows.filter((row) => (row.kind === 'Export' || row.kind.startsWith('Import')) && /^(created|updated|written)$/.test(row.outcome) && !asPoints.has(row.cell));
  if (stored.length === 0 && points.length === 0) return;
  const last = lastPushOf(pushId, stored[0]?.kind ?? 'Export');
  keep(last.rows, stored, last);
  if (points.length > 0) keep((last.points ??= []), points, last);
  saveJob(LAST_PUSH, RECORD_ID, last);
}

/**
 * The Pushes sheet's fields of one audit cell, the same for the push that wrote it and the undo that restores
 * it: "company › property", where it is, the server's value before (read by the wave, or a conflict's) and the
 * value sent.
 */
export function auditCellLogFields(sheetName: string, state: AuditPushState, item: AuditPushItem): Pick<PushLogRow, 'what' | 'period' | 'oldValue' | 'newValue' | 'cell'> {
  return {
    what: `${state.profiles[item.profile]?.name ?? ''} › ${state.properties[item.property]?.name ?? ''}`,
    period: '',
    oldValue: item.was ?? item.conflict?.server ?? null,
    newValue: item.shown,
    cell: auditCellAddress(sheetName, item.row, item.column),
  };
}

/** An audit cell's address as the Pushes sheet and Undo name it, like 'Portfolio audit'!D7. */
export function auditCellAddress(sheetName: string, row: number, column: number): string {
  return `${quoteSheetName(sheetName)}!${cellName(row, column)}`;
}

/** Keeps the cells an audit push's step stored, with the ids and the values before that Undo needs. */
export function rememberAuditCells(pushId: string, sheetName: string, before: AuditPushState, after: AuditPushState): void {
  const settled = newlySettled(before.items, after.items).filter((item): item is AuditPushItem & { outcome: 'created' | 'updated' } => item.outcome === 'created' || item.outcome === 'updated');
  if (settled.length === 0) return;
  const last = lastPushOf(pushId, after.overwrite ? 'Audit overwrite' : 'Audit push');
  last.audit ??= { sheetName, companyId: after.companyId, cells: [] };
  keep(last.audit.cells, settled.map((item): PushedCell => {
    const profile = after.profiles[item.profile]!;
    return {
      profileId: profile.id,
      profileName: profile.name,
      propertyId: after.properties[item.property]!.id,
      what: auditCellLogFields(sheetName, after, item).what,
      row: item.row,
      column: item.column,
      shown: item.shown,
      key: item.key,
      was: item.was ?? null,
      outcome: item.outcome,
    };
  }), last);
  saveJob(LAST_PUSH, RECORD_ID, last);
}
