// A fund's metrics of its portfolio companies share names ("Net Burn" thirteen times): every picker shows, sorts by
// and filters by the company, so no one exports into the wrong company's metric.

import { el } from './dom';

/** The company's own metrics first, then each portfolio company's, by company name; the listing's order within. */
export function sortedByCompany<T extends { portfolioCompanyName: string | null }>(metrics: readonly T[]): T[] {
  return metrics
    .map((metric, index) => ({ metric, index }))
    .sort((a, b) => (a.metric.portfolioCompanyName ?? '').localeCompare(b.metric.portfolioCompanyName ?? '') || a.index - b.index)
    .map(({ metric }) => metric);
}

/** The distinct company names, sorted. */
export function companyNames(names: Iterable<string | null>): string[] {
  return [...new Set([...names].filter((name): name is string => Boolean(name)))].sort((a, b) => a.localeCompare(b));
}

/**
 * Fills a company filter ("All companies", then each distinct name, sorted), keeping the choice when it is still
 * there; hidden when none.
 */
export function fillCompanyFilter(select: HTMLSelectElement, field: HTMLElement, companies: Iterable<string | null>): void {
  const names = companyNames(companies);
  const chosen = select.value;
  select.replaceChildren(el('option', { value: '' }, 'All companies'), ...names.map((name) => el('option', { value: name }, name)));
  select.value = names.includes(chosen) ? chosen : '';
  field.hidden = names.length === 0;
}
