// What a push keeps between steps: which cells changed, one outcome code each, reasons where a cell failed or
// was skipped, and of the fund's schema only what pending cells need to become their writes again (so a step
// asks the API nothing before its first PUT). No copy of the cells: the sheet is read again each step and
// must still have the fingerprint it had.

import { fnv1a64 } from '../cache/chunked-cache';
import { fingerprints } from '../formulas/freeze';
import { carryJobFields, compactRecord, decodeRuns, encodeRuns } from '../jobs/compact-state';
import { keyOfCell } from './cell-values';
import { cellWrite, type WriteContext } from './cell-writes';
import type { AuditOption, AuditPushItem, AuditPushState, AuditSchema, AuditSheetRead, AuditWrite } from './types';
import { groupCells, pushItems } from './write-back';

/** The properties of the changed cells, and the options their pending writes name. */
type PushSchema = {
  /** [id, name, dataType] of every property a changed cell belongs to. */
  properties: Array<[string, string, string]>;
  /** Only the options pending writes name, enough to resolve their labels again. */
  options: Record<string, AuditOption[]>;
};

/**
 * `fingerprint`: sheetFingerprint of the audit sheet as prepared (a read with another one is not this push's
 * sheet); `codes`: one character per changed cell, see PUSH_CODES.
 */
export type CompactPushState = ReturnType<typeof compactRecord<AuditPushState, AuditPushItem>> &
  Pick<AuditPushState, 'cellsCompared' | 'unchanged' | 'ignoredRows' | 'problem' | 'notBefore' | 'rateLimitedSince' | 'retry'> & {
    /**
     * Which (profile, property) groups of the read (groupCells order) changed, ascending, as runs
     * "start+length" in base 36 joined by ','; one item a group, in this order.
     */
    cells: string;
    schema: PushSchema;
    /** Conflicts' [value at build, server's value] by item index; absent when none. */
    conflicts?: Record<string, [string | null, string]>;
    overwrite?: true;
  };

type Code = { outcome: AuditPushItem['outcome']; planned: boolean };

/** Each code's outcome and whether it was to be sent. */
export const PUSH_CODES: Readonly<Record<string, Code>> = {
  p: { outcome: 'pending', planned: true },
  C: { outcome: 'created', planned: true },
  U: { outcome: 'updated', planned: true },
  /** Refused by the API. */
  F: { outcome: 'failed', planned: true },
  /** Refused before sending (validation, a conflict, a property gone). */
  f: { outcome: 'failed', planned: false },
  S: { outcome: 'skipped', planned: false },
  /** Changed on the server since the build: held back (conflicts.ts). */
  X: { outcome: 'conflict', planned: true },
};

const CODE_OF: Record<AuditPushItem['outcome'], string> = { pending: 'p', created: 'C', updated: 'U', skipped: 'S', failed: 'F', conflict: 'X' };

function codeOf(item: AuditPushItem): string {
  return item.outcome === 'failed' && !item.planned ? 'f' : CODE_OF[item.outcome];
}

/** The audit sheet's values as one short hash, each cell in the canonical form Freeze compares by. */
export function sheetFingerprint(values: readonly (readonly unknown[])[]): string {
  return fnv1a64(fingerprints(values));
}

/** The ids an item's write names. */
function optionIds(write: AuditWrite | undefined): string[] {
  if (!write) return [];
  if ('portfolio_property_option_id' in write) return write.portfolio_property_option_id ? [write.portfolio_property_option_id] : [];
  if ('portfolio_property_option_ids' in write) return write.portfolio_property_option_ids;
  return [];
}

