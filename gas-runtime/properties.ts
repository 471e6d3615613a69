// PropertiesService: string stores per user, per document and per script, with Apps Script's size limits.

import type { DailyQuota } from './daily-quota';
import { GasError } from './errors';
import type { Execution } from './execution';
import { MAX_PROPERTY_STORE_BYTES, MAX_PROPERTY_VALUE_BYTES } from './limits';

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * One property store with the Apps Script Properties API. Tests read and seed it through
 * `rt.properties`; scripts reach it through PropertiesService. Values are always strings: anything
 * else is stringified as Apps Script does.
 */
/** How often each method of one store was called: what a test of "no call wasted" counts. */
export type PropertiesCalls = Record<
  'getProperty' | 'getProperties' | 'getKeys' | 'setProperty' | 'setProperties' | 'deleteProperty' | 'deleteAllProperties',
  number
>;

export interface PropertiesCallsReport {
  user: Record<string, PropertiesCalls>;
  document: PropertiesCalls;
  script: PropertiesCalls;
}

export class Properties {
  static readonly gasName = 'Properties';
  readonly #values = new Map<string, string>();
  readonly #calls: PropertiesCalls = {
    getProperty: 0,
    getProperties: 0,
    getKeys: 0,
    setProperty: 0,
    setProperties: 0,
    deleteProperty: 0,
    deleteAllProperties: 0,
  };

  getProperty(key: string): string | null {
    this.#calls.getProperty++;
    return this.#values.get(String(key)) ?? null;
  }

  getProperties(): Record<string, string> {
    this.#calls.getProperties++;
    return Object.fromEntries(this.#values);
  }

  getKeys(): string[] {
    this.#calls.getKeys++;
    return [...this.#values.keys()];
  }

  setProperty(key: string, value: unknown): Properties {
    this.#calls.setProperty++;
    this.#write(new Map([[String(key), String(value)]]), false);
    return this;
  }

  /** Sets several properties at once; with `deleteAllOthers`, the store ends up holding exactly these. */
  setProperties(properties: Record<string, unknown>, deleteAllOthers = false): Properties {
    this.#calls.setProperties++;
    if (typeof properties !== 'object' || properties === null) throw new GasError('Invalid argument: properties');
    this.#write(new Map(Object.entries(properties).map(([key, value]) => [key, String(value)])), deleteAllOthers);
    return this;
  }

  deleteProperty(key: string): Properties {
    this.#calls.deleteProperty++;
    this.#values.delete(String(key));
    return this;
  }

  deleteAllProperties(): Properties {
    this.#calls.deleteAllProperties++;
    this.#values.clear();
    return this;
  }

  /** A refused write through a read-only view is still a call. */
  _countRefused(method: 'setProperty' | 'setProperties' | 'deleteProperty' | 'deleteAllProperties'): void {
    this.#calls[method]++;
  }

  /** Calls of each method so far, from this store or through a read-only view of it (a copy). */
  _calls(): PropertiesCalls {
    return { ...this.#calls };
  }

  /** Checks every limit before changing anything, so a failed write leaves the store as it was. */
  #write(updates: Map<string, string>, replace: boolean): void {
    for (const [key, value] of updates) {
      if (key === '') throw new GasError('Invalid argument: key');
      if (byteLength(value) > MAX_PROPERTY_VALUE_BYTES) throw new GasError('Argument too large: value');
    }
    const next = new Map(replace ? [] : this.#values);
    for (const [key, value] of updates) next.set(key, value);
    let total = 0;
    for (const [key, value] of next) total += byteLength(key) + byteLength(value);
    if (total > MAX_PROPERTY_STORE_BYTES) throw new GasError('You have exceeded the property storage quota. Please remove some properties and try again.');
    if (replace) this.#values.clear();
    for (const [key, value] of updates) this.#values.set(key, value);
  }
}

/** "Service invoked too many times for one day: <service>." (quotas page) for a read. */
export const PROPERTIES_QUOTA_REFUSAL = 'Service invoked too many times for one day: properties.';
/** The text a public report quotes for writes past the quota (github.com/googleworkspace/apps-script-oauth2/issues/217). */
export const PROPERTY_WRITES_QUOTA_REFUSAL = 'Service invoked too many times for one day: graphite property writes.';

/**
 * One store as one execution's script sees it: every method call is one use of "Properties read/write:
 * 50,000 / day" (quotas page), charged to the execution's store user before it runs. The reference does not
 * say what one use is; the stricter reading counts every call of every method (a getProperties() reading the
 * whole store is one), refused ones included, and not the PropertiesService getters that hand out the store.
 * In a custom function the owner's user store is read-only unless the owner recalculates: Apps Script hands
 * custom functions the spreadsheet owner's user properties, and editors cannot set them there.
 */
export class ExecutionProperties {
  static readonly gasName = 'Properties';

  constructor(
    readonly _store: Properties,
    readonly _charge: (write: boolean) => void,
    readonly _readOnly: boolean,
  ) {}

  getProperty(key: string): string | null {
    this._charge(false);
    return this._store.getProperty(key);
  }

  getProperties(): Record<string, string> {
    this._charge(false);
    return this._store.getProperties();
  }

  getKeys(): string[] {
    this._charge(false);
    return this._store.getKeys();
  }

  setProperty(key: string, value: unknown): ExecutionProperties {
    this.#writable('setProperty');
    this._store.setProperty(key, value);
    return this;
  }

  setProperties(properties: Record<string, unknown>, deleteAllOthers = false): ExecutionProperties {
    this.#writable('setProperties');
    this._store.setProperties(properties, deleteAllOthers);
    return this;
  }

  deleteProperty(key: string): ExecutionProperties {
    this.#writable('deleteProperty');
    this._store.deleteProperty(key);
    return this;
  }

  deleteAllProperties(): ExecutionProperties {
    this.#writable('deleteAllProperties');
    this._store.deleteAllProperties();
    return this;
  }

  /** Charges the write; through a read-only view it is refused, still counted as a call. */
  #writable(method: 'setProperty' | 'setProperties' | 'deleteProperty' | 'deleteAllProperties'): void {
    this._charge(true);
    if (!this._readOnly) return;
    this._store._countRefused(method);
    throw new GasError(`You do not have permission to call ${method}`);
  }
}

/**
 * Every property store of one runtime: one per user, one for the document, one for the script. Given the stores
 * of another document the same script runs in, it shares their user and script stores ("getUserProperties() Gets
 * a property store that only the current user can access, and only within this script"; "getScriptProperties()
 * Gets a property store that all users can access, but only within this script") and keeps its own document
 * store ("getDocumentProperties() Gets a property store that all users can access within the current document",
 * developers.google.com/apps-script/reference/properties/properties-service).
 */
export class PropertyStores {
  readonly #users: Map<string, Properties>;
  readonly #document = new Properties();
  readonly #script: Properties;

  constructor(
    /** "Properties read/write" per user per day; every execution's calls count, tests' own calls do not. */
    readonly quota: DailyQuota,
    sameScript?: PropertyStores,
  ) {
    this.#users = sameScript ? sameScript.#users : new Map<string, Properties>();
    this.#script = sameScript ? sameScript.#script : new Properties();
  }

  /** The user properties of `email` (created empty on first use). */
  user(email: string): Properties {
    let store = this.#users.get(email);
    if (!store) {
      store = new Properties();
      this.#users.set(email, store);
    }
    return store;
  }

  document(): Properties {
    return this.#document;
  }

  script(): Properties {
    return this.#script;
  }

  /** Per store: how often each method was called since the runtime started. */
  calls(): PropertiesCallsReport {
    return {
      user: Object.fromEntries([...this.#users].map(([email, store]) => [email, store._calls()])),
      document: this.#document._calls(),
      script: this.#script._calls(),
    };
  }
}

/** PropertiesService as one execution sees it. */
export class PropertiesServiceStandIn {
  static readonly gasName = 'PropertiesService';

  constructor(
    readonly _stores: PropertyStores,
    readonly _execution: Execution,
    /** False in an add-on's time-driven trigger, where no document is open (see getDocumentProperties). */
    readonly _hasActiveDocument: boolean = true,
  ) {}

  /**
   * The current user's store; in a custom function, the spreadsheet owner's (in a Shared Drive, the reading's:
   * assumptions.ts), read-only unless it is the store of the person recalculating.
   */
  getUserProperties(): ExecutionProperties {
    const execution = this._execution;
    return this.#view(this._stores.user(execution.storeUser), execution.userStoreReadOnly);
  }

  /**
   * "Gets a property store … that all users can access within the open document … When document properties
   * are not available this method returns null" (PropertiesService reference): an add-on's time-driven trigger
   * has no open document, so null there (the stricter reading, *unverified*).
   */
  getDocumentProperties(): ExecutionProperties | null {
    return this._hasActiveDocument ? this.#view(this._stores.document(), false) : null;
  }

  getScriptProperties(): ExecutionProperties {
    return this.#view(this._stores.script(), false);
  }

  /**
   * Every call counts against the execution's store user: in a custom function the spreadsheet's owner, whose
   * properties it reads (*unverified*, the stricter reading, as for URL Fetch), elsewhere the user running it.
   */
  #view(store: Properties, readOnly: boolean): ExecutionProperties {
    const { quota } = this._stores;
    const user = this._execution.storeUser;
    return new ExecutionProperties(store, (write) => quota.charge(user, 1, write ? PROPERTY_WRITES_QUOTA_REFUSAL : PROPERTIES_QUOTA_REFUSAL), readOnly);
  }
}
