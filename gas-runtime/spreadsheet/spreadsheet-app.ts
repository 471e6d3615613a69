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
  ) {}

  getActive(): Spreadsheet {
    return this._spreadsheet;
  }

  getActiveSpreadsheet(): Spreadsheet {
    return this._spreadsheet;
  }

  getActiveSheet(): Sheet {
    return this._spreadsheet.getActiveSheet();
  }

  getActiveRange(): Range {
    return this._spreadsheet.getActiveRange();
  }

  getCurrentCell(): Range {
    return this._spreadsheet.getActiveCell();
  }

  setActiveSheet(sheet: Sheet): Sheet {
    return this._spreadsheet.setActiveSheet(sheet);
  }

  setActiveRange(range: Range): Range {
    return this._spreadsheet.setActiveRange(range);
  }

  getUi(): Ui {
    return this._ui;
  }

  /** Writes are applied at once here, so there is nothing to flush. */
  flush(): void {}

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
