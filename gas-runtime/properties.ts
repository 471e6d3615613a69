// PropertiesService: string stores per user, per document and per script, with Apps Script's size limits.

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
export class Properties {
  static readonly gasName = 'Properties';
  readonly #values = new Map<string, string>();

  getProperty(key: string): string | null {
    return this.#values.get(String(key)) ?? null;
  }

  getProperties(): Record<string, string> {
    return Object.fromEntries(this.#values);
  }

  getKeys(): string[] {
    return [...this.#values.keys()];
  }

  setProperty(key: string, value: unknown): Properties {
    this.#write(new Map([[String(key), String(value)]]), false);
    return this;
  }

  /** Sets several properties at once; with `deleteAllOthers`, the store ends up holding exactly these. */
  setProperties(properties: Record<string, unknown>, deleteAllOthers = false): Properties {
    if (typeof properties !== 'object' || properties === null) throw new GasError('Invalid argument: properties');
    this.#write(new Map(Object.entries(properties).map(([key, value]) => [key, String(value)])), deleteAllOthers);
    return this;
  }

  deleteProperty(key: string): Properties {
    this.#values.delete(String(key));
    return this;
  }

  deleteAllProperties(): Properties {
    this.#values.clear();
    return this;
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

/**
 * A store a custom function may read but not write: Apps Script hands custom functions the
 * spreadsheet owner's user properties, and editors cannot set them there.
 */
export class ReadOnlyProperties {
  static readonly gasName = 'Properties';

  constructor(readonly _store: Properties) {}

  getProperty(key: string): string | null {
    return this._store.getProperty(key);
  }

  getProperties(): Record<string, string> {
    return this._store.getProperties();
  }

  getKeys(): string[] {
    return this._store.getKeys();
  }

  setProperty(): never {
    throw new GasError('You do not have permission to call setProperty');
  }

  setProperties(): never {
    throw new GasError('You do not have permission to call setProperties');
  }

  deleteProperty(): never {
    throw new GasError('You do not have permission to call deleteProperty');
  }

  deleteAllProperties(): never {
    throw new GasError('You do not have permission to call deleteAllProperties');
  }
}

/** Every property store of one runtime: one per user, one for the document, one for the script. */
export class PropertyStores {
  readonly #users = new Map<string, Properties>();
  readonly #document = new Properties();
  readonly #script = new Properties();

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
}

/** PropertiesService as one execution sees it. */
export class PropertiesServiceStandIn {
  static readonly gasName = 'PropertiesService';

  constructor(
    readonly _stores: PropertyStores,
    readonly _execution: Execution,
  ) {}

  /**
   * The current user's store; in a custom function, the spreadsheet owner's, read-only unless the
   * person recalculating is the owner.
   */
  getUserProperties(): Properties | ReadOnlyProperties {
    const execution = this._execution;
    const store = this._stores.user(execution.storeUser);
    return execution.isCustomFunction && execution.user !== execution.owner ? new ReadOnlyProperties(store) : store;
  }

  getDocumentProperties(): Properties {
    return this._stores.document();
  }

  getScriptProperties(): Properties {
    return this._stores.script();
  }
}
