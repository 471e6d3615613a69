// No lost update: before a wave of the audit push is sent, the server's values of its cells are read (one
// batched read, as the build reads them), and a cell someone changed there since the audit was built is held
// back as a conflict with both values, not written over.

import type { ApiClient } from '../api/client';
import { cellForValue, encodeKey, isHashedKey, keyOfCell, shownValue, type WrittenCell } from './cell-values';
import { cellWrite, sameWrite, type WriteContext } from './cell-writes';
import { storedValues, toOption } from './load-audit-data';
import type { AuditConflict, AuditOption, AuditProperty, AuditPushItem, AuditPushState, AuditStoredValue, AuditWrite } from './types';
import type { DateFormatter } from '../validate/dates';

/** Lower-case, no final period: it reads after "conflict: ". */
export const CONFLICT_REASON = 'changed on the server since the audit was built, so it was not sent and that change is kept';

/** What the push compares the server's values with. */
export type ConflictGuard = {
  /** The snapshot's key of a cell (as built, or as last pushed); undefined when the audit did not have it. */
  keyAtBuild(profileId: string, propertyId: string): string | undefined;
  timeZone: string;
  formatDate: DateFormatter;
};

type Dates = Pick<ConflictGuard, 'timeZone' | 'formatDate'>;

/** A server value as the audit shows it (labels for options), with its key and text for reports. */
export function serverCell(stored: AuditStoredValue | undefined, property: Omit<AuditProperty, 'autoCalculated'>, options: readonly AuditOption[], dates: Dates): WrittenCell & { key: string; shown: string } {
  const cell = cellForValue(stored, { ...property, autoCalculated: false }, options, dates.timeZone);
  const key = keyOfCell(cell.logical, dates.timeZone, dates.formatDate);
  return { ...cell, key, shown: shownValue(cell.logical, key) };
}

/**
 * The conflict of one cell, or null when the server still holds what the snapshot holds (or the same thing
 * written another way, like a label in another case after an earlier push), or already holds what the
 * person typed (nothing of anyone's is lost then).
 */
export function conflictOf(input: {
  atBuild: string;
  server: AuditStoredValue | undefined;
  typed: AuditWrite | undefined;
  property: Omit<AuditProperty, 'autoCalculated'>;
  options: readonly AuditOption[];
  dates: Dates;
}): AuditConflict | null {
  const { atBuild, property, options, dates } = input;
  const now = serverCell(input.server, property, options, dates);
  if (encodeKey(now.key) === atBuild) return null;
  const context: WriteContext = { options, ...dates };
  const asProperty = { ...property, autoCalculated: false };
  const serverWrite = cellWrite(now.logical, asProperty, context);
  if (serverWrite.ok && !isHashedKey(atBuild)) {
    const before = cellWrite(atBuild, asProperty, context);
    if (before.ok && sameWrite(serverWrite.write, before.write, property.dataType)) return null;
  }
  if (serverWrite.ok && input.typed && sameWrite(serverWrite.write, input.typed, property.dataType)) return null;
  return { atBuild: isHashedKey(atBuild) ? null : atBuild, server: now.shown };
}

/**
 * Reads the server's values of the wave's cells (the values of their profiles and the options of their
 * selects, together) and marks each cell changed there since the build as a conflict; returns the cells
 * still to send. Throws what the read throws: then nothing of the wave is sent.
 */
export function holdConflicts(state: AuditPushState, wave: readonly AuditPushItem[], client: ApiClient, guard: ConflictGuard): AuditPushItem[] {
  const profileIds = [...new Set(wave.map((item) => state.profiles[item.profile]!.id))];
  const properties = [...new Set(wave.map((item) => state.properties[item.property]!))];
  const withOptions = properties.filter((property) => property.dataType === 'select' || property.dataType === 'multiselect');
  const read = client.portfolio.listValuesAndOptions(profileIds, withOptions.map((property) => property.id));
  const options: Record<string, AuditOption[]> = Object.fromEntries(withOptions.map((property, index) => [property.id, (read.options[index] ?? []).map(toOption)]));
  const asProperties = properties.map((property) => ({ ...property, autoCalculated: false }));
  const values = new Map(profileIds.map((id, index) => [id, storedValues(read.values[index] ?? [], asProperties)]));
  const toSend: AuditPushItem[] = [];
  for (const item of wave) {
    const profileId = state.profiles[item.profile]!.id;
    const property = state.properties[item.property]!;
    const atBuild = guard.keyAtBuild(profileId, property.id);
    const conflict = atBuild === undefined ? null : conflictOf({
      atBuild,
      server: values.get(profileId)?.[property.id],
      typed: item.write,
      property,
      options: options[property.id] ?? [],
      dates: guard,
    });
    if (!conflict) {
      item.was = serverCell(values.get(profileId)?.[property.id], property, options[property.id] ?? [], guard).shown;
      toSend.push(item);
      continue;
    }
    item.outcome = 'conflict';
    item.reason = CONFLICT_REASON;
    item.conflict = conflict;
    delete item.write;
  }
  return toSend;
}


/** How a conflict note begins: only notes that begin so are cleared again by the add-in, never the person's own. */
export const CONFLICT_NOTE_PREFIX = 'Not pushed: changed on the server since the audit was built.';

/** The note a conflicting cell gets in the audit sheet: the three values side by side. */
export function conflictNote(conflict: AuditConflict, typed: string): string {
  const atBuild = conflict.atBuild === null ? '(longer than 16 characters: the audit keeps only a fingerprint of it)' : `"${conflict.atBuild}"`;
  return [
    CONFLICT_NOTE_PREFIX,
    `When built: ${atBuild}`,
    `On the server now: "${conflict.server}"`,
    `Typed here: "${typed}"`,
    'Push this cell again with "Overwrite these cells", or take the server\'s value, from the push\'s report in the sidebar.',
  ].join('\n');
}
