// The pieces the fund's functions share: a metric name with its own aggregate, the name cells a model writes,
// and the labels that tell two companies of one name apart.

import {
  aggregateOf,
  companyLabels,
  distinctUnits,
  mixedUnitsText,
  namingAggregate,
  readCompanyLabel,
  readNamedMetric,
  unitsSummaryText,
  unitText,
} from '../../src/core/formulas/fund-cells';
import { modelNameCells } from '../../src/core/formulas/fund-model';
import type { PortfolioCompanyProfile } from '../../src/core/api/types';

describe('a metric name with its own aggregate', () => {
  it('reads "Cash (last)" as Cash with last, in any case and spacing, and a plain name as itself', () => {
    expect(readNamedMetric('Cash (last)')).toEqual({ name: 'Cash', aggregate: 'last' });
    expect(readNamedMetric('  net burn(SUM ) ')).toEqual({ name: 'net burn', aggregate: 'sum' });
    expect(readNamedMetric('Revenue')).toEqual({ name: 'Revenue', aggregate: undefined });
    // Not an aggregate word, or a metric really named so: the whole text is the name.
    expect(readNamedMetric('Revenue (EUR)')).toEqual({ name: 'Revenue (EUR)', aggregate: undefined });
    expect(readNamedMetric('Growth (average)', (whole) => whole === 'Growth (average)')).toEqual({ name: 'Growth (average)', aggregate: undefined });
  });

  it("never takes an aggregate given apart, and refuses one that contradicts the name's", () => {
    expect(aggregateOf(readNamedMetric('Cash'), 'sum')).toBeUndefined();
    expect(aggregateOf(readNamedMetric('Cash (last)'), undefined)).toBe('last');
    expect(aggregateOf(readNamedMetric('Cash (last)'), 'last')).toBe('last');
    expect(() => aggregateOf(readNamedMetric('Cash (last)'), 'sum')).toThrow('The name "Cash (last)" names "last" and the formula\'s last argument "sum"');
    expect(namingAggregate('Cash', 'last')).toBe('Cash (last)');
    expect(namingAggregate('Cash (first)', 'last')).toBe('Cash (first)');
    expect(namingAggregate('Cash', null)).toBe('Cash');
  });

  it("writes a model's name cells: one name takes the aggregate chosen apart, several must each name their own", () => {
    expect(modelNameCells({ metricNames: ['Cash'], aggregate: 'last' })).toEqual(['Cash (last)']);
    expect(modelNameCells({ metricNames: ['Cash (last)', ' Revenue (sum) ', 'Headcount'], aggregate: null })).toEqual([
      'Cash (last)',
      'Revenue (sum)',
      'Headcount',
    ]);
    expect(() => modelNameCells({ metricNames: ['Cash', 'Revenue'], aggregate: 'sum' })).toThrow('Choose the aggregate for each metric, not one for all');
  });
});

describe('company labels', () => {
  const profile = (id: string, name: string) => ({ id, name }) as PortfolioCompanyProfile;
  const a = '0c000000-0000-4000-8000-000000000001';
  const b = '0c000000-0000-4000-8000-000000000002';
  const c = '0c000000-0000-4000-8000-000000000003';

  it('adds the profile id only where two companies share a name (trimmed, any case), and reads it back', () => {
    const labels = companyLabels([profile(a, 'Cirrus Systems'), profile(b, 'cirrus systems '), profile(c, 'Helix Bio')]);
    expect([...labels.values()]).toEqual([`Cirrus Systems (${a})`, `cirrus systems (${b})`, 'Helix Bio']);
    expect(readCompanyLabel(` Cirrus Systems (${b.toUpperCase()}) `)).toEqual({ name: 'Cirrus Systems', profileId: b });
    expect(readCompanyLabel('Helix Bio')).toBeUndefined();
  });
});

describe("units of a fund table's rows", () => {
  it('shows a currency code in capitals and anything else as given, trimmed', () => {
    expect([' usd', 'EUR', 'percent', 'number', null, undefined].map(unitText)).toEqual(['USD', 'EUR', 'percent', 'number', '', '']);
  });

  it('lists the distinct units most frequent first, leaving out rows without one', () => {
    expect(distinctUnits(['EUR', 'USD', '', 'usd', null, 'USD'])).toEqual(['USD', 'EUR']);
    expect(distinctUnits(['GBP', 'EUR'])).toEqual(['EUR', 'GBP']);
  });

  it('says a total adds different currencies (or units) only where the rows are in several', () => {
    expect(mixedUnitsText(['USD', 'EUR', 'USD', ''])).toBe('USD and EUR: a total over them adds different currencies');
    expect(mixedUnitsText(['USD', 'percent'])).toBe('USD and percent: a total over them adds different units');
    expect(mixedUnitsText(['USD', 'usd', ''])).toBeUndefined();
    expect(unitsSummaryText(['USD', 'EUR', 'USD'])).toBe('rows in USD and EUR: a total over them adds different currencies');
    expect(unitsSummaryText(['USD', '', 'USD'])).toBe('USD');
    expect(unitsSummaryText(['', ''])).toBe('');
  });
});
