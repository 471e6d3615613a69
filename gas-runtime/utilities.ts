// Utilities: a sleep on the virtual clock, formatDate, UUIDs, base64, digests and blobs.

import { createHash, createHmac, randomUUID } from 'node:crypto';
import { types } from 'node:util';
import { Blob, encodeText, fromByteArray, isByteArray, toSignedBytes } from './blob';
import { EnumNamespace, enumName } from './enums';
import { GasError, notImplemented } from './errors';
import type { Execution } from './execution';
import { formatDate } from './format-date';
import { MAX_SLEEP_MS } from './limits';
import { signatureError } from './signature';

export const DigestAlgorithm = new EnumNamespace('DigestAlgorithm', ['MD2', 'MD5', 'SHA_1', 'SHA_256', 'SHA_384', 'SHA_512'] as const);
export const Charset = new EnumNamespace('Charset', ['US_ASCII', 'UTF_8'] as const);

const NODE_DIGESTS: Record<string, string> = { MD5: 'md5', SHA_1: 'sha1', SHA_256: 'sha256', SHA_384: 'sha384', SHA_512: 'sha512' };

function charsetName(charset: unknown): string | undefined {
  const name = enumName(Charset, charset);
  if (name === 'US_ASCII') return 'US-ASCII';
  if (name === 'UTF_8') return 'UTF-8';
  return charset === undefined || charset === null ? undefined : String(charset);
}

/** Bytes of a `String|Byte[]` argument. */
function bytesOf(data: unknown, charset: unknown, method: string): Buffer {
  if (typeof data === 'string') return encodeText(data, charsetName(charset));
  if (isByteArray(data)) return fromByteArray(data);
  throw signatureError(method, [data, charset]);
}

function decodeBase64(encoded: unknown, alphabet: 'standard' | 'websafe'): number[] {
  const text = String(encoded).replace(/\s+/g, '');
  const valid = alphabet === 'standard' ? /^[A-Za-z0-9+/]*={0,2}$/ : /^[A-Za-z0-9_-]*={0,2}$/;
  if (!valid.test(text) || text.replace(/=+$/, '').length % 4 === 1) throw new GasError('Could not decode string.');
  return toSignedBytes(Buffer.from(text, alphabet === 'standard' ? 'base64' : 'base64url'));
}

export type SleepListener = (ms: number) => void;

/** Utilities as one execution sees it: sleeping advances that execution's clock. */
export class UtilitiesService {
  static readonly gasName = 'Utilities';
  readonly DigestAlgorithm = DigestAlgorithm;
  readonly Charset = Charset;

  constructor(
    readonly _execution: Execution,
    readonly _onSleep: SleepListener | undefined,
  ) {}

  /** Sleeps on the virtual clock: no real waiting, but the time counts against the execution's limit. */
  sleep(milliseconds: number): void {
    if (typeof milliseconds !== 'number' || Number.isNaN(milliseconds)) throw signatureError('Utilities.sleep', [milliseconds]);
    if (milliseconds > MAX_SLEEP_MS) throw new GasError(`Invalid argument: milliseconds (at most ${MAX_SLEEP_MS}, got ${milliseconds})`);
    const ms = Math.max(0, Math.floor(milliseconds));
    this._onSleep?.(ms);
    this._execution.wait(ms);
  }

  formatDate(date: Date, timeZone: string, format: string): string {
    if (!types.isDate(date) || typeof timeZone !== 'string' || typeof format !== 'string')
      throw signatureError('Utilities.formatDate', [date, timeZone, format]);
    return formatDate(date, timeZone, format);
  }

  getUuid(): string {
    return randomUUID();
  }

  base64Encode(data: string | number[], charset?: unknown): string {
    return bytesOf(data, charset, 'Utilities.base64Encode').toString('base64');
  }

  /** Web-safe base64 keeps its '=' padding in Apps Script, unlike Node's base64url. */
  base64EncodeWebSafe(data: string | number[], charset?: unknown): string {
    return bytesOf(data, charset, 'Utilities.base64EncodeWebSafe').toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  }

  base64Decode(encoded: string): number[] {
    return decodeBase64(encoded, 'standard');
  }

  base64DecodeWebSafe(encoded: string): number[] {
    return decodeBase64(encoded, 'websafe');
  }

  computeDigest(algorithm: unknown, value: string | number[], charset?: unknown): number[] {
    const name = enumName(DigestAlgorithm, algorithm);
    if (!name) throw signatureError('Utilities.computeDigest', [algorithm, value, charset]);
    const nodeName = NODE_DIGESTS[name];
    if (!nodeName) throw notImplemented(`DigestAlgorithm.${name}`);
    return toSignedBytes(
      createHash(nodeName)
        .update(bytesOf(value, charset, 'Utilities.computeDigest'))
        .digest(),
    );
  }

  /**
   * "Signs the provided value using HMAC-SHA256 with the given key and character set", returning "a byte array
   * representing the output signature" (developers.google.com/apps-script/reference/utilities/utilities
   * #computeHmacSha256Signature(String,String,Charset)); Apps Script's bytes are Java's, signed (-128..127).
   * Value and key are both text or both Byte[], as the reference's overloads are.
   */
  computeHmacSha256Signature(value: string | number[], key: string | number[], charset?: unknown): number[] {
    const bothText = typeof value === 'string' && typeof key === 'string';
    const bothBytes = isByteArray(value) && isByteArray(key) && charset === undefined;
    if (!bothText && !bothBytes) throw signatureError('Utilities.computeHmacSha256Signature', [value, key, charset]);
    const method = 'Utilities.computeHmacSha256Signature';
    return toSignedBytes(
      createHmac('sha256', bytesOf(key, charset, method))
        .update(bytesOf(value, charset, method))
        .digest(),
    );
  }

  newBlob(data: string | number[], contentType?: string, name?: string): Blob {
    const bytes = typeof data === 'string' ? encodeText(data) : isByteArray(data) ? fromByteArray(data) : null;
    if (!bytes) throw signatureError('Utilities.newBlob', [data, contentType, name]);
    return new Blob(bytes, contentType ?? null, name ?? null);
  }
}
