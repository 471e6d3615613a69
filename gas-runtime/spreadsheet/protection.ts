// Sheet protection: a description and warning-only protection; who may edit mirrors the spreadsheet's sharing.

import { EnumNamespace } from '../enums';
import type { Range } from './range';
import type { Sheet } from './sheet';

export const ProtectionType = new EnumNamespace('ProtectionType', ['RANGE', 'SHEET'] as const);

/**
 * A sheet's protection (`Sheet.protect()`). "Until the script actually changes the list of editors for the
 * sheet … or sets a new value for Protection.setDomainEdit(editable), the permissions mirror those of the
 * spreadsheet itself, which effectively means that the sheet remains unprotected" (Sheet.protect reference):
 * the runtime has no sharing, so editor lists and domain edit are not modelled (they throw as unknown members),
 * and every write a script makes to a protected sheet goes through, as it does under a warning-only protection.
 */
export class Protection {
  static readonly gasName = 'Protection';
  #description = '';
  #warningOnly = false;

  constructor(readonly _sheet: Sheet) {}

  getDescription(): string {
    return this.#description;
  }

  setDescription(description: string): Protection {
    this.#description = String(description);
    return this;
  }

  isWarningOnly(): boolean {
    return this.#warningOnly;
  }

  /** Warning-based protection: "every user can edit data in the area, except editing prompts a warning". */
  setWarningOnly(warningOnly: boolean): Protection {
    this.#warningOnly = Boolean(warningOnly);
    return this;
  }

  getProtectionType(): unknown {
    return ProtectionType._get('SHEET');
  }

  getRange(): Range {
    return this._sheet._range(1, 1, this._sheet.getMaxRows(), this._sheet.getMaxColumns());
  }

  /** Permissions mirror the spreadsheet's, and whoever runs the script can edit it. */
  canEdit(): boolean {
    return true;
  }

  remove(): void {
    this._sheet._removeProtection(this);
  }
}
