// The boundary between the script's realm and the stand-in services: converts values, errors and missing members.
//
// Every service object the script touches is a Proxy made here. A call through it checks the time
// limit and the auth mode, converts the arguments to Node values, runs the stand-in, and converts the
// result back into the script's realm (its own Date, Array, Object), so `instanceof` checks in the
// script behave as in Apps Script. A member the stand-in lacks throws at once, naming it: a gap in
// the runtime is loud, never a silent `undefined`.

import { types } from 'node:util';
import { GasError, GasRuntimeUsageError, notImplemented } from './errors';
import type { Execution } from './execution';
import { checkAccess, customFunctionRefusal } from './permissions';
import type { Realm } from './realm';

/** Members engines and libraries probe for on any object; answering `undefined` is what Apps Script does too. */
const PROBED_MEMBERS = new Set(['then', 'toJSON', 'asymmetricMatch', 'nodeType', '$$typeof', 'inspect', 'constructor']);

type AnyFunction = (...args: unknown[]) => unknown;

/** A stand-in class may name itself for messages (`static gasName = 'Range'`) and accept expando properties. */
interface GasClass {
  gasName?: string;
  acceptsExpandos?: boolean;
}

/** Objects whose class accepts expandos keep what the script assigns here (HtmlTemplate's variables). */
export interface ExpandoHolder {
  _expandos: Map<string, unknown>;
}

function gasClassOf(target: object): GasClass & { name: string } {
  return (Object.getPrototypeOf(target) as { constructor: GasClass & { name: string } }).constructor;
}

/** The name Apps Script uses for a stand-in's class, e.g. `Range`; an instance may carry its own (`_gasName`). */
export function gasClassName(target: object): string {
  const own = (target as { _gasName?: unknown })._gasName;
  if (typeof own === 'string') return own;
  const cls = gasClassOf(target);
  return cls.gasName ?? cls.name;
}

function isPlainHostObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export class Membrane {
  readonly #proxies = new WeakMap<object, object>();
  readonly #targets = new WeakMap<object, object>();
  readonly #methods = new WeakMap<object, Map<string, AnyFunction>>();

  constructor(
    readonly realm: Realm,
    readonly execution: Execution,
  ) {}

  /** A Node value as the script should receive it. */
  toScript(value: unknown): unknown {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    if (this.#targets.has(value) || this.#isScriptValue(value)) return value;
    if (types.isDate(value)) return new this.realm.Date((value as Date).getTime());
    if (Array.isArray(value)) {
      const array = new this.realm.Array<unknown>();
      for (const item of value) array.push(this.toScript(item));
      return array;
    }
    if (typeof value === 'function') return this.#wrapFunction(value as AnyFunction, undefined, 'function', 'call');
    if (isPlainHostObject(value)) {
      const object = new this.realm.Object() as Record<string, unknown>;
      for (const [key, item] of Object.entries(value)) object[key] = this.toScript(item);
      return object;
    }
    return this.wrap(value);
  }

  /** A script value as the stand-ins expect it: Node Dates, arrays and objects; proxies become their targets. */
  toHost(value: unknown, seen = new Map<object, unknown>()): unknown {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
    const target = this.#targets.get(value);
    if (target) return target;
    if (typeof value === 'function') return value;
    if (types.isDate(value)) return new Date((value as Date).getTime());
    const copied = seen.get(value);
    if (copied !== undefined) return copied;
    if (Array.isArray(value)) {
      const array: unknown[] = [];
      seen.set(value, array);
      for (let i = 0; i < value.length; i++) array.push(this.toHost(value[i], seen));
      return array;
    }
    const object: Record<string, unknown> = {};
    seen.set(value, object);
    for (const [key, item] of Object.entries(value)) object[key] = this.toHost(item, seen);
    return object;
  }

  /** True for an object the script's realm made (its own arrays, objects, functions). */
  #isScriptValue(value: object): boolean {
    return value instanceof this.realm.Object;
  }

  /** An error thrown by a stand-in, re-created in the script's realm with Apps Script's name and message. */
  toScriptError(error: unknown): unknown {
    if (error instanceof this.realm.Error) return error;
    if (!(error instanceof Error)) return error;
    const name = error instanceof GasError ? error.gasName : error.name;
    const Constructor = name === 'TypeError' ? this.realm.TypeError : name === 'RangeError' ? this.realm.RangeError : this.realm.Error;
    const scriptError = new Constructor(error.message);
    if (scriptError.name !== name) Object.defineProperty(scriptError, 'name', { value: name, writable: true, configurable: true });
    return scriptError;
  }

  /** The proxy the script sees for a stand-in object; the same object always gets the same proxy. */
  wrap<T extends object>(target: T): T {
    const existing = this.#proxies.get(target);
    if (existing) return existing as T;
    const className = gasClassName(target);
    const acceptsExpandos = gasClassOf(target).acceptsExpandos === true;
    const proxy = new Proxy(target, {
      get: (t, prop) => {
        if (typeof prop === 'symbol') return prop === Symbol.toStringTag ? className : undefined;
        if (acceptsExpandos && (t as unknown as ExpandoHolder)._expandos.has(prop)) return (t as unknown as ExpandoHolder)._expandos.get(prop);
        if (prop === 'toString' && (t as { toString: unknown }).toString === Object.prototype.toString) return () => className;
        if (prop.startsWith('_') || !(prop in t) || prop === 'constructor') {
          if (PROBED_MEMBERS.has(prop) || acceptsExpandos) return undefined;
          // A custom function calling a service it may not use gets the platform's refusal, modelled or not.
          const refusal = customFunctionRefusal(this.execution, className, prop);
          if (refusal)
            return this.#wrapFunction(
              () => {
                throw refusal;
              },
              t,
              className,
              prop,
            );
          const gap = notImplemented(`${className}.${prop}`);
          this.execution.recordUsageError(gap);
          throw new this.realm.TypeError(gap.message);
        }
        const value = (t as Record<string, unknown>)[prop];
        if (typeof value === 'function') return this.#method(t, prop, value as AnyFunction, className);
        return this.toScript(value);
      },
      set: (t, prop, value) => {
        if (!acceptsExpandos || typeof prop === 'symbol') return false;
        (t as unknown as ExpandoHolder)._expandos.set(prop, value);
        return true;
      },
      has: (t, prop) => typeof prop === 'string' && !prop.startsWith('_') && prop in t,
      ownKeys: () => [],
      getOwnPropertyDescriptor: () => undefined,
      defineProperty: () => false,
      deleteProperty: () => false,
      setPrototypeOf: () => false,
    });
    this.#proxies.set(target, proxy);
    this.#targets.set(proxy, target);
    return proxy;
  }

  #method(target: object, prop: string, fn: AnyFunction, className: string): AnyFunction {
    let cache = this.#methods.get(target);
    if (!cache) {
      cache = new Map();
      this.#methods.set(target, cache);
    }
    let method = cache.get(prop);
    if (!method) {
      method = this.#wrapFunction(fn, target, className, prop);
      cache.set(prop, method);
    }
    return method;
  }

  #wrapFunction(fn: AnyFunction, thisArg: object | undefined, className: string, member: string): AnyFunction {
    const membrane = this;
    // A named function expression, so a stack trace in the script shows the member it called.
    const call = {
      [member](...args: unknown[]): unknown {
        try {
          membrane.execution.checkTime();
          checkAccess(membrane.execution, className, member);
          return membrane.toScript(
            fn.apply(
              thisArg,
              args.map((arg) => membrane.toHost(arg)),
            ),
          );
        } catch (error) {
          if (error instanceof GasRuntimeUsageError) membrane.execution.recordUsageError(error);
          throw membrane.toScriptError(error);
        }
      },
    }[member] as AnyFunction;
    return call;
  }
}