/** The push as stored at its start, from the read (with `fingerprint`) and schema it was prepared with. */
export function compactNewPush(state: AuditPushState, read: AuditSheetRead, fingerprint: string, schema: AuditSchema): CompactPushState {
  const groupOf = new Map(groupCells(read.cells).map((group, index) => [`${group[0]!.row}/${group[0]!.column}`, index]));
  const indexes = state.items.map((item) => {
    const index = groupOf.get(`${item.row}/${item.column}`);
    if (index === undefined) throw new Error('A changed cell is not a cell of the read it was prepared from.');
    return index;
  });
  const pushSchema: PushSchema = { properties: state.properties.map((property) => [property.id, property.name, property.dataType]), options: {} };
  for (const item of state.items) {
    const propertyId = state.properties[item.property]!.id;
    for (const id of optionIds(item.write)) {
      const known = (pushSchema.options[propertyId] ??= []);
      const option = schema.options[propertyId]?.find((candidate) => candidate.id === id);
      if (option && !known.some((candidate) => candidate.id === id)) known.push(option);
    }
  }
  return compactPush(state, { fingerprint, cells: encodeRuns(indexes), schema: pushSchema });
}

/** The push to store, with the parts that never change after its start carried over. */
export function compactPush(state: AuditPushState, kept: Pick<CompactPushState, 'fingerprint' | 'cells' | 'schema'>): CompactPushState {
  const compact: CompactPushState = {
    ...compactRecord(state, state.items, kept.fingerprint, state.items.map(codeOf).join('')),
    cellsCompared: state.cellsCompared,
    unchanged: state.unchanged,
    ignoredRows: [...state.ignoredRows],
    cells: kept.cells,
    schema: kept.schema,
  };
  const conflicts: Record<string, [string | null, string]> = {};
  state.items.forEach((item, index) => {
    if (item.conflict) conflicts[index] = [item.conflict.atBuild, item.conflict.server];
  });
  if (Object.keys(conflicts).length > 0) compact.conflicts = conflicts;
  if (state.overwrite) compact.overwrite = true;
  carryJobFields(state, compact);
  return compact;
}

/**
 * The full state again, from a fresh read of the sheet (whose values have `fingerprint`) and what was
 * stored; null when the read is not the push's sheet (it changed: its cells must not be sent as they now
 * are). A confirmed cell's code never turns pending again, so nothing confirmed is resent.
 */
export function expandPush(compact: CompactPushState, read: AuditSheetRead, fingerprint: string, dates: Omit<WriteContext, 'options'>): AuditPushState | null {
  const indexes = decodeRuns(compact.cells);
  const groups = groupCells(read.cells);
  if (
    fingerprint !== compact.fingerprint ||
    read.companyId !== compact.companyId ||
    indexes.length !== compact.codes.length ||
    indexes.some((index) => index >= groups.length)
  )
    return null;
  const schema = new Map(compact.schema.properties.map(([id, name, dataType]) => [id, { id, name, dataType }]));
  const listed = pushItems(read);
  const items = indexes.map((groupIndex, index): AuditPushItem => {
    const first = groups[groupIndex]![0]!;
    const code = PUSH_CODES[compact.codes[index]!];
    if (!code) throw new Error(`Unknown outcome code in a stored push: ${compact.codes[index]}`);
    const property = schema.get(first.propertyId) ?? { id: first.propertyId, name: '', dataType: '' };
    const item = listed.item(first, keyOfCell(first.value, dates.timeZone, dates.formatDate), property, code.outcome, code.planned);
    const reason = compact.reasonOf[index];
    if (reason !== undefined) item.reason = compact.reasons[reason]!;
    const conflict = compact.conflicts?.[index];
    if (conflict) item.conflict = { atBuild: conflict[0], server: conflict[1] };
    if (code.outcome === 'pending') {
      const write = cellWrite(first.value, { ...property, autoCalculated: false }, { options: compact.schema.options[property.id] ?? [], ...dates });
      // The same cell with the same options wrote the same body at the start: a refusal now is a bug, not the user's.
      if (!write.ok) throw new Error(`A pending cell no longer converts to its write: ${write.reason}`);
      item.write = write.write;
    }
    return item;
  });
  const state: AuditPushState = {
    version: 1,
    companyId: compact.companyId,
    status: compact.status,
    profiles: listed.profiles,
    properties: listed.properties,
    cellsCompared: compact.cellsCompared,
    unchanged: compact.unchanged,
    items,
    ignoredRows: [...compact.ignoredRows],
    counters: { ...compact.counters },
  };
  if (compact.overwrite) state.overwrite = true;
  carryJobFields(compact, state);
  return state;
}
