// Text from the API written into cells stays text: Sheets reads a leading =, +, - or @ as a formula.

/** A leading apostrophe makes Sheets keep the rest as text; it is not part of the cell's value. */
export function asSafeCell<T>(value: T): T | string {
  return typeof value === 'string' && /^[=+\-@]/.test(value) ? `'${value}` : value;
}

export function asSafeRows<T>(rows: readonly (readonly T[])[]): Array<Array<T | string>> {
  return rows.map((row) => row.map(asSafeCell));
}
