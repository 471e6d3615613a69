// Values larger than one cache entry allows, stored in chunks and read back whole or not at all.

import type { KeyValueCache } from './key-value-cache';

/** CacheService refuses values over 100 KB; chunks stay well under it in UTF-8 bytes. */
const CHUNK_BYTES = 90 * 1024;
/** CacheService refuses keys over 250 characters. */
const MAX_KEY = 250;

interface Manifest {
  /** Differs on every write, so a reader can never mix chunks of two writes. */
  generation: string;
  chunks: number;
}

/**
 * Chunks are written first under keys with a fresh generation, then the manifest naming them: a reader sees
 * the old value or the new, never a blend. A missing chunk (evicted early) reads as a miss.
 */
export class ChunkedCache {
  constructor(
    private readonly cache: KeyValueCache,
    private readonly newGeneration: () => string,
  ) {}

  get(key: string): string | null {
    const manifest = this.manifestOf(key);
    if (!manifest) return null;
    const keys = chunkKeys(key, manifest);
    const found = keys.length ? this.cache.getAll(keys) : {};
    const parts = keys.map((chunkKey) => found[chunkKey]);
    return parts.every((part) => part !== undefined) ? parts.join('') : null;
  }

  /**
   * Whether a value is stored under `key`, by its manifest alone (one cache call): a chunk evicted early
   * is not seen, so a caller deciding what to fetch may at worst leave a value to be fetched on its own.
   */
  has(key: string): boolean {
    return this.manifestOf(key) !== null;
  }

  /** Removes the chunks of the value it replaces once the new manifest is in place: no write leaves chunks behind. */
  put(key: string, value: string, ttlSeconds: number): void {
    const old = this.manifestOf(key);
    const chunks = splitByBytes(value, CHUNK_BYTES);
    const manifest: Manifest = { generation: this.newGeneration(), chunks: chunks.length };
    this.cache.putAll(Object.fromEntries(chunkKeys(key, manifest).map((chunkKey, i) => [chunkKey, chunks[i]!])), ttlSeconds);
    this.cache.put(safeKey(key), JSON.stringify(manifest), ttlSeconds);
    this.removeChunks(key, old);
  }

  remove(key: string): void {
    const old = this.manifestOf(key);
    this.cache.remove(safeKey(key));
    this.removeChunks(key, old);
  }

  private removeChunks(key: string, manifest: Manifest | null): void {
    if (manifest?.chunks) this.cache.removeAll(chunkKeys(key, manifest));
  }

  private manifestOf(key: string): Manifest | null {
    const text = this.cache.get(safeKey(key));
    if (text === null) return null;
    try {
      const manifest = JSON.parse(text) as Manifest;
      return typeof manifest.generation === 'string' && Number.isInteger(manifest.chunks) && manifest.chunks >= 0 ? manifest : null;
    } catch {
      return null;
    }
  }
}

/** Chunk keys are made whole, then shortened by safeKey: cutting would drop the generation and share chunks. */
function chunkKeys(key: string, manifest: Manifest): string[] {
  return Array.from({ length: manifest.chunks }, (_, i) => safeKey(`${key}#${manifest.generation}#${i}`));
}

/** Keys over the limit are replaced by a readable prefix plus a hash of the whole key. */
export function safeKey(key: string): string {
  if (key.length <= MAX_KEY) return key;
  return `${key.slice(0, 200)}~${fnv1a64(key)}`;
}

/** FNV-1a over UTF-16 units, 64 bits as two halves: the pure core has no crypto, and it need not resist attack. */
export function fnv1a64(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}

/**
 * Any character outside 7-bit ASCII (surrogates included). A job's state is mostly JSON of ids and codes: without
 * one, each character is one byte, and one native test replaces a loop over every character, which cost a
 * checkpoint of a 1,100-row import a few milliseconds, twice a row.
 */
const NON_ASCII = /[\u0080-\uffff]/;

/** Splits at character boundaries so that each part's UTF-8 encoding fits `maxBytes`. */
export function splitByBytes(text: string, maxBytes: number): string[] {
  if (maxBytes >= 1 && !NON_ASCII.test(text)) return splitAscii(text, maxBytes);
  const parts: string[] = [];
  let start = 0;
  let end = 0;
  let bytes = 0;
  for (const char of text) {
    const size = charBytes(char);
    if (bytes + size > maxBytes) {
      parts.push(text.slice(start, end));
      start = end;
      bytes = 0;
    }
    bytes += size;
    end += char.length;
  }
  parts.push(text.slice(start));
  return parts;
}

/** splitByBytes of a text of one byte a character: the same parts, cut by length. */
function splitAscii(text: string, maxBytes: number): string[] {
  const parts: string[] = [];
  let start = 0;
  for (; start + maxBytes < text.length; start += maxBytes) parts.push(text.slice(start, start + maxBytes));
  parts.push(text.slice(start));
  return parts;
}

/** UTF-8 length without TextEncoder (the pure core runs in Apps Script too). */
export function utf8Bytes(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  // By UTF-16 unit, a pair counted once as 4 and a lone surrogate as 3 (as charBytes counts): no iterator or
  // string per character, which a profile import's state (names of the fund's profiles) paid at every checkpoint.
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit < 0xe000;
}

/** A lone surrogate counts 3, as an encoder writes U+FFFD for it. */
function charBytes(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}
