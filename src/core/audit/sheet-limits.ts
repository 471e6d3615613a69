// What Sheets refuses, as the audit meets it: list rules over 500 items and cells over 50,000 characters.

/** "The data validation rule has more items than the limit of 500. Use the "List from a range" criteria instead." */
export const LIST_RULE_MAX_ITEMS = 500;
/** "Your input contains more than the maximum of 50000 characters in a single cell." */
export const CELL_MAX_CHARACTERS = 50_000;

const CUT_MARK = /… \[cut: (\d+) characters in all; edit this value in the app\]$/;

function cutMark(length: number): string {
  return `… [cut: ${length} characters in all; edit this value in the app]`;
}

/**
 * Text that fits one cell: itself when it does, else its start and a visible mark naming its full length,
 * 50,000 characters in all. The cut never splits a surrogate pair, which Sheets would store as a broken
 * character. Lengths are UTF-16 code units, as JavaScript and the runtime count them: never fewer than
 * the characters Sheets counts, so a cut cell always fits.
 */
export function fitCell(text: string): { text: string; cut: boolean } {
  if (text.length <= CELL_MAX_CHARACTERS) return { text, cut: false };
  const mark = cutMark(text.length);
  let end = CELL_MAX_CHARACTERS - mark.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { text: text.slice(0, end) + mark, cut: true };
}

/** Whether a cell still ends with the mark fitCell added: its text is not the whole value, so it must not be sent. */
export function isCutText(value: unknown): boolean {
  return typeof value === 'string' && CUT_MARK.test(value);
}
