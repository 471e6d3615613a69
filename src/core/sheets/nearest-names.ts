// "Did you mean …?": the names closest to one that matched nothing, by edit distance without regard to case.

/** Levenshtein distance of two short texts. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Up to `count` of `names` nearest to `wanted`, nearest first: those a typo away (at most 2 edits), or else those
 * containing it (or contained in it) or within a third of its length in edits. None when nothing is near; each
 * spelling once. "Monthly Recuring Revenue" finds "Monthly Recurring Revenue", not also "Revenue".
 */
export function nearestNames(wanted: string, names: Iterable<string>, count = 3): string[] {
  const target = wanted.trim().toLowerCase();
  const candidates = new Map<string, { name: string; edits: number; contains: boolean }>();
  for (const name of names) {
    const key = name.trim().toLowerCase();
    if (key === '' || candidates.has(key)) continue;
    const contains = Math.min(key.length, target.length) >= 3 && (key.includes(target) || target.includes(key));
    candidates.set(key, { name: name.trim(), edits: distance(target, key), contains });
  }
  const all = [...candidates.values()].sort((a, b) => a.edits - b.edits || a.name.localeCompare(b.name));
  const typos = all.filter((c) => c.edits <= 2);
  const near = typos.length > 0 ? typos : all.filter((c) => c.contains || c.edits <= Math.floor(target.length / 3));
  return near.slice(0, count).map((c) => c.name);
}

/** "; did you mean "Net Burn"?" or "; did you mean "A" or "B"?", or "" when nothing is near. */
export function didYouMean(wanted: string, names: Iterable<string>): string {
  const near = nearestNames(wanted, names).map((name) => `"${name}"`);
  if (near.length === 0) return '';
  return `; did you mean ${near.length === 1 ? near[0] : `${near.slice(0, -1).join(', ')} or ${near[near.length - 1]}`}?`;
}
