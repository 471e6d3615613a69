// One counter for every job's report totals, so exports, audits and imports add up the same way.

/**
 * Counts `items` by outcome. Every outcome of `outcomes` is a key, in that order and at 0 when no item has
 * it, so totals always show the same keys in the same order.
 */
export function tallyOutcomes<O extends string, T>(outcomes: readonly O[], items: Iterable<T>, outcomeOf: (item: T) => O): Record<O, number> {
  const totals = Object.fromEntries(outcomes.map((outcome) => [outcome, 0])) as Record<O, number>;
  for (const item of items) totals[outcomeOf(item)]++;
  return totals;
}
