// Apps Script enums: singletons compared by identity, whose toString() is their name.

/** One value of an Apps Script enum, e.g. `ScriptApp.AuthMode.FULL`. */
export class GasEnum {
  static readonly gasName = 'Enum';

  constructor(
    /** The enum's name, e.g. `AuthMode`; used in error messages. */
    readonly _enumName: string,
    readonly _name: string,
    readonly _ordinal: number,
  ) {}

  name(): string {
    return this._name;
  }

  ordinal(): number {
    return this._ordinal;
  }

  toString(): string {
    return this._name;
  }

  /** JSON.stringify(ScriptApp.AuthMode.FULL) gives "FULL" in Apps Script. */
  toJSON(): string {
    return this._name;
  }
}

/** The object holding an enum's values, e.g. `ScriptApp.AuthMode`; its values are its own properties. */
export class EnumNamespace<Name extends string = string> {
  static readonly gasName = 'EnumNamespace';
  readonly _values: ReadonlyMap<Name, GasEnum>;

  constructor(
    readonly _enumName: string,
    names: readonly Name[],
  ) {
    const values = new Map<Name, GasEnum>();
    names.forEach((name, ordinal) => {
      const value = new GasEnum(_enumName, name, ordinal);
      values.set(name, value);
      Object.defineProperty(this, name, { value, enumerable: true, configurable: true });
    });
    this._values = values;
  }

  /** The value named `name`; throws for a name the enum lacks (a bug in the runtime, not the script). */
  _get(name: Name): GasEnum {
    const value = this._values.get(name);
    if (!value) throw new Error(`${this._enumName} has no value ${name}`);
    return value;
  }

  toString(): string {
    return this._enumName;
  }
}

/** The enum value `value` stands for, when it is one of `namespace`'s; accepts the name as a string too. */
export function enumName<Name extends string>(namespace: EnumNamespace<Name>, value: unknown): Name | undefined {
  if (value instanceof GasEnum && value._enumName === namespace._enumName) return value._name as Name;
  if (typeof value === 'string' && namespace._values.has(value as Name)) return value as Name;
  return undefined;
}

export const AuthMode = new EnumNamespace('AuthMode', ['NONE', 'CUSTOM_FUNCTION', 'LIMITED', 'FULL'] as const);
export type AuthModeName = 'NONE' | 'CUSTOM_FUNCTION' | 'LIMITED' | 'FULL';

/** ScriptApp.EventType: "An enumeration denoting the type of triggered event." */
export const EventType = new EnumNamespace('EventType', ['CLOCK', 'ON_OPEN', 'ON_EDIT', 'ON_FORM_SUBMIT', 'ON_CHANGE', 'ON_EVENT_UPDATED'] as const);
/** ScriptApp.TriggerSource: "the source of the event that causes the trigger to fire". */
export const TriggerSource = new EnumNamespace('TriggerSource', ['SPREADSHEETS', 'CLOCK', 'FORMS', 'DOCUMENTS', 'CALENDAR'] as const);
/** ScriptApp.WeekDay (Base.Weekday), Sunday first as in Java's calendar. */
export const WeekDay = new EnumNamespace('Weekday', ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const);
export type WeekDayName = 'SUNDAY' | 'MONDAY' | 'TUESDAY' | 'WEDNESDAY' | 'THURSDAY' | 'FRIDAY' | 'SATURDAY';

/** ScriptApp.AuthorizationStatus: whether "the user needs to authorize this script to use one or more services". */
export const AuthorizationStatus = new EnumNamespace('AuthorizationStatus', ['REQUIRED', 'NOT_REQUIRED'] as const);
