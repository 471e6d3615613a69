// A fresh vm context per execution, with a Date that reads the virtual clock, and handles on its constructors.

import vm from 'node:vm';

/** Constructors of the script's realm: values handed to the script must be made with these, not Node's. */
export interface Realm {
  readonly context: vm.Context;
  readonly global: Record<string, unknown>;
  readonly Error: ErrorConstructor;
  readonly TypeError: TypeErrorConstructor;
  readonly RangeError: RangeErrorConstructor;
  readonly Date: DateConstructor;
  readonly Array: ArrayConstructor;
  readonly Object: ObjectConstructor;
  readonly Function: FunctionConstructor;
}

/**
 * Replaces the context's Date with one whose `Date.now()`, `new Date()` and `Date()` read `now`.
 * It shares the original prototype, so every Date of the realm (including those `new Date(ms)` and
 * JSON revivers make) is still `instanceof Date`.
 */
const VIRTUAL_DATE_SOURCE = `(function (now) {
  'use strict';
  const RealDate = Date;
  function VirtualDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.defineProperty(VirtualDate, 'prototype', { value: RealDate.prototype, writable: false });
  Object.defineProperty(VirtualDate, 'name', { value: 'Date' });
  Object.defineProperty(VirtualDate, 'length', { value: 7 });
  VirtualDate.now = function now_() { return now(); };
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: VirtualDate, writable: true, configurable: true });
  Object.defineProperty(globalThis, 'Date', { value: VirtualDate, writable: true, configurable: true });
})`;

/**
 * Makes the context's Intl refuse some time zones, as a V8 built without them would (the register's
 * `intlKnowsZone` switch): Intl.DateTimeFormat and Date's toLocale*String throw V8's RangeError for them.
 */
const ZONELESS_INTL_SOURCE = `(function (lacking) {
  'use strict';
  const missing = new Set(lacking.map((zone) => zone.toLowerCase()));
  const check = (options) => {
    const zone = options && options.timeZone;
    if (zone !== undefined && missing.has(String(zone).toLowerCase())) throw new RangeError('Invalid time zone specified: ' + zone);
  };
  const RealFormat = Intl.DateTimeFormat;
  function DateTimeFormat(locales, options) {
    check(options);
    return new.target ? Reflect.construct(RealFormat, [locales, options], new.target) : RealFormat(locales, options);
  }
  Object.defineProperty(DateTimeFormat, 'prototype', { value: RealFormat.prototype, writable: false });
  DateTimeFormat.supportedLocalesOf = RealFormat.supportedLocalesOf;
  Object.defineProperty(Intl, 'DateTimeFormat', { value: DateTimeFormat, writable: true, configurable: true });
  for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
    const real = Date.prototype[name];
    Object.defineProperty(Date.prototype, name, { value: function (locales, options) { check(options); return real.call(this, locales, options); }, writable: true, configurable: true });
  }
})`;
const installZonelessIntl = new vm.Script(ZONELESS_INTL_SOURCE, { filename: 'gas-runtime:zoneless-intl.js' });

/** Compiled once: the same code installs the virtual Date in every context. */
const installVirtualDate = new vm.Script(VIRTUAL_DATE_SOURCE, { filename: 'gas-runtime:virtual-date.js' });
const realmConstructors = new vm.Script('({ Error, TypeError, RangeError, Date, Array, Object, Function })', { filename: 'gas-runtime:realm.js' });

/** Creates an empty context (only JavaScript's built-ins, as in Apps Script) whose clock is `now`. */
export function createRealm(now: () => number, name: string, zonesIntlLacks: readonly string[] = []): Realm {
  // Promise jobs run before the call returns, as an Apps Script execution finishes its own before it ends.
  const context = vm.createContext({}, { name, microtaskMode: 'afterEvaluate' });
  (installVirtualDate.runInContext(context) as (now: () => number) => void)(now);
  if (zonesIntlLacks.length > 0) (installZonelessIntl.runInContext(context) as (lacking: string[]) => void)([...zonesIntlLacks]);
  const constructors = realmConstructors.runInContext(context) as Omit<Realm, 'context' | 'global'>;
  return { context, global: context as Record<string, unknown>, ...constructors };
}
