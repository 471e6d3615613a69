// Reading custom-function arguments: a cell arrives as a value, a range as rows of values.

import { InputError } from '../errors';
import { toIsoDate } from '../validate/dates';
import { requireUuid } from '../validate/uuid';
import type { FormulaContext } from './formula-context';

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** One cell as itself, or a range's cells row by row, blank cells skipped. */
export function nonBlankCells(input: unknown): unknown[] {
  return (Array.isArray(input) ? (input as unknown[][]).flat() : [input]).filter((cell) => !isBlank(cell));
}

/**
 * Arguments that may be ranges, as one tuple per cell of the result: one range maps cell by cell; two
 * fill a grid of the first argument's column against the other's row, or are refused with `twoRanges`.
 */
export function argumentGrid(args: readonly unknown[], twoRanges: string): unknown[][][] {
  const ranges = args.flatMap((arg, i) => (Array.isArray(arg) ? [i] : []));
  const withCell = (tuple: readonly unknown[], i: number, cell: unknown) => tuple.map((arg, j) => (j === i ? cell : arg));
  if (ranges.length === 1) return (args[ranges[0]!] as unknown[][]).map((row) => row.map((cell) => withCell(args, ranges[0]!, cell)));
  const [column, across] = ranges.map((i) => args[i] as unknown[][]);
  if (ranges.length !== 2 || ranges[0] !== 0 || !column!.every((row) => row.length === 1) || across!.length !== 1) throw new InputError(twoRanges);
  return column!.map(([first]) => across![0]!.map((cell) => withCell(withCell(args, 0, first), ranges[1]!, cell)));
}

/** One id, or a range of ids, in the order given; an id given twice is kept twice. */
export function readIdList(input: unknown, what: string): string[] {
  const ids = nonBlankCells(input).map((cell) => requireUuid(cell, what));
  if (ids.length === 0) throw new InputError(`${what} is missing: give an id, or a range of ids.`);
  return ids;
}

export function readId(input: unknown, what: string): string {
  if (Array.isArray(input)) throw new InputError(`${what} must be one cell, not a range.`);
  return requireUuid(input, what);
}

export function optionalDate(ctx: FormulaContext, value: unknown, what: string): string | undefined {
  if (isBlank(value)) return undefined;
  if (Array.isArray(value)) throw new InputError(`${what} must be one cell, not a range.`);
  return toIsoDate(value, what, ctx.timeZone, ctx.formatDate);
}

export function optionalText(value: unknown, what: string): string | undefined {
  if (isBlank(value)) return undefined;
  if (typeof value !== 'string') throw new InputError(`${what} must be text.`);
  return value;
}

/** A company id argument, or the default company from settings. */
export function companyOrDefault(ctx: FormulaContext, value: unknown, what: string): string {
  if (!isBlank(value)) return readId(value, what);
  if (ctx.defaultCompanyId) return ctx.defaultCompanyId;
  throw new InputError(`${what} is missing: give it as an argument, or choose a default company in the add-in's settings.`);
}
