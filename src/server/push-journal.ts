// Every push's journal (core/journal, kept by gas/journal-sheet): what each step of an export, an audit push or
// an import settled, appended under the push's id as the step ends, with the value written and the value it
// replaced in full. Undo (undo-api) reads it back; nothing of it is kept in the user's properties.
//
// The export's and the import's entries are built for their kinds' `journal` hook (export-api, import-api), which
// jobs-api appends after each step; the audit push's from its state (audit-api calls rememberAuditCells).

import { buildReport, metricLabel, type ExportState } from '../core/export';
import { cellName } from '../core/audit';
import type { JournaledItem } from '../core/audit/conflicts';
import type { AuditPushItem, AuditPushState } from '../core/audit/types';
import { stored, type FieldValue, type JournalEntry, type JournalOutcome } from '../core/journal/journal';
import { newlySettled, type PushLogRow } from '../core/jobs/push-log';
import { appendJournal } from '../gas/journal-sheet';
import { quoteSheetName } from '../gas/sheet-io';

/** An export as it steps (export-api's ExportRun): its request and state. */
type SteppedExport = { request: { range: string; companyId: string }; state: ExportState };

/**
 * A profile import's row as it steps, with what the import keeps of an update: `replaced`, the fields' values read
 * just before the write, and `written`, what it wrote to them (branch imports); without `written`, the body sent.
 */
type ProfileRow = {
  row: number;
  name: string;
  outcome: string;
  profileId?: string;
  body?: Record<string, unknown>;
  replaced?: Record<string, FieldValue>;
  /** What the update wrote to the fields it replaced (the same keys as `replaced`). */
  written?: Record<string, FieldValue>;
};
type ContactRow = { row: number; email: string; outcome: string; contactId?: string };

/** An import as it steps (import-api's StoredImport). */
type SteppedImport = {
  kind: 'profiles' | 'contacts';
  request: { companyId: string };
  sheetName: string;
  state: { origin: { row: number; column: number }; rows: Array<ProfileRow | ContactRow> };
};

/** What an export's item outcome is in the journal: an export's outcomes are the journal's, but pending. */
function exportOutcome(outcome: string): JournalOutcome {
  return outcome as JournalOutcome;
}

/** The entries of the items an export's step settled: the metric and date, the value sent, the value read before it (`previous`). */
export function exportEntries(before: SteppedExport, after: SteppedExport): JournalEntry[] {
  const sheet = after.request.range.slice(0, after.request.range.lastIndexOf('!'));
  const report = buildReport(after.state).items;
  // A "written" value whose read is no longer kept: the export's own report calls it "unchanged on the server,
  // sent again" when typed data was compared first (report.ts), so the journal says the same.
  const sentAgain = !after.state.spec.onlyChanged && after.state.counters.reads > 0;
  return newlySettled(
    before.state.items.map((item, index) => ({ outcome: item.outcome, index })),
    after.state.items.map((item, index) => ({ outcome: item.outcome, index })),
  ).flatMap(({ index }): JournalEntry[] => {
    const item = after.state.items[index]!;
    const metric = item.metric === null ? undefined : after.state.metrics[item.metric];
    if (!metric || item.date === undefined) return [];
    return [
      {
        target: { type: 'point', metricId: metric.id, metricName: metricLabel(metric), date: item.date },
        cell: `${sheet}!${report[index]!.cell}`,
        written: item.value ?? null,
        ...(item.previous !== undefined && item.outcome !== 'created'
          ? { replaced: item.previous }
          : item.outcome === 'written' && sentAgain
            ? { replaced: item.value ?? null }
            : {}),
        outcome: exportOutcome(item.outcome),
        ...(item.reason ? { reason: item.reason } : {}),
      },
    ];
  });
}

/**
 * The entries of the rows an import's step settled: a record it created, or each field of an existing profile
 * it updated with the value it replaced (`replaced`, when the import kept it; else one entry saying it did not).
 */
