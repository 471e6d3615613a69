// Conditional format rules, minimal: a boolean condition, a few formats and the ranges they apply to.

import { EnumNamespace } from '../enums';
import { GasError } from '../errors';
import { normalizeColor } from './colors';

export const BooleanCriteria = new EnumNamespace('BooleanCriteria', [
  'CELL_EMPTY',
  'CELL_NOT_EMPTY',
  'CUSTOM_FORMULA',
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
  'TEXT_ENDS_WITH',
  'TEXT_EQUAL_TO',
  'TEXT_STARTS_WITH',
] as const);

type CriteriaName = Parameters<typeof BooleanCriteria._get>[0];

interface RuleState {
  criteria: CriteriaName | null;
  values: unknown[];
  background: string | null;
  fontColor: string | null;
  bold: boolean | null;
  italic: boolean | null;
  ranges: unknown[];
}

/** The condition and formats of a rule (ConditionalFormatRule.getBooleanCondition()). */
export class BooleanCondition {
  static readonly gasName = 'BooleanCondition';

  constructor(readonly _state: Readonly<RuleState>) {}

  getCriteriaType(): unknown {
    return this._state.criteria === null ? null : BooleanCriteria._get(this._state.criteria);
  }

  getCriteriaValues(): unknown[] {
    return [...this._state.values];
  }

  getBackground(): string | null {
    return this._state.background;
  }

  getFontColor(): string | null {
    return this._state.fontColor;
  }

  getBold(): boolean | null {
    return this._state.bold;
  }

  getItalic(): boolean | null {
    return this._state.italic;
  }
}

export class ConditionalFormatRule {
  static readonly gasName = 'ConditionalFormatRule';

  constructor(readonly _state: Readonly<RuleState>) {}

  getRanges(): unknown[] {
    return [...this._state.ranges];
  }

  getBooleanCondition(): BooleanCondition | null {
    return this._state.criteria === null ? null : new BooleanCondition(this._state);
  }

  copy(): ConditionalFormatRuleBuilder {
    return new ConditionalFormatRuleBuilder({ ...this._state });
  }
}

export class ConditionalFormatRuleBuilder {
  static readonly gasName = 'ConditionalFormatRuleBuilder';
  #state: RuleState;

  constructor(state?: RuleState) {
    this.#state = state ?? { criteria: null, values: [], background: null, fontColor: null, bold: null, italic: null, ranges: [] };
  }

  #set(patch: Partial<RuleState>): ConditionalFormatRuleBuilder {
    this.#state = { ...this.#state, ...patch };
    return this;
  }

  whenCellEmpty(): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'CELL_EMPTY', values: [] });
  }

  whenCellNotEmpty(): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'CELL_NOT_EMPTY', values: [] });
  }

  whenFormulaSatisfied(formula: string): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'CUSTOM_FORMULA', values: [String(formula)] });
  }

  whenNumberBetween(start: number, end: number): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'NUMBER_BETWEEN', values: [start, end] });
  }

  whenNumberEqualTo(number: number): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'NUMBER_EQUAL_TO', values: [number] });
  }

  whenNumberGreaterThan(number: number): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'NUMBER_GREATER_THAN', values: [number] });
  }

  whenNumberLessThan(number: number): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'NUMBER_LESS_THAN', values: [number] });
  }

  whenTextContains(text: string): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'TEXT_CONTAINS', values: [String(text)] });
  }

  whenTextEqualTo(text: string): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'TEXT_EQUAL_TO', values: [String(text)] });
  }

  whenTextStartsWith(text: string): ConditionalFormatRuleBuilder {
    return this.#set({ criteria: 'TEXT_STARTS_WITH', values: [String(text)] });
  }

  setBackground(color: string | null): ConditionalFormatRuleBuilder {
    return this.#set({ background: color === null ? null : normalizeColor(color) });
  }

  setFontColor(color: string | null): ConditionalFormatRuleBuilder {
    return this.#set({ fontColor: color === null ? null : normalizeColor(color) });
  }

  setBold(bold: boolean | null): ConditionalFormatRuleBuilder {
    return this.#set({ bold });
  }

  setItalic(italic: boolean | null): ConditionalFormatRuleBuilder {
    return this.#set({ italic });
  }

  setRanges(ranges: unknown[]): ConditionalFormatRuleBuilder {
    return this.#set({ ranges: [...ranges] });
  }

  getRanges(): unknown[] {
    return [...this.#state.ranges];
  }

  getBooleanCondition(): BooleanCondition | null {
    return this.#state.criteria === null ? null : new BooleanCondition(this.#state);
  }

  copy(): ConditionalFormatRuleBuilder {
    return new ConditionalFormatRuleBuilder({ ...this.#state });
  }

  build(): ConditionalFormatRule {
    if (this.#state.ranges.length === 0) throw new GasError('Conditional format rule must have at least one range.');
    if (this.#state.criteria === null) throw new GasError('Conditional format rule must have a condition.');
    return new ConditionalFormatRule({ ...this.#state });
  }
}
