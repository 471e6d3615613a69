// The add-in's custom functions by name: the Refresh menu item looks for exactly these in formulas.

export const CUSTOM_FUNCTION_NAMES = [
  'METRIC_VALUES',
  'METRIC_VALUE',
  'METRIC_LATEST',
  'METRIC_SOURCE',
  'METRICS',
  'CONTACT_LISTS',
  'PORTFOLIO_COMPANIES',
  'PORTFOLIO_PROPERTIES',
  'PORTFOLIO_PROPERTY_VALUES',
  'PORTFOLIO_PROPERTY_OPTIONS',
  'PORTFOLIO_NOTES',
  'PORTFOLIO_VALUE',
  'PORTFOLIO_METRIC',
  'PORTFOLIO_COVERAGE',
  'PORTFOLIO_UNIT',
  'PORTFOLIO_SOURCE',
] as const;

export type CustomFunctionName = (typeof CUSTOM_FUNCTION_NAMES)[number];

/** A call of one of these functions in a formula's text (not a longer name that ends in one, nor a method). */
export function callOf(names: readonly CustomFunctionName[]): RegExp {
  return new RegExp(`(^|[^A-Z0-9_.])(${names.join('|')})\\s*\\(`, 'i');
}

const CALL = callOf(CUSTOM_FUNCTION_NAMES);

/** A sheet's formulas as Range.getFormulas returns them. */
export type FormulaGrid = readonly (readonly string[])[];

/** The value of a 1-based cell of the same grid, or undefined outside it. */
export type CellValueAt = (row: number, column: number) => unknown;

export interface FormulaCell {
  row: number;
  column: number;
  formula: string;
}

/** The add-in's formulas (refreshing them brings fresh data), 1-based. */
export function findAddinFormulas(formulas: FormulaGrid): FormulaCell[] {
  return formulas.flatMap((row, r) =>
    row.flatMap((formula, c) => (formula?.startsWith('=') && CALL.test(formula) ? [{ row: r + 1, column: c + 1, formula }] : [])),
  );
}
