// Byte arrays as Apps Script gives them (Java's signed bytes), text encodings, and a minimal Blob.

import { GasError } from './errors';

/** Java bytes are signed: 0xff is -1. */
export function toSignedBytes(bytes: Uint8Array): number[] {
  return Array.from(bytes, (byte) => (byte > 127 ? byte - 256 : byte));
}

/** True for an array Apps Script would accept as Byte[]: integers from -128 to 255. */
export function isByteArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item) => Number.isInteger(item) && (item as number) >= -128 && (item as number) <= 255);
}

/** Bytes from a Byte[] (signed or unsigned values). */
export function fromByteArray(value: readonly number[]): Buffer {
  return Buffer.from(value.map((byte) => byte & 0xff));
}

/** Encodes text in a charset Apps Script names (UTF-8 unless told otherwise). */
export function encodeText(text: string, charset?: string): Buffer {
  const name = normalizeCharset(charset);
  if (name === 'utf-8') return Buffer.from(text, 'utf8');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: every character outside US-ASCII, named by its range
  if (name === 'us-ascii') return Buffer.from(text.replace(/[^\x00-\x7f]/g, '?'), 'latin1');
  if (name === 'iso-8859-1') return Buffer.from(text, 'latin1');
  throw new GasError(`Unsupported charset: ${charset}`);
}

/** Decodes bytes in a charset Apps Script names (UTF-8 unless told otherwise). */
export function decodeText(bytes: Uint8Array, charset?: string): string {
  const name = normalizeCharset(charset);
  if (name === 'us-ascii') return Buffer.from(bytes).toString('ascii');
  if (name === 'iso-8859-1') return Buffer.from(bytes).toString('latin1');
  try {
    return new TextDecoder(name).decode(bytes);
  } catch {
    throw new GasError(`Unsupported charset: ${charset}`);
  }
}

function normalizeCharset(charset: unknown): string {
  if (charset === undefined || charset === null) return 'utf-8';
  const name = String(charset).trim().toLowerCase().replace(/_/g, '-');
  if (name === 'utf8' || name === 'utf-8') return 'utf-8';
  if (name === 'ascii' || name === 'us-ascii') return 'us-ascii';
  if (name === 'latin1' || name === 'iso-8859-1') return 'iso-8859-1';
  return name;
}

/** Blob: bytes with a content type and a name; enough for HTTPResponse.getBlob() and Utilities.newBlob(). */
export class Blob {
  static readonly gasName = 'Blob';
  #bytes: Buffer;
  #contentType: string | null;
  #name: string | null;

  constructor(bytes: Buffer, contentType: string | null = null, name: string | null = null) {
    this.#bytes = bytes;
    this.#contentType = contentType;
    this.#name = name;
  }

  getBytes(): number[] {
    return toSignedBytes(this.#bytes);
  }

  /** The raw bytes, for stand-ins that send the blob somewhere. */
  _buffer(): Buffer {
    return this.#bytes;
  }

  getDataAsString(charset?: string): string {
    return decodeText(this.#bytes, charset ?? charsetOf(this.#contentType));
  }

  setDataFromString(text: string, charset?: string): Blob {
    this.#bytes = encodeText(String(text), charset);
    return this;
  }

  setBytes(bytes: number[]): Blob {
    this.#bytes = fromByteArray(bytes);
    return this;
  }

  getContentType(): string | null {
    return this.#contentType;
  }

  setContentType(contentType: string | null): Blob {
    this.#contentType = contentType;
    return this;
  }

  getName(): string | null {
    return this.#name;
  }

  setName(name: string): Blob {
    this.#name = name;
    return this;
  }

  isGoogleType(): boolean {
    return false;
  }

  copyBlob(): Blob {
    return new Blob(Buffer.from(this.#bytes), this.#contentType, this.#name);
  }
}

/** The charset a Content-Type names, if any. */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1];
}
