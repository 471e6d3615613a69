// Installable time-driven triggers: the table the Script service writes, the builders and Trigger objects
// the script sees, and when each trigger is due.
//
// Sources: ScriptApp, TriggerBuilder, ClockTriggerBuilder and Trigger references
// (developers.google.com/apps-script/reference/script/…), the installable triggers guide, the time-driven
// event object (guides/triggers/events), the add-on restrictions of "Triggers for Editor add-ons"
// (developers.google.com/workspace/add-ons/concepts/editor-triggers) and the quotas page.

import { createHash } from 'node:crypto';
import type { RuntimeClock } from './clock';
import { AuthMode, EventType, TriggerSource, WeekDay, enumName, type GasEnum, type WeekDayName } from './enums';
import { GasError } from './errors';
import type { Execution } from './execution';
import { EVERY_MINUTES_VALUES, MAX_TRIGGERS_PER_USER, NEAR_MINUTE_WINDOW_MS } from './limits';
import { Spreadsheet } from './spreadsheet/spreadsheet';
import { instantOf, wallClock } from './time-zone';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The real message public reports quote when a user's 21st trigger is created. */
export const TOO_MANY_TRIGGERS = 'This script has too many triggers. Triggers must be deleted from the script before more can be added.';

/** How often a clock trigger recurs, as its builder was told. */
export interface ClockSchedule {
  unit: 'minutes' | 'hours' | 'days' | 'weeks';
  every: number;
  /** everyDays/everyWeeks: the hour (0–23) of the script's time zone; default the hour the trigger was created (*unverified*). */
  atHour?: number;
  /** The minute (0–59) it runs near, ± 15 minutes; without it the whole hour is the window (atHour's "between 5am-6am"). */
  nearMinute?: number;
  /** everyWeeks/onWeekDay: the day; default the weekday the trigger was created (*unverified*). */
  weekDay?: WeekDayName;
  timeZone: string;
}

/** One installable trigger as the runtime keeps it (tests read these through `rt.triggers.list()`). */
export interface TriggerRecord {
  uniqueId: string;
  handlerFunction: string;
  eventType: 'CLOCK';
  /** Who created it: it runs as this user, and only this user sees it. */
  owner: string;
  /** The document it belongs to (add-ons: the file the add-on ran in); null for a script's own clock trigger. */
  documentId: string | null;
  schedule: ClockSchedule;
  createdAt: number;
  /** Virtual ms of the next run (a point inside its window). */
  nextRunAt: number;
}

interface Entry extends TriggerRecord {
  /** Index of the occurrence `nextRunAt` stands for. */
  occurrence: number;
}

/** Where the triggers live, shared by every execution (the host's, also for concurrent executions). */
export class TriggerTable {
  readonly #entries: Entry[] = [];
  #created = 0;

  constructor(
    readonly _scriptId: string,
    /** Editor add-on rules apply (one trigger of a kind per user per document, at most hourly). */
    readonly _addOn: boolean,
    readonly _clock: RuntimeClock,
  ) {}

  /** The live triggers, oldest first. */
  list(): TriggerRecord[] {
    return this.#entries.map(({ occurrence: _occurrence, ...record }) => ({ ...record, schedule: { ...record.schedule } }));
  }

  _entries(): readonly Entry[] {
    return this.#entries;
  }

  _find(uniqueId: string): Entry | undefined {
    return this.#entries.find((entry) => entry.uniqueId === uniqueId);
  }

  _create(handler: string, owner: string, documentId: string | null, schedule: ClockSchedule, now: number): Entry {
    const mine = this.#entries.filter((entry) => entry.owner === owner);
    // "Each add-on can only have one trigger of each type, per user, per document." The message is ours (*unverified*).
    if (this._addOn && mine.some((entry) => entry.eventType === 'CLOCK' && entry.documentId === documentId)) {
      throw new GasError('An add-on can only have one trigger of each type, per user, per document: this user already has a time-driven trigger here.');
    }
    if (mine.length >= MAX_TRIGGERS_PER_USER) throw new GasError(TOO_MANY_TRIGGERS);
    this.#created++;
    const digest = createHash('sha256').update(`${this._scriptId}:trigger:${this.#created}`).digest();
    // Apps Script's ids are decimal strings like "4034124084959907503".
    const uniqueId = ((digest.readBigUInt64BE(0) % 9_000_000_000_000_000_000n) + 1_000_000_000_000_000_000n).toString();
    const entry: Entry = { uniqueId, handlerFunction: handler, eventType: 'CLOCK', owner, documentId, schedule, createdAt: now, nextRunAt: 0, occurrence: 0 };
    entry.occurrence = firstOccurrence(entry);
    entry.nextRunAt = occurrenceAt(entry, entry.occurrence);
    this.#entries.push(entry);
    return entry;
  }

