// What Google Sheets computes for formulas the workbench must compute the same way, as data: each row is a formula,
// the cells it reads, the result Sheets gives and where that result is written down. Where the Sheets function
// reference states the result, `reference` is 'documented' and `source` is its page; where the reference is silent,
// `reference` is 'silent', `source` is a public report of what Sheets does, and `note` says what was chosen.
// The workbench conformance test (test/unit/workbench-conformance.test.ts) holds the engine to every row.

import type { CellErrorCode } from '../../gas-runtime';

/**
 * What a cell is given before the formula is entered: a number, text or boolean is typed in; text starting with
 * `=` is entered as a formula, as a person types it. The sheet's add-in functions in these rows are the test's
 * own custom functions: `BOOM()` throws `Error('Boom.')` (so its cell shows `#ERROR!`), `DOUBLE(x)` returns x*2.
 */
export type CellInput = number | string | boolean;

/** The result Sheets shows in the formula's cell. */
export type SheetsResult =
  | { value: number | string | boolean }
  /** The error the cell shows (its code; Sheets' message is on hover). */
  | { error: CellErrorCode }
  /** A date: the cell holds a date (Sheets formats it as one) on this day, in the spreadsheet's zone. */
  | { date: string }
  /** An array result spilling from the formula's cell, row by row. */
  | { spill: Array<Array<number | string | boolean>> };

export type Topic =
  | 'error propagation'
  | 'IFERROR and ISERROR'
  | 'text and blanks'
  | 'comparison'
  | 'dates as serials'
  | 'ROUND halves'
  | 'arrays spilling'
  | 'custom functions';

export interface ConformanceCase {
  topic: Topic;
  formula: string;
  /** Where the formula goes; E1 unless the row needs another cell. */
  at?: string;
  cells: Record<string, CellInput>;
  expected: SheetsResult;
  reference: 'documented' | 'silent';
  /** The Sheets function reference page, or for a silent reference the public report followed. */
  source: string;
  note?: string;
}

const SUM = 'support.google.com/docs/answer/3093669';
const AVERAGE = 'support.google.com/docs/answer/3093615';
const AVERAGEA = 'support.google.com/docs/answer/3093617';
const COUNT = 'support.google.com/docs/answer/3093620';
const COUNTA = 'support.google.com/docs/answer/3093991';
const IFERROR = 'support.google.com/docs/answer/3093304';
const ISERROR = 'support.google.com/docs/answer/3093349';
const EQ = 'support.google.com/docs/answer/3093593';
const DATE = 'support.google.com/docs/answer/3092969';
const N = 'support.google.com/docs/answer/3093357';
const ROUND = 'support.google.com/docs/answer/3093440';
const SEQUENCE = 'support.google.com/docs/answer/9368244';
const ARRAYFORMULA = 'support.google.com/docs/answer/3093275';
const CUSTOM_FUNCTIONS = 'developers.google.com/apps-script/guides/sheets/functions';
/** A public reference of Sheets' error values: "If a cell contains an error, any formula referencing that cell also returns an error". */
const ERRORS_PROPAGATE = 'sheets.wiki/docs/Error';

/** A column with a custom function that threw: the case (SUM showed a number, Sheets shows #ERROR!). */
const WITH_FAILED_CUSTOM_FUNCTION: Record<string, CellInput> = { A1: 5, A2: '=BOOM()', A3: 7 };
const WITH_DIVISION_BY_ZERO: Record<string, CellInput> = { A1: 5, A2: '=1/0', A3: 7 };
/** Numbers, a word and a blank (A4 is never written). */
const WITH_TEXT_AND_BLANK: Record<string, CellInput> = { A1: 5, A2: 'text', A3: 7 };

const PROPAGATES = 'The reference is silent on an error inside the summed values; Sheets returns the error, as every formula reading an error cell does.';

