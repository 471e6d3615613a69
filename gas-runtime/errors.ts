// Errors on both sides of the vm boundary: what services throw inside the script, and what callers of the runtime catch.

/** The name Apps Script gives an error: service failures are `Exception`, misuse of JavaScript is `TypeError`. */
export type GasErrorName = 'Exception' | 'Error' | 'TypeError' | 'RangeError';

/**
 * What a stand-in service throws. The membrane re-creates it in the script's realm with the same
 * name and message, so `e instanceof Error`, `e.name` and `String(e)` behave as in Apps Script.
 */
export class GasError extends Error {
  constructor(
    message: string,
    readonly gasName: GasErrorName = 'Exception',
  ) {
    super(message);
    this.name = gasName;
  }
}

/** The message Apps Script shows when an execution outlives its limit (30 s custom function, 6 min otherwise). */
export const EXCEEDED_MAXIMUM_EXECUTION_TIME = 'Exceeded maximum execution time';

/** A script function failed: `rt.run` rethrows the script's error as this, keeping its name and message. */
export class ScriptError extends Error {
  constructor(
    message: string,
    /** The error's name inside the script: `Exception` for service failures, `Error`, `TypeError`... */
    readonly scriptErrorName: string,
    /** The function that was run. */
    readonly functionName: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ScriptError';
  }
}

/** The codes a cell shows: a custom function's failure, or a built-in's (#DIV/0!, #N/A) where a formula engine computes one. */
export type CellErrorCode = '#ERROR!' | '#NAME?' | '#REF!' | '#VALUE!' | '#NUM!' | '#DIV/0!' | '#N/A' | '#NULL!';

/** A custom function's failure as the cell shows it: `#ERROR!` and the message in its tooltip. */
export class CustomFunctionError extends Error {
  constructor(
    message: string,
    readonly code: CellErrorCode = '#ERROR!',
  ) {
    super(message);
    this.name = 'CustomFunctionError';
  }
}

/**
 * A google.script.run failure as the page's failure handler sees it: only the message survives the
 * trip (no stack, no name, no custom fields), so this carries nothing else.
 */
export class ServerCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServerCallError';
    // The page never sees the server's stack; keeping ours would suggest otherwise.
    this.stack = `${this.name}: ${message}`;
  }
}

/** Machine-readable reasons the runtime itself refuses a call (not something Apps Script would do). */
export type UsageErrorCode =
  | 'FUNCTION_NOT_CALLABLE'
  | 'NOT_IMPLEMENTED'
  | 'SAME_THREAD_SERVER'
  | 'FORMULA_NOT_SUPPORTED'
  | 'HTML_FILES_NOT_CONFIGURED'
  | 'HTTP_WORKER_FAILED'
  | 'INVALID_OPTION'
  | 'EXECUTIONS_RUNNING';

/** The runtime was used in a way it cannot honour; fix the test or the configuration, not the script. */
export class GasRuntimeUsageError extends Error {
  constructor(
    message: string,
    readonly code: UsageErrorCode,
  ) {
    super(message, { cause: { code } });
    this.name = 'GasRuntimeUsageError';
  }
}

/** A member or option Apps Script has but this runtime does not model: always loud, even if the script catches it. */
export function notImplemented(what: string): GasRuntimeUsageError {
  return new GasRuntimeUsageError(`gas-runtime does not implement ${what} (see gas-runtime/README.md); Apps Script would run it here.`, 'NOT_IMPLEMENTED');
}
