// Whether a snapshot's refresh may read what its definition names: the refreshing user's formula access for
// this spreadsheet decides (core/formulas/formula-access), never the definition, which lives in the document.
// Pure; the listings are handed in, and only allowed companies' listings are ever asked for.

import type { Metric } from '../api/types';
import { allowedCount, findListedMetrics } from '../formulas/formula-access';
import type { SnapshotDefinition } from './snapshot';

/**
 * Why the refresh may not read this snapshot's data (a clause: "company X is not …"), or null when it may.
 * The company (a portfolio grid's fund) must be on the list; each metric of a METRIC_VALUES table must be in
 * an allowed company's listing, the snapshot's company's first.
 */
export function snapshotAccessProblem(
  definition: Pick<SnapshotDefinition, 'kind' | 'companyId' | 'metricIds'>,
  allowedCompanyIds: readonly string[],
  listingOf: (companyId: string) => readonly Metric[],
): string | null {
  const allowed = allowedCompanyIds.map((id) => id.toLowerCase());
  const list = allowedCount(allowed);
  const company = definition.companyId.toLowerCase();
  if (!allowed.includes(company)) return `company ${definition.companyId} is not among the companies your formula access allows in this spreadsheet (${list})`;
  if (definition.kind !== 'metric_values') return null;
  const found = findListedMetrics([company, ...allowed.filter((id) => id !== company)], definition.metricIds, listingOf);
  const missing = definition.metricIds.filter((id) => !found.has(id.toLowerCase()));
  if (missing.length === 0) return null;
  return `${missing.length === 1 ? `metric ${missing[0]} is` : `metrics ${missing.join(', ')} are`} not a metric of any company your formula access allows in this spreadsheet (${list})`;
}