  _delete(uniqueId: string): boolean {
    const index = this.#entries.findIndex((entry) => entry.uniqueId === uniqueId);
    if (index < 0) return false;
    this.#entries.splice(index, 1);
    return true;
  }

  /** After a run: the first occurrence after both the one that ran and `now` (Apps Script does not replay missed runs; *unverified*). */
  _reschedule(entry: Entry, now: number): void {
    let occurrence = entry.occurrence + 1;
    while (occurrenceAt(entry, occurrence) <= now) occurrence++;
    entry.occurrence = occurrence;
    entry.nextRunAt = occurrenceAt(entry, occurrence);
  }

  /** After a stepped run: the next occurrence whatever the clock says, so `advance` replays each one in turn. */
  _step(entry: Entry): void {
    entry.occurrence++;
    entry.nextRunAt = occurrenceAt(entry, entry.occurrence);
  }
}

/** A stable point inside a window of `widthMs`: Apps Script picks one time and "keeps that timing consistent from day to day". */
function offsetInWindow(uniqueId: string, widthMs: number): number {
  if (widthMs <= 0) return 0;
  const digest = createHash('sha256').update(`window:${uniqueId}`).digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(Math.floor(widthMs / 1000))) * 1000;
}

/** Start and width of the window of a day or week trigger's `occurrence`-th run, on the wall clock of its zone. */
function calendarWindow(entry: TriggerRecord, occurrence: number): { start: number; width: number } {
  const { schedule } = entry;
  const created = wallClock(entry.createdAt, schedule.timeZone);
  let firstDay = 0;
  if (schedule.unit === 'weeks') {
    // WeekDay's ordinals count from Sunday, as the wall clock's weekday does.
    const target = schedule.weekDay === undefined ? created.weekday : WeekDay._get(schedule.weekDay)._ordinal;
    firstDay = (target - created.weekday + 7) % 7;
  }
  const days = firstDay + occurrence * schedule.every * (schedule.unit === 'weeks' ? 7 : 1);
  // Calendar days, so a daily trigger keeps its wall-clock hour across a change of daylight saving time.
  const date = new Date(Date.UTC(created.year, created.month - 1, created.day + days));
  const hour = schedule.atHour ?? created.hour;
  const hourStart = instantOf(
    { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), hour, minute: 0, second: 0, millisecond: 0 },
    schedule.timeZone,
  );
  if (schedule.nearMinute === undefined) return { start: hourStart, width: HOUR_MS };
  return { start: hourStart + schedule.nearMinute * MINUTE_MS - NEAR_MINUTE_WINDOW_MS, width: 2 * NEAR_MINUTE_WINDOW_MS };
}

/** When the `occurrence`-th run (0-based) of a trigger happens. */
function occurrenceAt(entry: TriggerRecord, occurrence: number): number {
  const { schedule } = entry;
  switch (schedule.unit) {
    case 'minutes':
      return entry.createdAt + (occurrence + 1) * schedule.every * MINUTE_MS;
    case 'hours': {
      const nominal = entry.createdAt + (occurrence + 1) * schedule.every * HOUR_MS;
      if (schedule.nearMinute === undefined) return nominal;
      const hourStart = nominal - (((nominal % HOUR_MS) + HOUR_MS) % HOUR_MS);
      return hourStart + schedule.nearMinute * MINUTE_MS - NEAR_MINUTE_WINDOW_MS + offsetInWindow(entry.uniqueId, 2 * NEAR_MINUTE_WINDOW_MS);
    }
    default: {
      const window = calendarWindow(entry, occurrence);
      return window.start + offsetInWindow(entry.uniqueId, window.width);
    }
  }
}

