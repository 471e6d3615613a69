// What crosses between the host and a worker thread: plain data as structured clone copies it, host
// objects as handles, errors with their Apps Script name and usage code.

import { types } from 'node:util';
import { GasError, GasRuntimeUsageError, notImplemented, type GasErrorName, type UsageErrorCode } from '../errors';
import { gasClassName } from '../membrane';

const HANDLE = '__gasRuntimeHandle';
const REF = '__gasRuntimeRef';

/** A host object as a worker sees it: its Apps Script class name and members, so its Membrane checks them as on the host. */
export interface HandleDescriptor {
  id: number;
  gasName: string;
  methods: string[];
  properties: string[];
}

export interface WireError {
  name: string;
  message: string;
  gasName?: string;
  usageCode?: UsageErrorCode;
}

export function errorToWire(error: unknown): WireError {
  if (error instanceof GasRuntimeUsageError) return { name: error.name, message: error.message, usageCode: error.code };
  if (error instanceof GasError) return { name: error.name, message: error.message, gasName: error.gasName };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The error re-created on this side, so the Membrane turns it into the script's error exactly as it would the original. */
export function wireToError(wire: WireError): Error {
  if (wire.usageCode) return new GasRuntimeUsageError(wire.message, wire.usageCode);
  if (wire.gasName) return new GasError(wire.message, wire.gasName as GasErrorName);
  const error = wire.name === 'TypeError' ? new TypeError(wire.message) : wire.name === 'RangeError' ? new RangeError(wire.message) : new Error(wire.message);
  if (error.name !== wire.name) error.name = wire.name;
  return error;
}

function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The members a script may reach on a stand-in: everything up its class chain but internals (`_x`) and the constructor. */
function membersOf(target: object): { methods: string[]; properties: string[] } {
  const names = new Set<string>(Object.getOwnPropertyNames(target));
  for (let proto = Object.getPrototypeOf(target) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
  }
  const methods: string[] = [];
  const properties: string[] = [];
  for (const name of names) {
    if (name.startsWith('_') || name === 'constructor') continue;
    if (typeof (target as Record<string, unknown>)[name] === 'function') methods.push(name);
    else properties.push(name);
  }
  return { methods, properties };
}

/** The host's side of one remote execution: its objects by handle, and the same handle for the same object. */
export class HostHandles {
  readonly #byId = new Map<number, object>();
  readonly #ids = new Map<object, number>();

  encode(value: unknown): unknown {
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'function') throw new GasRuntimeUsageError('gas-runtime cannot pass a function to a worker thread.', 'NOT_IMPLEMENTED');
      return value;
    }
    if (types.isDate(value)) return value;
    if (Array.isArray(value)) return value.map((item) => this.encode(item));
    if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.encode(item)]));
    let id = this.#ids.get(value);
    if (id === undefined) {
      id = this.#byId.size + 1;
      this.#ids.set(value, id);
      this.#byId.set(id, value);
    }
    const descriptor: HandleDescriptor = { id, gasName: gasClassName(value), ...membersOf(value) };
    return { [HANDLE]: descriptor };
  }

  decode(value: unknown): unknown {
    if (value === null || typeof value !== 'object' || types.isDate(value)) return value;
    if (Array.isArray(value)) return value.map((item) => this.decode(item));
    const ref = (value as Record<string, unknown>)[REF];
    if (typeof ref === 'number') return this.object(ref);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.decode(item)]));
  }

  object(id: number): object {
    const target = this.#byId.get(id);
    if (!target) throw new Error(`gas-runtime: no host object ${id} in this execution`);
    return target;
  }
}

/** How a remote object reaches the host: a synchronous call answering with a wire value. */
export interface RemoteCaller {
  call(handle: number, member: string, args: unknown[]): unknown;
  get(handle: number, member: string): unknown;
}

/** A host object in a worker thread: each member forwards to the host; `_gasName` gives the Membrane its class name. */
export class RemoteObject {
  constructor(
    readonly _gasName: string,
    readonly _handle: number,
  ) {}
}

/** The worker's side of one execution: remote objects by handle (the same handle, the same object, so the Membrane's proxies stay stable). */
export class RemoteObjects {
  readonly #objects = new Map<number, RemoteObject>();

  constructor(readonly caller: RemoteCaller) {}

  decode(value: unknown): unknown {
    if (value === null || typeof value !== 'object' || types.isDate(value)) return value;
    if (Array.isArray(value)) return value.map((item) => this.decode(item));
    const descriptor = (value as Record<string, unknown>)[HANDLE] as HandleDescriptor | undefined;
    if (descriptor) return this.#remote(descriptor);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.decode(item)]));
  }

  encode(value: unknown): unknown {
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'function') throw new GasRuntimeUsageError('gas-runtime cannot pass a function to a service on the host thread.', 'NOT_IMPLEMENTED');
      return value;
    }
    if (types.isDate(value)) return value;
    if (Array.isArray(value)) return value.map((item) => this.encode(item));
    if (value instanceof RemoteObject) return { [REF]: value._handle };
    if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.encode(item)]));
    // A worker-side stand-in (a Blob, an HtmlOutput) handed to a host service: not modelled across threads yet.
    throw notImplemented(`passing a ${gasClassName(value)} to a spreadsheet, cache or properties service in a concurrent execution`);
  }

  #remote(descriptor: HandleDescriptor): RemoteObject {
    const existing = this.#objects.get(descriptor.id);
    if (existing) return existing;
    const remote = new RemoteObject(descriptor.gasName, descriptor.id);
    const { caller } = this;
    for (const method of descriptor.methods) {
      Object.defineProperty(remote, method, {
        value: (...args: unknown[]) =>
          this.decode(
            caller.call(
              descriptor.id,
              method,
              args.map((arg) => this.encode(arg)),
            ),
          ),
        enumerable: false,
        // The Membrane's Proxy may only return its own wrapper for a configurable property.
        configurable: true,
      });
    }
    for (const property of descriptor.properties) {
      Object.defineProperty(remote, property, { get: () => this.decode(caller.get(descriptor.id, property)), enumerable: false, configurable: true });
    }
    this.#objects.set(descriptor.id, remote);
    return remote;
  }
}
