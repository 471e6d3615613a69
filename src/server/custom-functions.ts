// The custom functions' one wrapper: build the context, run the core formula, fail with a sentence.

import { userSentence } from '../core/errors';
import type { FormulaContext } from '../core/formulas/formula-context';
import { explainPortfolioForbidden } from '../core/formulas/list-formulas';
import { failureKind } from '../core/log/support-log';
import { consoleSupportLog } from '../gas/support-log';
import { createFormulaContext } from './formula-context';

/** Runs a core formula for a custom function: any failure becomes an Error whose message the cell shows (never the token). */
export function runFormula<A extends unknown[], T>(formula: (ctx: FormulaContext, ...args: A) => T, ...args: A): T {
  try {
    return formula(createFormulaContext(undefined, { customFunction: true }), ...args);
  } catch (error) {
    // One line per cell that fails, its kind only: a cell's sentence may quote its arguments.
    consoleSupportLog.write({ kind: 'refusal', place: 'cell', failure: failureKind(error) });
    throw new Error(userSentence(explainPortfolioForbidden(error), 'cell'));
  }
}