export function importEntries(before: SteppedImport, after: SteppedImport): JournalEntry[] {
  const column = after.state.origin.column;
  return newlySettled(before.state.rows, after.state.rows).flatMap((row): JournalEntry[] => {
    const index = after.state.rows.indexOf(row);
    // As the Pushes sheet names the row's first cell (import-api's addressOf), worked out without reading the sheet.
    const cell = auditCellAddress(after.sheetName, after.state.origin.row + row.row - 1, column);
    if (after.kind === 'contacts') {
      const contact = row as ContactRow;
      return contact.outcome === 'created' && contact.contactId
        ? [{ target: { type: 'record', record: 'contact', id: contact.contactId, name: contact.email }, cell, written: contact.contactId, outcome: 'created' }]
        : [];
    }
    const profile = row as ProfileRow;
    if (!profile.profileId) return [];
    if (profile.outcome === 'created')
      return [
        { target: { type: 'record', record: 'profile', id: profile.profileId, name: profile.name }, cell, written: profile.profileId, outcome: 'created' },
      ];
    if (profile.outcome !== 'updated') return [];
    const sent = (before.state.rows[index] as ProfileRow | undefined)?.body ?? {};
    const target = (field: string) => ({ type: 'field' as const, profileId: profile.profileId!, profileName: profile.name, field });
    if (!profile.replaced) return [{ target: target(''), cell, written: null, outcome: 'updated' }];
    return Object.entries(profile.replaced).map(([field, replaced]): JournalEntry => {
      const written = (profile.written && field in profile.written ? profile.written[field] : (sent[field] ?? null)) as FieldValue;
      return {
        target: target(field),
        cell,
        written: written === null ? null : String(written),
        replaced: replaced === null ? null : String(replaced),
        writtenField: written,
        replacedField: replaced,
        outcome: 'updated',
      };
    });
  });
}

/**
 * The Pushes sheet's fields of one audit cell, the same for the push that wrote it and the undo that restores
 * it: "company › property", where it is, the server's value read just before the write (or a conflict's), and
 * the value sent, both in full.
 */
export function auditCellLogFields(
  sheetName: string,
  state: AuditPushState,
  item: AuditPushItem,
): Pick<PushLogRow, 'what' | 'period' | 'oldValue' | 'newValue' | 'cell'> {
  const journaled = item as JournaledItem;
  return {
    what: `${state.profiles[item.profile]?.name ?? ''} › ${state.properties[item.property]?.name ?? ''}`,
    period: '',
    oldValue: item.was ?? item.conflict?.server ?? null,
    newValue: journaled.sentText ?? item.shown,
    cell: auditCellAddress(sheetName, item.row, item.column),
  };
}

/** An audit cell's address as the Pushes sheet and Undo name it, like 'Portfolio audit'!D7. */
export function auditCellAddress(sheetName: string, row: number, column: number): string {
  return `${quoteSheetName(sheetName)}!${cellName(row, column)}`;
}

/** The journal entries of the cells an audit push's (or an audit undo's) step settled. */
export function auditEntries(sheetName: string, before: AuditPushState, after: AuditPushState): JournalEntry[] {
  return newlySettled(before.items, after.items)
    .filter((item) => item.planned)
    .map((settled): JournalEntry => {
      const item = settled as JournaledItem;
      const profile = after.profiles[item.profile]!;
      const property = after.properties[item.property]!;
      return {
        target: {
          type: 'cell',
          profileId: profile.id,
          profileName: profile.name,
          propertyId: property.id,
          propertyName: property.name,
          dataType: property.dataType,
        },
        cell: auditCellAddress(sheetName, item.row, item.column),
        written: item.sentText ?? item.shown,
        ...(item.was !== undefined ? { replaced: item.was } : {}),
        ...(item.sent ? { writtenBody: item.sent } : {}),
        ...(item.before !== undefined ? { replacedBody: item.before } : {}),
        key: item.key,
        outcome: item.outcome === 'pending' ? 'failed' : item.outcome,
        ...(item.reason ? { reason: item.reason } : {}),
      };
    });
}

/** Appends what an audit push's step settled to its journal (the name is the record's before the journal: audit-api calls it). */
export function rememberAuditCells(pushId: string, sheetName: string, before: AuditPushState, after: AuditPushState): void {
  const entries = auditEntries(sheetName, before, after).filter(stored);
  if (entries.length > 0)
    appendJournal({ push: pushId, kind: after.overwrite ? 'Audit overwrite' : 'Audit push', sheetName, companyId: after.companyId }, entries);
}
