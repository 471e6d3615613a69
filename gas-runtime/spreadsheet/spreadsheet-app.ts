// SpreadsheetApp: the way in to the active spreadsheet, its UI, and the rule builders.

import { GasError } from '../errors';
import { BooleanCriteria, ConditionalFormatRuleBuilder } from './conditional-format';
import { DataValidationBuilder, DataValidationCriteria } from './data-validation';
import { ProtectionType } from './protection';
import type { Range } from './range';
import type { Sheet } from './sheet';
import type { Spreadsheet } from './spreadsheet';
import type { Ui } from './ui';

export class SpreadsheetAppStandIn {
  static readonly gasName = 'SpreadsheetApp';
  readonly DataValidationCriteria = DataValidationCriteria;
  readonly BooleanCriteria = BooleanCriteria;
  readonly ProtectionType = ProtectionType;

  constructor(
    readonly _spreadsheet: Spreadsheet,
    readonly _ui: Ui,
    /**
     * False in an add-on's time-driven trigger: no document is open, so nothing is active ("A timed trigger
     * will receive null when it calls SpreadsheetApp.getActiveSpreadsheet(), since there is no Sheets instance
     * attached to it. Instead, you need to open the spreadsheet by URL or ID", github.com/mogsdad/SheetConverter/issues/2).
     */
    readonly _hasActiveDocument: boolean = true,
  ) {}

  getActive(): Spreadsheet | null {
    return this._hasActiveDocument ? this._spreadsheet : null;
  }

  getActiveSpreadsheet(): Spreadsheet | null {
    return this._hasActiveDocument ? this._spreadsheet : null;
  }

  getActiveSheet(): Sheet | null {
    return this._hasActiveDocument ? this._spreadsheet.getActiveSheet() : null;
  }

  getActiveRange(): Range | null {
    return this._hasActiveDocument ? this._spreadsheet.getActiveRange() : null;
  }

  getCurrentCell(): Range | null {
    return this._hasActiveDocument ? this._spreadsheet.getActiveCell() : null;
  }

  setActiveSheet(sheet: Sheet): Sheet {
    this.#requireActiveDocument('setActiveSheet');
    return this._spreadsheet.setActiveSheet(sheet);
  }

  setActiveRange(range: Range): Range {
    this.#requireActiveDocument('setActiveRange');
    return this._spreadsheet.setActiveRange(range);
  }

  /** With no document open there is nothing to activate (the message is ours, *unverified*). */
  #requireActiveDocument(member: string): void {
    if (!this._hasActiveDocument)
      throw new GasError(
        `SpreadsheetApp.${member}: there is no active spreadsheet in this execution (a time-driven trigger of an add-on opens the spreadsheet by id).`,
      );
  }

  getUi(): Ui {
    return this._ui;
  }

  /**
   * Writes are applied at once here; a flush is when Sheets takes note of a formula cell left empty, so that a
   * formula written there again is a new one (the `identicalFormulaRecalculates` switch, docs/platform.md).
   */
  flush(): void {
    this._spreadsheet._flush();
  }

  /** Only the active spreadsheet exists in this runtime; any other id fails as an inaccessible file does. */
  openById(id: string): Spreadsheet {
    if (id === this._spreadsheet.getId()) return this._spreadsheet;
    throw new GasError('Unexpected error while getting the method or property openById on object SpreadsheetApp.');
  }

  openByUrl(url: string): Spreadsheet {
    if (String(url).includes(`/d/${this._spreadsheet.getId()}`)) return this._spreadsheet;
    throw new GasError('Unexpected error while getting the method or property openByUrl on object SpreadsheetApp.');
  }

  newDataValidation(): DataValidationBuilder {
    return new DataValidationBuilder();
  }

  newConditionalFormatRule(): ConditionalFormatRuleBuilder {
    return new ConditionalFormatRuleBuilder();
  }
}
