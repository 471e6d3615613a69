// Data validation rules and their builder, as SpreadsheetApp.newDataValidation() makes them.

import { types } from 'node:util';
import { EnumNamespace, enumName } from '../enums';
import { GasError } from '../errors';
import { MAX_LIST_VALIDATION_ITEMS } from '../limits';
import { signatureError } from '../signature';

export const DataValidationCriteria = new EnumNamespace('DataValidationCriteria', [
  'DATE_AFTER',
  'DATE_BEFORE',
  'DATE_BETWEEN',
  'DATE_EQUAL_TO',
  'DATE_IS_VALID_DATE',
  'DATE_NOT_BETWEEN',
  'DATE_ON_OR_AFTER',
  'DATE_ON_OR_BEFORE',
  'NUMBER_BETWEEN',
  'NUMBER_EQUAL_TO',
  'NUMBER_GREATER_THAN',
  'NUMBER_GREATER_THAN_OR_EQUAL_TO',
  'NUMBER_LESS_THAN',
  'NUMBER_LESS_THAN_OR_EQUAL_TO',
  'NUMBER_NOT_BETWEEN',
  'NUMBER_NOT_EQUAL_TO',
  'TEXT_CONTAINS',
  'TEXT_DOES_NOT_CONTAIN',
  'TEXT_EQUAL_TO',
  'TEXT_IS_VALID_EMAIL',
  'TEXT_IS_VALID_URL',
  'VALUE_IN_LIST',
  'VALUE_IN_RANGE',
  'CUSTOM_FORMULA',
  'CHECKBOX',
] as const);

type CriteriaName = Parameters<typeof DataValidationCriteria._get>[0];

interface RuleState {
  criteria: CriteriaName | null;
  values: unknown[];
  allowInvalid: boolean;
  helpText: string | null;
}

/** A built rule: immutable, shared by every cell it was set on. */
export class DataValidation {
  static readonly gasName = 'DataValidation';

  constructor(readonly _state: Readonly<RuleState>) {}

  getCriteriaType(): unknown {
    return this._state.criteria === null ? null : DataValidationCriteria._get(this._state.criteria);
  }

  getCriteriaValues(): unknown[] {
    return [...this._state.values];
  }

  getAllowInvalid(): boolean {
    return this._state.allowInvalid;
  }

  getHelpText(): string | null {
    return this._state.helpText;
  }

  copy(): DataValidationBuilder {
    return new DataValidationBuilder({ ...this._state, values: [...this._state.values] });
  }
}

/** SpreadsheetApp.newDataValidation(): every require* replaces the criteria; invalid data is allowed by default. */
export class DataValidationBuilder {
  static readonly gasName = 'DataValidationBuilder';
  #state: RuleState;

  constructor(state?: RuleState) {
    this.#state = state ?? { criteria: null, values: [], allowInvalid: true, helpText: null };
  }