/** The first occurrence whose window opens after the trigger was created (a window already open is missed: the stricter reading, *unverified*). */
function firstOccurrence(entry: TriggerRecord): number {
  if (entry.schedule.unit === 'minutes' || entry.schedule.unit === 'hours') return 0;
  let occurrence = 0;
  while (calendarWindow(entry, occurrence).start < entry.createdAt) occurrence++;
  return occurrence;
}

/** ISO-8601 week number (1–53) of a wall-clock date. The reference says "Between 1 and 52" and names no rule (*unverified*). */
function isoWeek(year: number, month: number, day: number): number {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  return Math.ceil(((date.getTime() - yearStart) / DAY_MS + 1) / 7);
}

/** The time-driven event object (guides/triggers/events, "Time-driven events"), on the trigger's zone's wall clock. */
export function clockEvent(entry: TriggerRecord, at: number): Record<string, unknown> {
  const wall = wallClock(at, entry.schedule.timeZone);
  return {
    authMode: AuthMode._get('FULL'),
    'day-of-month': wall.day,
    // "Between 1 (Monday) and 7 (Sunday)."
    'day-of-week': wall.weekday === 0 ? 7 : wall.weekday,
    hour: wall.hour,
    minute: wall.minute,
    month: wall.month,
    second: wall.second,
    timezone: entry.schedule.timeZone,
    triggerUid: entry.uniqueId,
    'week-of-year': isoWeek(wall.year, wall.month, wall.day),
    year: wall.year,
  };
}

function requireInteger(value: unknown, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  // Apps Script's Java side takes an int; a fraction or out-of-range value is refused here (message ours, *unverified*).
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new GasError(`Invalid argument: ${what}`);
  }
  return value;
}

/** A Trigger as the script sees it. */
export class TriggerStandIn {
  static readonly gasName = 'Trigger';

  constructor(readonly _record: TriggerRecord) {}

  getUniqueId(): string {
    return this._record.uniqueId;
  }

  getHandlerFunction(): string {
    return this._record.handlerFunction;
  }

  getEventType(): GasEnum {
    return EventType._get(this._record.eventType);
  }

  getTriggerSource(): GasEnum {
    return TriggerSource._get('CLOCK');
  }

  /** "For clock events this returns null." */
  getTriggerSourceId(): string | null {
    return null;
  }
}

/** What a builder needs from the execution that uses it. */
export interface TriggerContext {
  table: TriggerTable;
  execution: Execution;
  spreadsheet: Spreadsheet;
  scriptTimeZone: string;
}

/** ScriptApp.newTrigger(name): only `timeBased()` is modelled; the document, form and calendar builders are loud gaps. */
export class TriggerBuilderStandIn {
  static readonly gasName = 'TriggerBuilder';

  constructor(
    readonly _context: TriggerContext,
    readonly _handler: string,
  ) {}

  timeBased(): ClockTriggerBuilderStandIn {
    return new ClockTriggerBuilderStandIn(this._context, this._handler);
  }
}

/**
 * ClockTriggerBuilder: everyMinutes/everyHours/everyDays/everyWeeks, atHour, nearMinute, onWeekDay, create.
 * `at`, `after`, `atDate`, `onMonthDay` and `inTimezone` are not modelled (loud gaps).
 */
export class ClockTriggerBuilderStandIn {
  static readonly gasName = 'ClockTriggerBuilder';
  _unit: ClockSchedule['unit'] | null = null;
  _every = 0;
  _atHour: number | undefined;
  _nearMinute: number | undefined;
  _weekDay: WeekDayName | undefined;

  constructor(
    readonly _context: TriggerContext,
    readonly _handler: string,
  ) {}

