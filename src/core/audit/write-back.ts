// Write-back of an edited audit sheet: the cells that changed since the audit was built, each checked and turned
// into the body its property's type demands, planned as a push that steps send (run-push-step.ts).

import { InputError } from '../errors';
import { joinAnd } from '../../shared/words';
import { intlDateFormatter, type DateFormatter } from '../validate/dates';
import { encodeKey, isHashedKey, keyOfCell, shownValue } from './cell-values';
import { cellWrite, sameWrite, type WriteContext } from './cell-writes';
import { cellName } from './layout';
import { snapshotCells } from './snapshot';
import { isCutText } from './sheet-limits';
import type { AuditProfile, AuditProperty, AuditPushItem, AuditPushState, AuditSchema, AuditSheetCell, AuditSheetRead, AuditSnapshot } from './types';
import { resumeWaveJob } from '../jobs/job-state';

type AuditPushInput = {
  read: AuditSheetRead;
  /** As stored when the audit was built, or refreshed after the last push. */
  snapshot: AuditSnapshot;
  /** Read fresh (loadAuditSchema), so new labels resolve. */
  schema: AuditSchema;
  /** The spreadsheet's time zone: a Date cell is the calendar day it shows there. */
  timeZone: string;
  /** Apps Script passes Utilities.formatDate; Intl by default. */
  formatDate?: DateFormatter;
};

export const AUTO_CALCULATED_REASON = 'auto-calculated by the platform: edits here are not sent';
export const NOT_IN_AUDIT_REASON = 'not part of the audit when it was built: build the audit again to edit it';
export const CUT_VALUE_REASON =
  'the audit shows this value cut to fit a cell (50,000 characters), and sending the cell would lose the rest: edit it in the app';

/**
 * Compares every cell of the sheet with the snapshot and plans what to send. A cell is unchanged when its
 * key equals the snapshot's, or when it stores the same thing written another way (labels in another case
 * or order, "1.50" for 1.5). Throws an InputError when the sheet is another fund's audit than the snapshot's.
 */
export function prepareAuditPush(input: AuditPushInput): AuditPushState {
  const { read, snapshot, schema, timeZone } = input;
  const formatDate = input.formatDate ?? intlDateFormatter;
  if (read.companyId !== snapshot.companyId.toLowerCase()) {
    throw new InputError('This audit sheet belongs to another fund than the original values stored with it. Build the audit again.');
  }
  const original = snapshotCells(snapshot);
  const propertiesById = new Map(schema.properties.map((property) => [property.id.toLowerCase(), property]));
  const listed = pushItems(read);
  const items: AuditPushItem[] = [];
  let unchanged = 0;
  for (const group of groupCells(read.cells)) {
    const first = group[0]!;
    const property = propertiesById.get(first.propertyId);
    const context: WriteContext = { options: schema.options[first.propertyId] ?? [], timeZone, formatDate };
    const keys = group.map((cell) => keyOfCell(cell.value, timeZone, formatDate));
    const stored = original.keyOf(first.profileId, first.propertyId);
    const conflicting = new Set(keys).size > 1;
    const key = keys[0] ?? '';
    const same = stored === undefined ? key === '' : encodeKey(key) === stored || (!!property && equivalent(first.value, stored, property, context));
    if (!conflicting && same) {
      unchanged++;
      continue;
    }
    const item = listed.item(first, key, { id: first.propertyId, name: property?.name ?? '', dataType: property?.dataType ?? '' }, 'failed', false);
    items.push(item);
    if (conflicting) {
      item.reason = `the same company and property appear in ${joinAnd(group.map((cell) => cellName(cell.row, cell.column)))} with different values: keep one`;
    } else if (!property) {
      item.reason = 'the property no longer exists in this fund';
    } else if (stored === undefined) {
      item.outcome = 'skipped';
      item.reason = NOT_IN_AUDIT_REASON;
    } else if (property.autoCalculated) {
      item.outcome = 'skipped';
      item.reason = AUTO_CALCULATED_REASON;
    } else if (original.wasCut(first.profileId, first.propertyId) || isCutText(first.value)) {
      item.outcome = 'skipped';
      item.reason = CUT_VALUE_REASON;
    } else {
      const write = cellWrite(first.value, property, context);
      if (write.ok) {
        item.outcome = 'pending';
        item.write = write.write;
        item.planned = true;
      } else {
        item.reason = write.reason;
      }
    }
  }

  const state: AuditPushState = {
    version: 1,
    companyId: read.companyId,
    status: 'running',
    profiles: listed.profiles,
    properties: listed.properties,
    cellsCompared: items.length + unchanged,
    unchanged,
    items,
    ignoredRows: [...read.ignoredRows],
    counters: { steps: 0, stepsWithoutProgress: 0, requests: 0, rateLimitWaitMs: 0, retryWaitMs: 0 },
  };
  if (isPushComplete(state)) state.status = 'done';
  return state;
}

export function isPushComplete(state: AuditPushState): boolean {
  return !state.items.some((item) => item.outcome === 'pending');
}

/** Lets a cancelled or paused push run again; confirmed cells are never sent again. */
export function resumeAuditPush(state: AuditPushState): AuditPushState {
  return resumeWaveJob(state, isPushComplete);
}

/**
 * Whether the cell stores what the snapshot's key stored, written another way. Only a verbatim key can
 * tell (a hashed one is only ever equal or not); both must convert to a write for the property.
 */
function equivalent(cell: unknown, stored: string, property: AuditProperty, context: WriteContext): boolean {
  if (isHashedKey(stored)) return false;
  const now = cellWrite(cell, property, context);
  const before = cellWrite(stored, property, context);
  return now.ok && before.ok && sameWrite(now.write, before.write, property.dataType);
}

/** A push's items from cells of `read`, with each profile and property listed once (items refer to them by index). */
export function pushItems(read: AuditSheetRead) {
  const names = new Map(read.rows.map((row) => [row.profileId, row.name]));
  const profiles: AuditProfile[] = [];
  const properties: AuditPushState['properties'] = [];
  const profileIndex = listOnce(profiles);
  const propertyIndex = listOnce(properties);
  /** `key` is the cell's keyOfCell: the caller has it already (or works it out once) for its own comparison. */
  const item = (
    cell: AuditSheetCell,
    key: string,
    property: AuditPushState['properties'][number],
    outcome: AuditPushItem['outcome'],
    planned: boolean,
  ): AuditPushItem => ({
    profile: profileIndex({ id: cell.profileId, name: names.get(cell.profileId) ?? '' }),
    property: propertyIndex(property),
    row: cell.row,
    column: cell.column,
    shown: shownValue(cell.value, key),
    key: encodeKey(key),
    outcome,
    planned,
  });
  return { profiles, properties, item };
}

/** Adds an entry to `list` the first time its id comes, and gives its index. */
function listOnce<T extends { id: string }>(list: T[]): (entry: T) => number {
  const at = new Map<string, number>();
  return (entry) => {
    let index = at.get(entry.id);
    if (index === undefined) {
      index = list.push(entry) - 1;
      at.set(entry.id, index);
    }
    return index;
  };
}

/**
 * Cells by (profile, property), in sheet order. A row or a column copied by the user puts the same pair
 * in several cells: agreeing copies count once, disagreeing ones fail together.
 */
export function groupCells(cells: readonly AuditSheetCell[]): AuditSheetCell[][] {
  const groups = new Map<string, AuditSheetCell[]>();
  for (const cell of cells) {
    const id = `${cell.profileId}/${cell.propertyId}`;
    groups.set(id, [...(groups.get(id) ?? []), cell]);
  }
  return [...groups.values()];
}
