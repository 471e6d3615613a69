// One journal per push: what each export, audit push, import and undo wrote, target by target, with the value
// written and the value it replaced in full, and the outcome. Appended step by step under the push's id, so it
// survives Cancel/Resume and pushes made in between; Undo reads it (never a copy of it in the job store).
// Pure: where it is kept and how its records are signed is gas/journal-sheet.ts (SECURITY.md, "The journal").

import type { AuditWrite } from '../audit/types';
import type { PushKind } from '../jobs/push-log';

/** What a journal entry wrote to. */
export type JournalTarget =
  /** A metric's data point (exports). */
  | { type: 'point'; metricId: string; metricName: string; date: string }
  /** A profile's property value (audit pushes). */
  | { type: 'cell'; profileId: string; profileName: string; propertyId: string; propertyName: string; dataType: string }
  /** A field of an existing profile (profile imports that updated it): `field` is the API's name, like website_url. */
  | { type: 'field'; profileId: string; profileName: string; field: string }
  /** A record the push created (profile and contact imports). */
  | { type: 'record'; record: 'profile' | 'contact'; id: string; name: string };

/**
 * What happened to one target. created / updated / written: stored (written: sent without the API saying which);
 * unchanged: the server held the value already (an undo: it held the value before); conflict, failed, skipped: not written.
 */
export type JournalOutcome = 'created' | 'updated' | 'written' | 'unchanged' | 'conflict' | 'failed' | 'skipped';

/** A profile field's value as the API answers and takes it. */
export type FieldValue = string | number | null;

export type JournalEntry = {
  target: JournalTarget;
  /** Where in the spreadsheet the value came from, as the Pushes sheet names it (Sheet1!B3); '' when nowhere. */
  cell: string;
  /** The value written, in full, as a person reads it (labels for options); null for none. */
  written: string | null;
  /** The value replaced, in full, read just before the write; null: none or blank; absent: not read. */
  replaced?: string | null;
  /** Audit cells: the body sent, and the body that writes the replaced value again (option ids, not labels); null: none. */
  writtenBody?: AuditWrite;
  replacedBody?: AuditWrite | null;
  /** Import fields: the value written and the one replaced, as the API took and gave them. */
  writtenField?: FieldValue;
  replacedField?: FieldValue;
  /** Audit cells: the snapshot key of what was written, which Undo finds on the server or calls a conflict. */
  key?: string;
  outcome: JournalOutcome;
  reason?: string;
};

/** One appended part of a push's journal: what one step settled. */
export type JournalRecord = {
  v: 1;
  /** The push's (its job's) id, as the Pushes sheet's Push column names it. */
  push: string;
  kind: PushKind;
  /** ISO 8601: when it was appended. */
  time: string;
  /** 0, 1, 2 … within the push: a missing number is a part someone removed or altered. */
  seq: number;
  /** An undo's: the push it undoes. */
  undoes?: string;
  /** An audit push's sheet and fund; an import's or export's fund. */
  sheetName?: string;
  companyId?: string;
  entries: JournalEntry[];
};

/** A push's journal, its parts put together. */
export type PushJournal = {
  push: string;
  kind: PushKind;
  /** ISO times of its first and last parts. */
  started: string;
  last: string;
  undoes?: string;
  sheetName?: string;
  companyId?: string;
  /** Every part's entries in order, each with its part's row in the journal (a larger row was written later). */
  entries: Array<JournalEntry & { at: number }>;
  /** A part is missing: someone deleted or altered a row of it, which is then not trusted. */
  incomplete: boolean;
};

/** One target's identity: the same for the push that wrote it, a later push that wrote it again, and the undo. */
export function targetKey(target: JournalTarget): string {
  switch (target.type) {
    case 'point':
      return `point/${target.metricId.toLowerCase()}/${target.date}`;
    case 'cell':
      return `cell/${target.profileId.toLowerCase()}/${target.propertyId.toLowerCase()}`;
    case 'field':
      return `field/${target.profileId.toLowerCase()}/${target.field}`;
    default:
      return `record/${target.record}/${target.id.toLowerCase()}`;
  }
}

/** Whether the entry stored something (what a later push's entry must have done to hold an earlier undo back). */
export function stored(entry: JournalEntry): boolean {
  return entry.outcome === 'created' || entry.outcome === 'updated' || entry.outcome === 'written';
}

/** A record as read back, with its place in the journal: rows are appended, so a later row was written later. */
export type PlacedRecord = { record: JournalRecord; row: number };

/**
 * The journals of every push, from the records that verified, newest activity first. Records of one push are
 * put in `seq` order; the same record twice (a copied row) counts once.
 */
export function pushJournals(records: readonly PlacedRecord[]): PushJournal[] {
  const byPush = new Map<string, PlacedRecord[]>();
  for (const placed of records) byPush.set(placed.record.push, [...(byPush.get(placed.record.push) ?? []), placed]);
  const journals: Array<PushJournal & { lastRow: number }> = [];
  for (const [push, parts] of byPush) {
    const bySeq = new Map<number, PlacedRecord>();
    for (const part of parts) if (!bySeq.has(part.record.seq)) bySeq.set(part.record.seq, part);
    const ordered = [...bySeq.values()].sort((a, b) => a.record.seq - b.record.seq);
    const first = ordered[0]!.record;
    const times = ordered.map((part) => part.record.time).sort();
    const named = <K extends 'sheetName' | 'companyId'>(key: K) => ordered.find((part) => part.record[key])?.record[key];
    const sheetName = named('sheetName');
    const companyId = named('companyId');
    journals.push({
      push,
      kind: first.kind,
      started: times[0]!,
      last: times[times.length - 1]!,
      ...(first.undoes ? { undoes: first.undoes } : {}),
      ...(sheetName ? { sheetName } : {}),
      ...(companyId ? { companyId } : {}),
      entries: ordered.flatMap((part) => part.record.entries.map((entry) => ({ ...entry, at: part.row }))),
      incomplete: ordered.some((part, index) => part.record.seq !== index),
      lastRow: Math.max(...ordered.map((part) => part.row)),
    });
  }
  return journals.sort((a, b) => b.lastRow - a.lastRow).map(({ lastRow: _row, ...journal }) => journal);
}

/** Splits entries into records of at most `maxChars` of JSON each (one entry larger than that still makes one record). */
export function packEntries(entries: readonly JournalEntry[], maxChars: number): JournalEntry[][] {
  const packs: JournalEntry[][] = [];
  let current: JournalEntry[] = [];
  let size = 0;
  for (const entry of entries) {
    const length = JSON.stringify(entry).length + 1;
    if (current.length > 0 && size + length > maxChars) {
      packs.push(current);
      current = [];
      size = 0;
    }
    current.push(entry);
    size += length;
  }
  if (current.length > 0) packs.push(current);
  return packs;
}

/** Text cut into pieces of at most `size` characters, never dropping any: a cell holds 50,000. */
export function splitText(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length ? parts : [''];
}

/** A record read back from its text, or null when it is not one (a row someone typed). */
export function parseRecord(text: string): JournalRecord | null {
  try {
    const record = JSON.parse(text) as JournalRecord;
    return record && record.v === 1 && typeof record.push === 'string' && typeof record.seq === 'number' && Array.isArray(record.entries) ? record : null;
  } catch {
    return null;
  }
}
