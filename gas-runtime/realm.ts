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

/**
 * JavaScript's own globals that scripts read by name in their inner loops. A vm context's global object has
 * interceptors (Node's link to the object given to createContext), so V8 cannot cache a global read in it:
 * every `Math`, `Object` or `JSON` a script names costs a call into Node, which made the built add-in's hashing
 * loops about twenty times slower than in plain Node (fnv1a64 over 4,300 cells, 53 times: 0.3 s in Node,
 * 7 s in a context). Not `eval` (a binding named eval makes a direct eval indirect), nor the non-configurable
 * `undefined`, `NaN` and `Infinity`.
 */
export const FAST_GLOBALS: readonly string[] = [
  'Object',
  'Function',
  'Array',
  'Number',
  'String',
  'Boolean',
  'Symbol',
  'BigInt',
  'Math',
  'JSON',
  'Reflect',
  'Proxy',
  'Date',
  'RegExp',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Promise',
  'Intl',
  'ArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
];

/**
 * The script that binds FAST_GLOBALS as lexical globals (`let Math = globalThis.Math`, ...) for `source`: its
 * reads of them then find the binding, which V8 reads fast, before the global object. They are the very same
 * values (the virtual Date included: it runs after that is installed), still properties of the global object,
 * and not among the script's functions (runtime.ts lists the global object's properties). Left out: a name the
 * source assigns (`Math = …` would then change what it reads as Math but not `globalThis.Math`). Null when the
 * source declares one of them at its top level, which would clash with the binding: a probe, the source with a
 * `throw` before its first statement, meets the clash (global declarations are made before any statement
 * runs) or the throw, and runs nothing of the source.
 */
export function fastGlobalsFor(source: string): vm.Script | null {
  // A test makes many runtimes of one bundle: the probe compiles it again (about 20 ms), once is enough.
  const known = fastGlobalsBySource.get(source);
  if (known !== undefined) return known;
  const script = probedFastGlobals(source);
  fastGlobalsBySource.set(source, script);
  return script;
}

const fastGlobalsBySource = new Map<string, vm.Script | null>();
const bindingSources = new WeakMap<vm.Script, string>();

/**
 * The binding script's own source, to hand to a worker thread with `fastGlobalsFrom`: the host probed the bundle
 * once, and a worker's fresh isolate need not run 48 searches of its source and a second compile of it again.
 */
export function fastGlobalsSource(script: vm.Script | null): string | null {
  return script === null ? null : (bindingSources.get(script) ?? null);
}

/** The binding script for `source`, its probe's verdict (`binding`, from fastGlobalsSource) already known. */
export function fastGlobalsFrom(source: string, binding: string | null): vm.Script | null {
  const known = fastGlobalsBySource.get(source);
  if (known !== undefined) return known;
  const script = binding === null ? null : bindingScript(binding);
  fastGlobalsBySource.set(source, script);
  return script;
}

function bindingScript(binding: string): vm.Script {
  const script = new vm.Script(binding, { filename: 'gas-runtime:fast-globals.js' });
  bindingSources.set(script, binding);
  return script;
}

function probedFastGlobals(source: string): vm.Script | null {
  const names = FAST_GLOBALS.filter((name) => !new RegExp(`(?<![.\\w$])${name}\\s*=(?![=>])`).test(source));
  if (names.length === 0) return null;
  const script = bindingScript(`let ${names.map((name) => `${name} = globalThis.${name}`).join(', ')};`);
  const probe = vm.createContext({});
  script.runInContext(probe);
  try {
    new vm.Script(`throw 'gas-runtime:probe';${source}`, { filename: 'gas-runtime:fast-globals-probe.js' }).runInContext(probe);
  } catch (thrown) {
    if (thrown === 'gas-runtime:probe') return script;
  }
  return null;
}

/** Creates an empty context (only JavaScript's built-ins, as in Apps Script) whose clock is `now`. */
export function createRealm(now: () => number, name: string, zonesIntlLacks: readonly string[] = [], fastGlobals: vm.Script | null = null): Realm {
  // Promise jobs run before the call returns, as an Apps Script execution finishes its own before it ends.
  const context = vm.createContext({}, { name, microtaskMode: 'afterEvaluate' });
  (installVirtualDate.runInContext(context) as (now: () => number) => void)(now);
  if (zonesIntlLacks.length > 0) (installZonelessIntl.runInContext(context) as (lacking: string[]) => void)([...zonesIntlLacks]);
  fastGlobals?.runInContext(context);
  const constructors = realmConstructors.runInContext(context) as Omit<Realm, 'context' | 'global'>;
  return { context, global: context as Record<string, unknown>, ...constructors };
}
