// Parses the one shape of formula the workbench evaluates: a single function call with literals and references.

import { GasRuntimeUsageError } from './errors';

export type FormulaArgument =
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'array'; rows: Array<Array<string | number | boolean>> }
  | { kind: 'reference'; a1: string }
  | { kind: 'omitted' };

export interface FormulaCall {
  functionName: string;
  args: FormulaArgument[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const CELL = String.raw`\$?[A-Za-z]{1,3}\$?\d+`;
const COLUMN = String.raw`\$?[A-Za-z]{1,3}`;
// biome-ignore lint/complexity/noUselessStringRaw: raw like its neighbours, so all three read as regular-expression text
const SHEET = String.raw`(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_]*)!`;
const REFERENCE = new RegExp(`^(?:${SHEET})?(?:${CELL}(?::${CELL})?|${CELL}:${COLUMN}|${COLUMN}:${COLUMN})(?![A-Za-z0-9_(])`);

function unsupported(formula: string, detail: string): GasRuntimeUsageError {
  return new GasRuntimeUsageError(
    `Cannot evaluate ${formula}: ${detail}. evaluateFormula supports one call with string, number and TRUE/FALSE literals, array literals like {"a";"b"}, and references such as A1, B2:C5 or Sheet2!A1:A3.`,
    'FORMULA_NOT_SUPPORTED',
  );
}

/**
 * An array literal as Sheets writes it in en_US: `{"a";"b"}` is a column, `{1,2}` a row, `;` ends a
 * row, `,` separates columns. Elements are string, number or TRUE/FALSE literals; rows must be even.
 */
function readArrayLiteral(formula: string, text: string): { rows: Array<Array<string | number | boolean>>; rest: string } {
  let rest = text.slice(1);
  const rows: Array<Array<string | number | boolean>> = [[]];
  for (;;) {
    rest = rest.trimStart();
    let value: string | number | boolean;
    const string = /^"((?:[^"]|"")*)"/.exec(rest);
    const number = NUMBER.exec(rest);
    const bool = /^(TRUE|FALSE)(?![A-Za-z0-9_(])/i.exec(rest);
    if (string) value = (string[1] ?? '').replace(/""/g, '"');
    else if (bool) value = bool[0].toUpperCase() === 'TRUE';
    else if (number) value = Number(number[0]);
    else throw unsupported(formula, `cannot read "${rest.slice(0, 20)}" in an array literal`);
    rest = rest.slice((string ?? bool ?? number)![0].length).trimStart();
    rows[rows.length - 1]!.push(value);
    if (rest.startsWith(',')) rest = rest.slice(1);
    else if (rest.startsWith(';')) {
      rest = rest.slice(1);
      rows.push([]);
    } else if (rest.startsWith('}')) {
      rest = rest.slice(1);
      break;
    } else throw unsupported(formula, `expected ",", ";" or "}" in an array literal but found "${rest.slice(0, 20)}"`);
  }
  if (rows.some((row) => row.length !== rows[0]!.length)) throw unsupported(formula, 'the rows of an array literal differ in length');
  return { rows, rest };
}

/** Reads `=NAME(arg, ...)`; anything more (operators, nested calls) is refused with a usage error. */
export function parseFormulaCall(formula: string): FormulaCall {
  const text = formula.trim();
  if (!text.startsWith('=')) throw unsupported(formula, 'a formula starts with "="');
  let rest = text.slice(1).trimStart();
  const name = NAME.exec(rest);
  if (!name) throw unsupported(formula, 'expected a function name');
  rest = rest.slice(name[0].length).trimStart();
  if (!rest.startsWith('(')) throw unsupported(formula, 'expected "(" after the function name');
  rest = rest.slice(1);
  const args: FormulaArgument[] = [];
  for (;;) {
    rest = rest.trimStart();
    if (args.length === 0 && rest.startsWith(')')) {
      rest = rest.slice(1);
      break;
    }
    let arg: FormulaArgument;
    if (rest.startsWith(',') || rest.startsWith(')')) arg = { kind: 'omitted' };
    else if (rest.startsWith('{')) {
      const parsed = readArrayLiteral(formula, rest);
      arg = { kind: 'array', rows: parsed.rows };
      rest = parsed.rest;
    } else if (rest.startsWith('"')) {
      const match = /^"((?:[^"]|"")*)"/.exec(rest);
      if (!match) throw unsupported(formula, 'an unterminated string');
      arg = { kind: 'literal', value: (match[1] ?? '').replace(/""/g, '"') };
      rest = rest.slice(match[0].length);
    } else if (REFERENCE.test(rest)) {
      const match = REFERENCE.exec(rest) as RegExpExecArray;
      arg = { kind: 'reference', a1: match[0] };
      rest = rest.slice(match[0].length);
    } else if (/^(TRUE|FALSE)(?![A-Za-z0-9_(])/i.test(rest)) {
      const match = /^(TRUE|FALSE)/i.exec(rest) as RegExpExecArray;
      arg = { kind: 'literal', value: match[0].toUpperCase() === 'TRUE' };
      rest = rest.slice(match[0].length);
    } else if (NUMBER.test(rest)) {
      const match = NUMBER.exec(rest) as RegExpExecArray;
      arg = { kind: 'literal', value: Number(match[0]) };
      rest = rest.slice(match[0].length);
    } else throw unsupported(formula, `cannot read "${rest.slice(0, 20)}"`);
    args.push(arg);
    rest = rest.trimStart();
    if (rest.startsWith(',')) {
      rest = rest.slice(1);
      continue;
    }
    if (rest.startsWith(')')) {
      rest = rest.slice(1);
      break;
    }
    throw unsupported(formula, `expected "," or ")" but found "${rest.slice(0, 20)}"`);
  }
  if (rest.trim() !== '') throw unsupported(formula, `unexpected "${rest.trim().slice(0, 20)}" after the call`);
  // A trailing omitted argument after the last comma ("=F(A1,)") still counts, as in Sheets.
  return { functionName: name[0].toUpperCase(), args };
}
