// A job's state in the user's properties, cut into pieces each property accepts, with a cache copy that
// may be lost at any moment without losing anything.

import { splitByBytes, utf8Bytes } from '../cache/chunked-cache';
import type { KeyValueCache } from '../cache/key-value-cache';
import { InputError } from '../errors';

export interface PropertyStore {
  getProperty(key: string): string | null;
  setProperties(values: Record<string, string>): void;
  deleteProperty(key: string): void;
}

/**
 * "Properties value size 9kB / val" (quotas page), counted in UTF-8 bytes (the stricter reading,
 * *unverified*): a piece stays under it with room for the runtime's own accounting of the key.
 */
export const PIECE_BYTES = 8 * 1024;
/**
 * "Properties total storage 500kB / property store": one job may take this much, so a job's write, whose
 * old and new copies are both stored for a moment, fits the job store's budget alone (store-budget.ts,
 * 350 KB), and never fills the user's store and locks out the token and settings kept beside it.
 */
export const JOB_MAX_BYTES = 170 * 1024;

type Manifest = { g: string; n: number };

function pieceKey(key: string, manifest: Manifest, index: number): string {
  return `${key}#${manifest.g}#${index}`;
}

function parseManifest(text: string | null): Manifest | null {
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Manifest;
    return typeof parsed.g === 'string' && Number.isInteger(parsed.n) && parsed.n >= 0 ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The value stored under `key` in `all` (every property, as getProperties gives them), read as get reads it
 * from the properties; null when there is none or a piece is missing.
 */
export function piecedValueIn(all: Readonly<Record<string, string>>, key: string): string | null {
  const manifest = parseManifest(all[key] ?? null);
  if (!manifest) return null;
  const parts: string[] = [];
  for (let i = 0; i < manifest.n; i++) {
    const part = all[pieceKey(key, manifest, i)];
    if (part === undefined) return null;
    parts.push(part);
  }
  return parts.join('');
}

/**
 * Properties are the truth; the cache holds a copy keyed by the write's generation, so a copy can only
 * ever be the value the manifest names (a stale copy is never read), and a lost copy costs only reads.
 */
export class PiecedStore {
  constructor(
    private readonly properties: PropertyStore,
    private readonly cache: KeyValueCache | null,
    private readonly newGeneration: () => string,
    private readonly cacheTtlSeconds: number,
  ) {}

  get(key: string): string | null {
    const manifest = parseManifest(this.properties.getProperty(key));
    if (!manifest) return null;
    const copyKey = `${key}#${manifest.g}`;
    const copy = this.tryCache((cache) => cache.get(copyKey));
    if (typeof copy === 'string') return copy;
    const parts: string[] = [];
    for (let i = 0; i < manifest.n; i++) {
      const part = this.properties.getProperty(pieceKey(key, manifest, i));
      // A piece missing means a write was cut short between its pieces and its manifest's removal: no value.
      if (part === null) return null;
      parts.push(part);
    }
    const value = parts.join('');
    this.cachePut(copyKey, value);
    return value;
  }

  /**
   * New pieces first, then the manifest that points at them, then the old pieces go: a reader sees the
   * old value or the new one (a write killed before the removal leaves old pieces the next write removes).
   * `beforeWrite` is told what the new properties take (key plus value, UTF-8, manifest included) before
   * anything is written, and may make room or refuse (store-budget.ts); when it answers `replaceFirst`, the
   * two copies do not fit together, so the old one goes first (a reader meanwhile sees no value).
   */
  put(key: string, value: string, beforeWrite?: (bytes: number) => { replaceFirst: boolean } | void): void {
    const bytes = utf8Bytes(value);
    if (bytes > JOB_MAX_BYTES) {
      throw new InputError(
        `This job's state needs ${Math.ceil(bytes / 1024)} KB, more than the ${JOB_MAX_BYTES / 1024} KB it may keep in your Apps Script properties. Split the range and run it in parts.`,
      );
    }
    const old = parseManifest(this.properties.getProperty(key));
    const pieces = value === '' ? [] : splitByBytes(value, PIECE_BYTES);
    const manifest: Manifest = { g: this.newGeneration(), n: pieces.length };
    const written: Record<string, string> = Object.fromEntries(pieces.map((piece, i) => [pieceKey(key, manifest, i), piece]));
    const room = beforeWrite?.(
      Object.entries(written).reduce((sum, [k, piece]) => sum + utf8Bytes(k) + utf8Bytes(piece), utf8Bytes(key) + utf8Bytes(JSON.stringify(manifest))),
    );
    if (old && room?.replaceFirst) {
      this.properties.deleteProperty(key);
      this.removePieces(key, old);
    }
    if (pieces.length) this.properties.setProperties(written);
    this.properties.setProperties({ [key]: JSON.stringify(manifest) });
    if (old && !room?.replaceFirst) this.removePieces(key, old);
    this.cachePut(`${key}#${manifest.g}`, value, bytes);
  }

  remove(key: string): void {
    const old = parseManifest(this.properties.getProperty(key));
    this.properties.deleteProperty(key);
    if (old) this.removePieces(key, old);
  }

  private removePieces(key: string, manifest: Manifest): void {
    for (let i = 0; i < manifest.n; i++) this.properties.deleteProperty(pieceKey(key, manifest, i));
    this.tryCache((cache) => cache.remove(`${key}#${manifest.g}`));
  }

  /** `bytes` when the caller has measured `value` already; measured here (only when there is a cache) otherwise. */
  private cachePut(key: string, value: string, bytes?: number): void {
    if (!this.cache) return;
    // CacheService refuses values over 100 KB: a larger state is read from the properties.
    if ((bytes ?? utf8Bytes(value)) <= 90 * 1024) this.tryCache((cache) => cache.put(key, value, this.cacheTtlSeconds));
  }

  // The copy is worth trying, never worth failing for: a cache refusing a value (too large) costs reads only.
  private tryCache<T>(use: (cache: KeyValueCache) => T): T | undefined {
    try {
      return this.cache ? use(this.cache) : undefined;
    } catch {
      return undefined;
    }
  }
}
