// What a custom function's cell shows when it fails: the message of the CustomFunctionError it threw.

import { CustomFunctionError } from '../../gas-runtime';

/** The message `run` (a custom function run) failed with; a test fails if it succeeds or throws anything else. */
export function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CustomFunctionError);
    return (error as Error).message;
  }
  throw new Error('expected the formula to fail');
}