  #frequency(unit: ClockSchedule['unit'], n: unknown, name: string): this {
    // Two frequencies on one builder: the reference is silent; refusing is the stricter reading (*unverified*).
    if (this._unit !== null && !(this._unit === unit && unit === 'weeks')) {
      throw new GasError(`A time-based trigger takes one frequency; ${name} was called after another.`);
    }
    this._every = requireInteger(n, 'n', 1);
    this._unit = unit;
    return this;
  }

  everyMinutes(n: unknown): this {
    // Editor add-ons: "Time-driven triggers cannot run more frequently than once per hour." Refused here,
    // before create() (when Apps Script refuses, and its message, are *unverified*).
    if (this._context.table._addOn) {
      throw new GasError('Add-on time-driven triggers cannot run more frequently than once per hour: everyMinutes is not allowed in an add-on.');
    }
    if (typeof n !== 'number' || !EVERY_MINUTES_VALUES.includes(n)) throw new GasError('Invalid argument: n must be 1, 5, 10, 15 or 30');
    return this.#frequency('minutes', n, 'everyMinutes');
  }

  everyHours(n: unknown): this {
    return this.#frequency('hours', n, 'everyHours');
  }

  everyDays(n: unknown): this {
    return this.#frequency('days', n, 'everyDays');
  }

  everyWeeks(n: unknown): this {
    return this.#frequency('weeks', n, 'everyWeeks');
  }

  atHour(hour: unknown): this {
    this._atHour = requireInteger(hour, 'hour', 0, 23);
    return this;
  }

  nearMinute(minute: unknown): this {
    this._nearMinute = requireInteger(minute, 'minute', 0, 59);
    return this;
  }

  onWeekDay(day: unknown): this {
    const name = enumName(WeekDay, day);
    if (name === undefined) throw new GasError('Invalid argument: day');
    this._weekDay = name;
    return this;
  }

  create(): TriggerStandIn {
    const { table, execution, spreadsheet, scriptTimeZone } = this._context;
    // The reference example `.onWeekDay(FRIDAY).create()` makes a weekly trigger without everyWeeks.
    const unit = this._unit ?? (this._weekDay !== undefined ? 'weeks' : null);
    const every = this._unit === null ? 1 : this._every;
    // Messages below are ours; the reference only says "Frequency is required if you are using atHour() or nearMinute()" (*unverified*).
    if (unit === null) throw new GasError('A time-based trigger needs a frequency: call everyMinutes, everyHours, everyDays or everyWeeks (or onWeekDay).');
    if (this._atHour !== undefined && unit !== 'days' && unit !== 'weeks') throw new GasError('atHour() can only be used with everyDays() or everyWeeks().');
    if (this._nearMinute !== undefined && unit === 'minutes') throw new GasError('nearMinute() cannot be used with everyMinutes().');
    if (this._weekDay !== undefined && unit !== 'weeks') throw new GasError('onWeekDay() can only be used with everyWeeks().');
    // A trigger belongs to the user who created it ("Installable triggers always run under the account of the person who created them").
    const documentId = table._addOn ? spreadsheet.getId() : null;
    const schedule: ClockSchedule = {
      unit,
      every,
      ...(this._atHour !== undefined ? { atHour: this._atHour } : {}),
      ...(this._nearMinute !== undefined ? { nearMinute: this._nearMinute } : {}),
      ...(this._weekDay !== undefined ? { weekDay: this._weekDay } : {}),
      timeZone: scriptTimeZone,
    };
    return new TriggerStandIn(table._create(this._handler, execution.user, documentId, schedule, execution.now()));
  }
}

/** ScriptApp's trigger methods, for the user running the execution. */
export function newTrigger(context: TriggerContext, functionName: unknown): TriggerBuilderStandIn {
  if (typeof functionName !== 'string' || functionName === '') throw new GasError('Invalid argument: functionName');
  return new TriggerBuilderStandIn(context, functionName);
}

/** "Gets all installable triggers associated with the current project and current user." */
export function projectTriggers(context: TriggerContext): TriggerStandIn[] {
  return context.table
    ._entries()
    .filter((entry) => entry.owner === context.execution.user)
    .map((entry) => new TriggerStandIn(entry));
}

/** "Gets all installable triggers owned by this user in the given spreadsheet, for this script or add-on only." */
export function userTriggers(context: TriggerContext, document: unknown): TriggerStandIn[] {
  if (!(document instanceof Spreadsheet)) throw new GasError('Invalid argument: spreadsheet');
  const id = document.getId();
  return projectTriggers(context).filter((trigger) => trigger._record.documentId === id);
}

/** "Removes the given trigger so it no longer runs." Another user's or an already deleted trigger is refused (message ours, *unverified*). */
export function deleteTrigger(context: TriggerContext, trigger: unknown): void {
  if (!(trigger instanceof TriggerStandIn)) throw new GasError('Invalid argument: trigger');
  const entry = context.table._find(trigger._record.uniqueId);
  if (!entry || entry.owner !== context.execution.user) throw new GasError(`No trigger with id ${trigger._record.uniqueId} for this user.`);
  context.table._delete(entry.uniqueId);
}
