// Whether a snapshot's refresh may read what its definition names: the refresher's formula access decides.

import type { Metric } from '../../../src/core/api/types';
import { snapshotAccessProblem } from '../../../src/core/snapshots/access';

const FUND = 'c0000000-0000-4000-8000-000000000001';
const OTHER = 'c0000000-0000-4000-8000-000000000002';
const SECRET = 'c0000000-0000-4000-8000-000000000003';
const metric = (id: string, companyId: string) => ({ id, company_id: companyId, name: id }) as unknown as Metric;
const LISTINGS: Record<string, Metric[]> = { [FUND]: [metric('m-fund', FUND)], [OTHER]: [metric('m-other', OTHER)], [SECRET]: [metric('m-secret', SECRET)] };

function check(definition: { kind: 'metric_values' | 'portfolio_metric'; companyId: string; metricIds: string[] }, allowed: string[]) {
  const asked: string[] = [];
  const problem = snapshotAccessProblem(definition, allowed, (companyId) => (asked.push(companyId), LISTINGS[companyId] ?? []));
  return { problem, asked };
}

describe('snapshot access', () => {
  it("allows metrics of the snapshot's company, reading its listing first and no other", () => {
    expect(check({ kind: 'metric_values', companyId: FUND, metricIds: ['m-fund'] }, [OTHER, FUND])).toEqual({ problem: null, asked: [FUND] });
  });

  it('allows a metric of another allowed company, reading only allowed listings', () => {
    expect(check({ kind: 'metric_values', companyId: FUND.toUpperCase(), metricIds: ['m-fund', 'M-OTHER'] }, [FUND, OTHER])).toEqual({
      problem: null,
      asked: [FUND, OTHER],
    });
  });

  it('refuses a company not on the list without reading anything', () => {
    expect(check({ kind: 'metric_values', companyId: SECRET, metricIds: ['m-secret'] }, [FUND])).toEqual({
      problem: `company ${SECRET} is not among the companies your formula access allows in this spreadsheet (1 company)`,
      asked: [],
    });
    expect(check({ kind: 'portfolio_metric', companyId: SECRET, metricIds: [] }, []).problem).toMatch(/\(none yet\)$/);
  });

  it('refuses a metric of no allowed company, never asking for the company that holds it', () => {
    expect(check({ kind: 'metric_values', companyId: FUND, metricIds: ['m-fund', 'm-secret'] }, [FUND, OTHER])).toEqual({
      problem: 'metric m-secret is not a metric of any company your formula access allows in this spreadsheet (2 companies)',
      asked: [FUND, OTHER],
    });
  });

  it('allows a portfolio grid of an allowed fund without a listing (its function checks each read)', () => {
    expect(check({ kind: 'portfolio_metric', companyId: FUND, metricIds: [] }, [FUND])).toEqual({ problem: null, asked: [] });
  });
});
