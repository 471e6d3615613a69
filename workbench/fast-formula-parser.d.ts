// The few parts of fast-formula-parser (MIT) the workbench uses; the package ships no types.
declare module 'fast-formula-parser' {
  export interface CellRef {
    sheet: string;
    row: number;
    col: number;
  }
  export interface RangeRef {
    sheet: string;
    from: { row: number; col: number };
    to: { row: number; col: number };
  }
  /** What a function gets per argument: the value, and with funsPreserveRef the reference it came from. */
  export interface FunctionArgument {
    value: unknown;
    isArray: boolean;
    omitted?: boolean;
    /** Whether the value came from a cell reference (a function of funsPreserveRef gets `ref` instead). */
    isCellRef?: boolean;
    ref?: (CellRef & { address?: string }) | RangeRef;
  }

  export class FormulaError extends Error {
    constructor(error: string, message?: string, details?: unknown);
    readonly error: string;
    readonly details?: unknown;
    static readonly DIV0: FormulaError;
    static readonly NA: FormulaError;
    static readonly NAME: FormulaError;
    static readonly VALUE: FormulaError;
    static readonly REF: FormulaError;
    static readonly NUM: FormulaError;
  }

  export interface ParserConfig {
    onCell?: (ref: CellRef) => unknown;
    onRange?: (ref: RangeRef) => unknown[][];
    functions?: Record<string, (...args: FunctionArgument[]) => unknown>;
  }

  export default class FormulaParser {
    constructor(config?: ParserConfig);
    /** Names whose arguments keep their reference (FunctionArgument.ref). */
    funsPreserveRef: string[];
    /** Every function by name, built-ins and the config's; workbench/sheets-corrections.ts replaces some on each parser. */
    functions: Record<string, (...args: FunctionArgument[]) => unknown>;
    /** The operators' evaluation; `_applyInfix` gets each operand's value (rows for a range) and whether it is an array. */
    utils: { _applyInfix(left: { val: unknown; isArray: boolean }, infix: string, right: { val: unknown; isArray: boolean }): unknown };
    parseAsync(formula: string, position: { sheet: string; row: number; col: number }, allowReturnArray?: boolean): Promise<unknown>;
    static readonly FormulaError: typeof FormulaError;
    static readonly MAX_ROW: number;
    static readonly MAX_COLUMN: number;
  }
}
