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
] as const;

export type CustomFunctionName = (typeof CUSTOM_FUNCTION_NAMES)[number];

const CALL = new RegExp(`(^|[^A-Z0-9_.])(${CUSTOM_FUNCTION_NAMES.join('|')})\\s*\\(`, 'i');

/** Whether a formula calls one of the add-in's functions (so refreshing it brings fresh data). */
export function callsAddinFunction(formula: string): boolean {
  return formula.startsWith('=') && CALL.test(formula);
}

export interface FormulaCell {
  row: number;
  column: number;
  formula: string;
}

/** The add-in's formulas in a grid of formulas (as Range.getFormulas returns), 1-based positions. */
export function findAddinFormulas(formulas: readonly (readonly string[])[]): FormulaCell[] {
  const found: FormulaCell[] = [];
  formulas.forEach((row, r) => row.forEach((formula, c) => {
    if (formula && callsAddinFunction(formula)) found.push({ row: r + 1, column: c + 1, formula });
  }));
  return found;
}
