// No lost update: before a wave of the audit push is sent, the server's values of its cells are read (one
// batched read, as the build reads them), and a cell someone changed there since the audit was built is held
// back as a conflict with both values, not written over. The same read gives each cell the value it replaces,
// in full and as the API body that writes it again (option ids, not labels): the push's journal keeps both,
// and Undo writes that body back (core/journal).

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
  /** The conflict's reason, when the comparison is not with the build (an undo compares with what the push wrote). */
  reason?: string;
};

type Dates = Pick<ConflictGuard, 'timeZone' | 'formatDate'>;

/** A pushed cell as its journal needs it: what the read found before the write, and what was sent, in full. */
export type JournaledItem = AuditPushItem & {
  /** The body that writes the replaced value again; null when there was none (or a blank). */
  before?: AuditWrite | null;
  /** What the cell's write stores, as a person reads it (labels for options), in full. */
  sentText?: string;
  /** The body sent, kept once confirmed (the step drops `write`). */
  sent?: AuditWrite;
};

/** The API body that stores `stored` again: its option ids for a select or multiselect, else its `value` text. */
export function storedBody(stored: AuditStoredValue | undefined, dataType: string): AuditWrite | null {
  if (!stored) return null;
  if (dataType === 'select') return stored.optionIds.length > 0 ? { portfolio_property_option_id: stored.optionIds[0]! } : null;
  if (dataType === 'multiselect') return stored.optionIds.length > 0 ? { portfolio_property_option_ids: [...stored.optionIds] } : null;
  const { value } = stored;
  if (value === null || value === undefined) return null;
  const text = Array.isArray(value) ? value.join(', ') : typeof value === 'number' ? String(value) : value;
  return text === '' ? null : { value: text };
}

/** A body as a person reads it, in full: the value text, or the options' labels (an id the options do not list, as it is). */
export function bodyText(body: AuditWrite | null | undefined, options: readonly AuditOption[]): string {
  if (!body) return '';
  const label = (id: string) => options.find((option) => option.id === id.toLowerCase())?.label ?? id;
  if ('value' in body) return body.value;
  if ('portfolio_property_option_id' in body) return body.portfolio_property_option_id ? label(body.portfolio_property_option_id) : '';
  return body.portfolio_property_option_ids.map(label).join(', ');
}

/** A server value as the audit shows it (labels for options), with its key and text for reports. */
export function serverCell(
  stored: AuditStoredValue | undefined,
  property: Omit<AuditProperty, 'autoCalculated'>,
  options: readonly AuditOption[],
  dates: Dates,
): WrittenCell & { key: string; shown: string } {
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
 * selects, together), gives each cell the value it replaces (JournaledItem), and, when `compare` (not for the
 * explicit overwrite of conflicts), marks each cell changed there since the build as a conflict; returns the
 * cells still to send. Throws what the read throws: then nothing of the wave is sent.
 */
export function holdConflicts(state: AuditPushState, wave: readonly AuditPushItem[], client: ApiClient, guard: ConflictGuard, compare = true): AuditPushItem[] {
  const profileIds = [...new Set(wave.map((item) => state.profiles[item.profile]!.id))];
  const properties = [...new Set(wave.map((item) => state.properties[item.property]!))];
  const withOptions = properties.filter((property) => property.dataType === 'select' || property.dataType === 'multiselect');
  const read = client.portfolio.listValuesAndOptions(
    profileIds,
    withOptions.map((property) => property.id),
  );
  const options: Record<string, AuditOption[]> = Object.fromEntries(
    withOptions.map((property, index) => [property.id, (read.options[index] ?? []).map(toOption)]),
  );
  const asProperties = properties.map((property) => ({ ...property, autoCalculated: false }));
  const values = new Map(profileIds.map((id, index) => [id, storedValues(read.values[index] ?? [], asProperties)]));
  const toSend: AuditPushItem[] = [];
  for (const item of wave as JournaledItem[]) {
    const profileId = state.profiles[item.profile]!.id;
    const property = state.properties[item.property]!;
    const server = values.get(profileId)?.[property.id];
    item.before = storedBody(server, property.dataType);
    item.was = bodyText(item.before, options[property.id] ?? []);
    const atBuild = compare ? guard.keyAtBuild(profileId, property.id) : undefined;
    const conflict =
      atBuild === undefined
        ? null
        : conflictOf({
            atBuild,
            server,
            typed: item.write,
            property,
            options: options[property.id] ?? [],
            dates: guard,
          });
    if (!conflict) {
      item.sentText = bodyText(item.write, options[property.id] ?? []);
      toSend.push(item);
      continue;
    }
    item.outcome = 'conflict';
    item.reason = guard.reason ?? CONFLICT_REASON;
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
