// Developer metadata on a sheet: key–value pairs a script keeps with the document, shown in no cell.
//
// "Developer metadata may be used to associate arbitrary data with various parts of a spreadsheet and will remain
// associated at those locations as they move around and the spreadsheet is edited. ... If the associated object is
// deleted its metadata is deleted too." (Sheets API, DeveloperMetadata resource.) Only metadata on a sheet is
// modelled (Sheet.addDeveloperMetadata, Sheet.getDeveloperMetadata): located on the Sheet object, it moves with
// the sheet and is deleted with it. The reference says nothing of Sheet.clear() and metadata; the stricter reading
// is that it stays (clear() names "content and formatting information"), so a script that rewrites a sheet must
// remove its own earlier metadata. Metadata on rows, columns, ranges and the spreadsheet is not modelled (those
// methods throw as unknown members). Visibility is DOCUMENT, the default: "Document-visible metadata is accessible
// from any developer project with access to the document" (DeveloperMetadataVisibility) — so any editor's
// script can read and rewrite it, as any editor can a cell.

import { GasError } from '../errors';
import type { Sheet } from './sheet';

export class DeveloperMetadata {
  static readonly gasName = 'DeveloperMetadata';
  #key: string;
  #value: string | null;

  constructor(
    readonly _sheet: Sheet,
    readonly _id: number,
    key: string,
    value: string | null,
  ) {
    this.#key = key;
    this.#value = value;
  }

  getId(): number {
    return this._id;
  }

  getKey(): string {
    return this.#key;
  }

  /** "Returns the value associated with this developer metadata, or null if this metadata has no value." */
  getValue(): string | null {
    return this.#value;
  }

  setKey(key: string): DeveloperMetadata {
    this.#key = requireKey(key);
    return this;
  }

  setValue(value: string): DeveloperMetadata {
    this.#value = String(value);
    return this;
  }

  /** "Deletes this metadata." */
  remove(): void {
    this._sheet._removeDeveloperMetadata(this);
  }
}

/** A key is required: the runtime refuses an empty one (the reference's parameter is a non-optional String; our message). */
export function requireKey(key: unknown): string {
  const text = String(key ?? '');
  if (text === '') throw new GasError('Invalid argument: key');
  return text;
}
