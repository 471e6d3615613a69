// The words the add-in writes, in one style wherever a person reads them (a cell, a report, the sidebar, a
// toast): counts with their noun in agreement and thousands separators ("1 row", "1,000 rows"), lists ("a, b and
// c"), and cell text quoted and cut short. Pure, so the server, the core and the page share it.

/** 1000 → "1,000", written out because Intl's grouping depends on the runtime's locale data. */
export function formatCount(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A count with its noun in agreement: "1 row", "2 rows", "1,000 rows". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/**
 * "a", "a and b", "a, b and c"; past `limit` parts, the first `limit` and a count: "a, b and 3 more" (so a
 * long list cannot flood a message). `word` joins the last part instead of "and": "a, b or c".
 */
export function joinAnd(parts: readonly string[], { limit = Infinity, word = 'and' }: { limit?: number; word?: string } = {}): string {
  if (parts.length > limit) return `${parts.slice(0, limit).join(', ')} ${word} ${formatCount(parts.length - limit)} more`;
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} ${word} ${parts[parts.length - 1]}`;
}

/** Cell text quoted in a sentence, cut short so one odd cell cannot flood the report. */
export function quote(text: string): string {
  return `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`;
}