  #criteria(criteria: CriteriaName, values: unknown[]): DataValidationBuilder {
    this.#state = { ...this.#state, criteria, values };
    return this;
  }

  requireValueInList(values: unknown[], showDropdown = true): DataValidationBuilder {
    if (!Array.isArray(values)) throw signatureError('DataValidationBuilder.requireValueInList', [values, showDropdown]);
    return this.#criteria('VALUE_IN_LIST', [values.map(String), showDropdown]);
  }

  requireValueInRange(range: unknown, showDropdown = true): DataValidationBuilder {
    return this.#criteria('VALUE_IN_RANGE', [range, showDropdown]);
  }

  /** Without arguments a checkbox holds TRUE/FALSE; with them, the given checked (and unchecked) values. */
  requireCheckbox(checkedValue?: unknown, uncheckedValue?: unknown): DataValidationBuilder {
    const values = checkedValue === undefined ? [] : uncheckedValue === undefined ? [checkedValue] : [checkedValue, uncheckedValue];
    return this.#criteria('CHECKBOX', values);
  }

  requireDate(): DataValidationBuilder {
    return this.#criteria('DATE_IS_VALID_DATE', []);
  }

  requireDateAfter(date: Date): DataValidationBuilder {
    if (!types.isDate(date)) throw signatureError('DataValidationBuilder.requireDateAfter', [date]);
    return this.#criteria('DATE_AFTER', [date]);
  }

  requireDateBefore(date: Date): DataValidationBuilder {
    if (!types.isDate(date)) throw signatureError('DataValidationBuilder.requireDateBefore', [date]);
    return this.#criteria('DATE_BEFORE', [date]);
  }

  requireNumberBetween(start: number, end: number): DataValidationBuilder {
    return this.#criteria('NUMBER_BETWEEN', [start, end]);
  }

  requireNumberGreaterThan(number: number): DataValidationBuilder {
    return this.#criteria('NUMBER_GREATER_THAN', [number]);
  }

  requireNumberGreaterThanOrEqualTo(number: number): DataValidationBuilder {
    return this.#criteria('NUMBER_GREATER_THAN_OR_EQUAL_TO', [number]);
  }

  requireNumberLessThan(number: number): DataValidationBuilder {
    return this.#criteria('NUMBER_LESS_THAN', [number]);
  }

  requireTextIsEmail(): DataValidationBuilder {
    return this.#criteria('TEXT_IS_VALID_EMAIL', []);
  }

  requireTextIsUrl(): DataValidationBuilder {
    return this.#criteria('TEXT_IS_VALID_URL', []);
  }

  requireFormulaSatisfied(formula: string): DataValidationBuilder {
    return this.#criteria('CUSTOM_FORMULA', [String(formula)]);
  }

  withCriteria(criteria: unknown, args: unknown[]): DataValidationBuilder {
    const name = enumName(DataValidationCriteria, criteria);
    if (!name) throw signatureError('DataValidationBuilder.withCriteria', [criteria, args]);
    return this.#criteria(name, Array.isArray(args) ? [...args] : []);
  }

  setAllowInvalid(allowInvalidData: boolean): DataValidationBuilder {
    this.#state = { ...this.#state, allowInvalid: Boolean(allowInvalidData) };
    return this;
  }

  setHelpText(helpText: string): DataValidationBuilder {
    this.#state = { ...this.#state, helpText: String(helpText) };
    return this;
  }

  getCriteriaType(): unknown {
    return this.#state.criteria === null ? null : DataValidationCriteria._get(this.#state.criteria);
  }

  getCriteriaValues(): unknown[] {
    return [...this.#state.values];
  }

  getAllowInvalid(): boolean {
    return this.#state.allowInvalid;
  }

  getHelpText(): string | null {
    return this.#state.helpText;
  }

  copy(): DataValidationBuilder {
    return new DataValidationBuilder({ ...this.#state, values: [...this.#state.values] });
  }

  build(): DataValidation {
    if (this.#state.criteria === null) throw new GasError('You must specify a criteria for this data validation rule.');
    return new DataValidation({ ...this.#state, values: [...this.#state.values] });
  }
}

/**
 * Sheets refuses to apply a list rule of more than 500 items. The rule builds; the refusal comes when a
 * range is given it (setDataValidation/setDataValidations): which of the two throws in Apps Script is
 * *unverified* (public reports quote the message from scripts that set rules, not where it arose).
 */
export function checkRuleApplies(rule: DataValidation | null): void {
  if (!(rule instanceof DataValidation) || rule._state.criteria !== 'VALUE_IN_LIST') return;
  const items = rule._state.values[0];
  if (Array.isArray(items) && items.length > MAX_LIST_VALIDATION_ITEMS) {
    throw new GasError(`The data validation rule has more items than the limit of ${MAX_LIST_VALIDATION_ITEMS}. Use the "List from a range" criteria instead.`);
  }
}
