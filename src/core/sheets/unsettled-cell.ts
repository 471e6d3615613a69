// A cell whose value is not data: a formula error (#N/A, #REF!…) or a custom function still calculating.

/** What getValues() returns for a cell showing a formula error. */
const SHEET_ERROR = /^#(?:N\/A|REF!|VALUE!|DIV\/0!|NUM!|NAME\?|NULL!|ERROR!|SPILL!|CALC!)/;

/** What Sheets shows (and getValues() reads) while a custom function calculates, with three dots or an ellipsis. */
const LOADING = /^loading(?:\.\.\.|…)$/i;

/** The error a cell shows, like #N/A, or undefined. */
function sheetError(cell: unknown): string | undefined {
  if (typeof cell !== 'string') return undefined;
  return SHEET_ERROR.exec(cell.trim())?.[0];
}

/**
 * Why a cell cannot be sent, as "shows the error #N/A" or "shows "Loading…" (…)", or undefined for a
 * cell that holds data. Neither is a value anyone typed, so no import or export sends one.
 */
export function unsettledCell(cell: unknown): string | undefined {
  const error = sheetError(cell);
  if (error) return `shows the error ${error}`;
  if (typeof cell === 'string' && LOADING.test(cell.trim())) {
    return 'shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again';
  }
  return undefined;
}