export const SHEETS_CONFORMANCE: readonly ConformanceCase[] = [
  // Errors pass through SUM, AVERAGE and arithmetic.
  {
    topic: 'error propagation',
    formula: '=SUM(A1:A3)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: PROPAGATES,
  },
  {
    topic: 'error propagation',
    formula: '=SUM(A:A)',
    at: 'C1',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: PROPAGATES,
  },
  {
    topic: 'error propagation',
    formula: '=SUM(A1:A3)',
    cells: WITH_DIVISION_BY_ZERO,
    expected: { error: '#DIV/0!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: 'The error passed on is the one in the range.',
  },
  {
    topic: 'error propagation',
    formula: '=SUM(A2)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: PROPAGATES,
  },
  { topic: 'error propagation', formula: '=SUM(1, 1/0)', cells: {}, expected: { error: '#DIV/0!' }, reference: 'silent', source: ERRORS_PROPAGATE },
  {
    topic: 'error propagation',
    formula: '=AVERAGE(A1:A3)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: PROPAGATES,
  },
  {
    topic: 'error propagation',
    formula: '=MAX(A1:A3)',
    cells: WITH_DIVISION_BY_ZERO,
    expected: { error: '#DIV/0!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
  },
  {
    topic: 'error propagation',
    formula: '=A1+A2',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
  },
  {
    topic: 'error propagation',
    formula: '=A2*2',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
  },
  { topic: 'error propagation', formula: '=-A2', cells: WITH_DIVISION_BY_ZERO, expected: { error: '#DIV/0!' }, reference: 'silent', source: ERRORS_PROPAGATE },
  {
    topic: 'error propagation',
    formula: '=SUM(A1:A3)*2',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: 'A total that reads a failed total fails too.',
  },
  {
    topic: 'error propagation',
    formula: '=COUNT(A1:A3)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { value: 2 },
    reference: 'documented',
    source: COUNT,
    note: '"COUNT counts only numeric values": an error is not counted and does not pass through.',
  },

  // IFERROR, ISERROR.
  {
    topic: 'IFERROR and ISERROR',
    formula: '=IFERROR(A2, 0)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { value: 0 },
    reference: 'documented',
    source: IFERROR,
  },
  {
    topic: 'IFERROR and ISERROR',
    formula: '=IFERROR(SUM(A1:A3), "check inputs")',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { value: 'check inputs' },
    reference: 'documented',
    source: IFERROR,
    note: 'The total is an error (rows above), so IFERROR gives its second argument.',
  },
  {
    topic: 'IFERROR and ISERROR',
    formula: '=IFERROR(A2)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { value: '' },
    reference: 'documented',
    source: IFERROR,
    note: 'value_if_error is "OPTIONAL - blank by default".',
  },
  { topic: 'IFERROR and ISERROR', formula: '=IFERROR(1/0, "none")', cells: {}, expected: { value: 'none' }, reference: 'documented', source: IFERROR },
  {
    topic: 'IFERROR and ISERROR',
    formula: '=IFERROR(A1, 0)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { value: 5 },
    reference: 'documented',
    source: IFERROR,
    note: 'Not an error: the first argument.',
  },
  {
    topic: 'IFERROR and ISERROR',
    formula: '=ISERROR(A2)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { value: true },
    reference: 'documented',
    source: ISERROR,
  },
  {
    topic: 'IFERROR and ISERROR',
    formula: '=ISERROR(SUM(A1:A3))',
    cells: WITH_DIVISION_BY_ZERO,
    expected: { value: true },
    reference: 'documented',
    source: ISERROR,
  },
  {
    topic: 'IFERROR and ISERROR',
    formula: '=IF(ISERROR(A2), "bad", A2)',
    cells: WITH_FAILED_CUSTOM_FUNCTION,
    expected: { value: 'bad' },
    reference: 'documented',
    source: ISERROR,
  },

  // Text and blanks in SUM and its neighbours.
  {
    topic: 'text and blanks',
    formula: '=SUM(A1:A4)',
    cells: WITH_TEXT_AND_BLANK,
    expected: { value: 12 },
    reference: 'silent',
    source: AVERAGE,
    note: 'SUM\'s page is silent; AVERAGE\'s says "Any text encountered in the value arguments will be ignored", and SUM ignores text in a range likewise.',
  },
  {
    topic: 'text and blanks',
    formula: '=SUM(A1:A2)',
    cells: { A1: 5, A2: '="7"' },
    expected: { value: 5 },
    reference: 'silent',
    source: AVERAGE,
    note: 'A number as text in a range is text: ignored, as AVERAGE documents.',
  },
  {
    topic: 'text and blanks',
    formula: '=SUM(1, "2")',
    cells: {},
    expected: { value: 3 },
    reference: 'silent',
    source: SUM,
    note: 'Text given directly is coerced to a number (Sheets\' error for "a" says it "cannot be coerced to a number").',
  },
  {
    topic: 'text and blanks',
    formula: '=SUM(1, "a")',
    cells: {},
    expected: { error: '#VALUE!' },
    reference: 'silent',
    source: SUM,
    note: 'Text given directly that is not a number: #VALUE!.',
  },
  { topic: 'text and blanks', formula: '=SUM(B1:B3)', cells: {}, expected: { value: 0 }, reference: 'silent', source: SUM, note: 'Blanks add nothing.' },
  {
    topic: 'text and blanks',
    formula: '=A1+B1',
    cells: { A1: 5 },
    expected: { value: 5 },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: 'A blank is 0 in arithmetic.',
  },
  {
    topic: 'text and blanks',
    formula: '=A1+A2',
    cells: WITH_TEXT_AND_BLANK,
    expected: { error: '#VALUE!' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: 'Type mismatch: "=A1+B1 where one contains text" gives #VALUE!.',
  },
  {
    topic: 'text and blanks',
    formula: '="3"+1',
    cells: {},
    expected: { value: 4 },
    reference: 'silent',
    source: N,
    note: 'Text that reads as a number is coerced in arithmetic ("Google Sheets automatically converts between most formats").',
  },
  {
    topic: 'text and blanks',
    formula: '=AVERAGE(A1:A4)',
    cells: WITH_TEXT_AND_BLANK,
    expected: { value: 6 },
    reference: 'documented',
    source: AVERAGE,
    note: 'Text ignored; the blank is not a value.',
  },
  {
    topic: 'text and blanks',
    formula: '=AVERAGEA(A1:A3)',
    cells: WITH_TEXT_AND_BLANK,
    expected: { value: 4 },
    reference: 'documented',
    source: AVERAGEA,
    note: '"Any text encountered in the value arguments will be set to 0 and included in calculation."',
  },
  {
    topic: 'text and blanks',
    formula: '=AVERAGE(B1:B3)',
    cells: {},
    expected: { error: '#DIV/0!' },
    reference: 'silent',
    source: AVERAGE,
    note: 'No values: the mean divides by zero.',
  },
  {
    topic: 'text and blanks',
    formula: '=COUNTA(A1:A4)',
    cells: WITH_TEXT_AND_BLANK,
    expected: { value: 3 },
    reference: 'documented',
    source: COUNTA,
    note: 'Counts numbers and text; the blank is not a value.',
  },
  {
    topic: 'text and blanks',
    formula: '=MAX(A1:A4)',
    cells: WITH_TEXT_AND_BLANK,
    expected: { value: 7 },
    reference: 'silent',
    source: AVERAGE,
    note: 'Text in a range is ignored, as for AVERAGE.',
  },
  {
    topic: 'text and blanks',
    formula: '=MIN(A1:A4)',
    cells: WITH_TEXT_AND_BLANK,
    expected: { value: 5 },
    reference: 'silent',
    source: AVERAGE,
    note: 'Text and blanks in a range are ignored, not read as 0.',
  },
  {
    topic: 'text and blanks',
    formula: '=MAX(A2, 3)',
    cells: WITH_TEXT_AND_BLANK,
    expected: { value: 3 },
    reference: 'silent',
    source: AVERAGE,
    note: 'A referenced cell holding text is ignored, as in a range; only text given directly is coerced.',
  },
  {
    topic: 'text and blanks',
    formula: '=MAX(1, "4")',
    cells: {},
    expected: { value: 4 },
    reference: 'silent',
    source: SUM,
    note: 'Text given directly is coerced, as for SUM.',
  },
  {
    topic: 'text and blanks',
    formula: '="a"&B1',
    cells: {},
    expected: { value: 'a' },
    reference: 'silent',
    source: ERRORS_PROPAGATE,
    note: 'A blank joins as empty text.',
  },

  // Comparing text and numbers.
  {
    topic: 'comparison',
    formula: '="abc"="ABC"',
    cells: {},
    expected: { value: true },
    reference: 'silent',
    source: EQ,
    note: 'EQ ("Equivalent to the = operator") is silent on case; Sheets compares text without case (EXACT is the case-sensitive test).',
  },
  {
    topic: 'comparison',
    formula: '="apple"<"Banana"',
    cells: {},
    expected: { value: true },
    reference: 'silent',
    source: EQ,
    note: 'Ordering ignores case too.',
  },
  {
    topic: 'comparison',
    formula: '=1="1"',
    cells: {},
    expected: { value: false },
    reference: 'silent',
    source: EQ,
    note: 'A number never equals text, even text of that number.',
  },
  {
    topic: 'comparison',
    formula: '="a">1',
    cells: {},
    expected: { value: true },
    reference: 'silent',
    source: EQ,
    note: 'Text sorts after every number, as in other spreadsheets.',
  },
  {
    topic: 'comparison',
    formula: '="10"<"9"',
    cells: {},
    expected: { value: true },
    reference: 'silent',
    source: EQ,
    note: 'Two texts compare as text, character by character.',
  },
  { topic: 'comparison', formula: '=B1=0', cells: {}, expected: { value: true }, reference: 'silent', source: EQ, note: 'A blank equals 0…' },
  { topic: 'comparison', formula: '=B1=""', cells: {}, expected: { value: true }, reference: 'silent', source: EQ, note: '…and equals empty text.' },

  // Dates are serial numbers.
  {
    topic: 'dates as serials',
    formula: '=DATE(1969,13,1)',
    cells: {},
    expected: { date: '1970-01-01' },
    reference: 'documented',
    source: DATE,
    note: 'Month 13 rolls into the next year.',
  },
  { topic: 'dates as serials', formula: '=DATE(1969,1,32)', cells: {}, expected: { date: '1969-02-01' }, reference: 'documented', source: DATE },
  {
    topic: 'dates as serials',
    formula: '=DATE(119,2,1)',
    cells: {},
    expected: { date: '2019-02-01' },
    reference: 'documented',
    source: DATE,
    note: 'Years 0 to 1899 are added to 1900.',
  },
  {
    topic: 'dates as serials',
    formula: '=DATE(2019,12.75,1)',
    cells: {},
    expected: { date: '2019-12-01' },
    reference: 'documented',
    source: DATE,
    note: 'Decimals are truncated.',
  },
  { topic: 'dates as serials', formula: '=DATE(-1,1,1)', cells: {}, expected: { error: '#NUM!' }, reference: 'documented', source: DATE },
  { topic: 'dates as serials', formula: '=DATE("x",1,1)', cells: {}, expected: { error: '#VALUE!' }, reference: 'documented', source: DATE },
  {
    topic: 'dates as serials',
    formula: '=N(DATE(2024,1,1))',
    cells: {},
    expected: { value: 45292 },
    reference: 'documented',
    source: N,
    note: 'A date is its serial number: days since December 30, 1899.',
  },
  {
    topic: 'dates as serials',
    formula: '=DATE(2024,1,1)+1',
    cells: {},
    expected: { date: '2024-01-02' },
    reference: 'silent',
    source: DATE,
    note: 'A date plus days is a date (Sheets formats the result as one).',
  },
  {
    topic: 'dates as serials',
    formula: '=DATE(2024,3,1)-DATE(2024,2,1)',
    cells: {},
    expected: { value: 29 },
    reference: 'silent',
    source: DATE,
    note: 'A date minus a date is a number of days, shown as a number.',
  },
  {
    topic: 'dates as serials',
    formula: '=A1+7',
    cells: { A1: '=DATE(2024,1,31)' },
    expected: { date: '2024-02-07' },
    reference: 'silent',
    source: DATE,
    note: 'A date cell plus days is a date.',
  },
  {
    topic: 'dates as serials',
    formula: '=A1=45322',
    cells: { A1: '=DATE(2024,1,31)' },
    expected: { value: true },
    reference: 'documented',
    source: DATE,
    note: 'Sheets "counts the days since December 30, 1899": the date is its serial.',
  },

  // ROUND rounds halves away from zero.
  {
    topic: 'ROUND halves',
    formula: '=ROUND(2.5)',
    cells: {},
    expected: { value: 3 },
    reference: 'documented',
    source: ROUND,
    note: 'places is "OPTIONAL - 0 by default".',
  },
  {
    topic: 'ROUND halves',
    formula: '=ROUND(-2.5)',
    cells: {},
    expected: { value: -3 },
    reference: 'documented',
    source: ROUND,
    note: "\"'up' and 'down' are in terms of magnitude\".",
  },
  { topic: 'ROUND halves', formula: '=ROUND(0.125, 2)', cells: {}, expected: { value: 0.13 }, reference: 'documented', source: ROUND },
  { topic: 'ROUND halves', formula: '=ROUND(-0.125, 2)', cells: {}, expected: { value: -0.13 }, reference: 'documented', source: ROUND },
  {
    topic: 'ROUND halves',
    formula: '=ROUND(1250, -2)',
    cells: {},
    expected: { value: 1300 },
    reference: 'documented',
    source: ROUND,
    note: 'Negative places round left of the decimal point.',
  },
  { topic: 'ROUND halves', formula: '=ROUND(99.44, 1)', cells: {}, expected: { value: 99.4 }, reference: 'documented', source: ROUND },

  // Array results spill.
  {
    topic: 'arrays spilling',
    formula: '={1,2;3,4}',
    cells: {},
    expected: {
      spill: [
        [1, 2],
        [3, 4],
      ],
    },
    reference: 'documented',
    source: ARRAYFORMULA,
    note: '"Many array formulas will be automatically expanded into neighboring cells".',
  },
  { topic: 'arrays spilling', formula: '=SEQUENCE(2)', cells: {}, expected: { spill: [[1], [2]] }, reference: 'documented', source: SEQUENCE },
  {
    topic: 'arrays spilling',
    formula: '=SEQUENCE(2, 3)',
    cells: {},
    expected: {
      spill: [
        [1, 2, 3],
        [4, 5, 6],
      ],
    },
    reference: 'documented',
    source: SEQUENCE,
  },
  {
    topic: 'arrays spilling',
    formula: '=SEQUENCE(2, 3, 10, -1)',
    cells: {},
    expected: {
      spill: [
        [10, 9, 8],
        [7, 6, 5],
      ],
    },
    reference: 'documented',
    source: SEQUENCE,
  },
  {
    topic: 'arrays spilling',
    formula: '=ARRAYFORMULA(A1:C1+A2:C2)',
    at: 'A4',
    cells: { A1: 1, B1: 2, C1: 3, A2: 10, B2: 20, C2: 30 },
    expected: { spill: [[11, 22, 33]] },
    reference: 'documented',
    source: ARRAYFORMULA,
    note: "The reference's own sample.",
  },
  {
    topic: 'arrays spilling',
    formula: '=ARRAYFORMULA(B1:B3*2)',
    cells: { B1: 1, B2: 2, B3: 3 },
    expected: { spill: [[2], [4], [6]] },
    reference: 'documented',
    source: ARRAYFORMULA,
  },
  {
    topic: 'arrays spilling',
    formula: '=SUM({1,2;3,4})',
    cells: {},
    expected: { value: 10 },
    reference: 'documented',
    source: SUM,
    note: 'An array is summed like a range.',
  },
  {
    topic: 'arrays spilling',
    formula: '={1,2}',
    cells: { F1: 'taken' },
    expected: { error: '#REF!' },
    reference: 'silent',
    source: ARRAYFORMULA,
    note: 'An array result that would overwrite a filled cell is not expanded: #REF! ("Array result was not expanded because it would overwrite data in F1.").',
  },

  // The add-in's custom functions.
  {
    topic: 'custom functions',
    formula: '=BOOM()',
    cells: {},
    expected: { error: '#ERROR!' },
    reference: 'silent',
    source: CUSTOM_FUNCTIONS,
    note: 'The guide shows #ERROR! for a call that runs too long; a call that throws shows #ERROR! too, with the thrown message on hover.',
  },
  { topic: 'custom functions', formula: '=BOOM()+1', cells: {}, expected: { error: '#ERROR!' }, reference: 'silent', source: ERRORS_PROPAGATE },
  { topic: 'custom functions', formula: '=SUM(BOOM(), 1)', cells: {}, expected: { error: '#ERROR!' }, reference: 'silent', source: ERRORS_PROPAGATE },
  { topic: 'custom functions', formula: '=IFERROR(BOOM(), "fallback")', cells: {}, expected: { value: 'fallback' }, reference: 'documented', source: IFERROR },
  {
    topic: 'custom functions',
    formula: '=DOUBLE(A1)+1',
    cells: { A1: 5 },
    expected: { value: 11 },
    reference: 'documented',
    source: CUSTOM_FUNCTIONS,
    note: "A custom function nested in a formula gets the cell's value.",
  },
];
