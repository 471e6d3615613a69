// The data the scenarios read and write, created through the emulator's fixtures control API.

import { randomUUID } from 'node:crypto';
import type { RunningEmulator } from '../emulator/testing';

/** The day `offset` days after `start` (YYYY-MM-DD). */
export function isoDay(start: string, offset: number): string {
  return new Date(Date.parse(`${start}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Days from `start` to `end`, both included. */
export function daysBetween(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A deterministic value with two decimals, a few blank, as a live series has. */
function dailyValue(metric: number, day: number): string | null {
  if (day % 97 === 13) return null;
  return (1000 + metric * 100 + ((day * 37) % 500) + (day % 7) / 4).toFixed(2);
}

/** A daily metric in the fund whose points cover start..end, every day. */
export interface DailySeries {
  metricId: string;
  start: string;
  end: string;
  points: number;
}

/** Creates one daily metric per range, with a point on every day of it. */
export async function createDailySeries(
  emulator: RunningEmulator,
  fundId: string,
  ranges: Array<{ name: string; start: string; end: string }>,
): Promise<DailySeries[]> {
  const series = ranges.map((range) => ({
    metricId: randomUUID(),
    start: range.start,
    end: range.end,
    points: daysBetween(range.start, range.end),
    name: range.name,
  }));
  await emulator.control.fixtures({
    metrics: series.map((s) => ({ id: s.metricId, company_id: fundId, name: s.name, frequency: 'daily', unit: 'number' })),
    data_points: series.flatMap((s, metric) =>
      Array.from({ length: s.points }, (_, day) => ({ metric_id: s.metricId, date: isoDay(s.start, day), value: dailyValue(metric, day) })),
    ),
  });
  return series.map(({ metricId, start, end, points }) => ({ metricId, start, end, points }));
}

/** Empty daily metrics, for the exports to fill. */
export async function createEmptyMetrics(emulator: RunningEmulator, fundId: string, names: string[]): Promise<string[]> {
  const ids = names.map(() => randomUUID());
  await emulator.control.fixtures({ metrics: names.map((name, i) => ({ id: ids[i], company_id: fundId, name, frequency: 'daily', unit: 'number' })) });
  return ids;
}

/** A model: monthly metrics with `months` points each, ending December 2024. */
export interface ModelData {
  metricIds: string[];
  /** Value of each metric by first day of month (YYYY-MM-01), as the cells should show it. */
  values: Array<Map<string, number>>;
}

export async function createModelMetrics(emulator: RunningEmulator, fundId: string, metrics: number, months: number): Promise<ModelData> {
  const metricIds = Array.from({ length: metrics }, () => randomUUID());
  const values = metricIds.map(() => new Map<string, number>());
  const firstYear = 2025 - Math.ceil(months / 12);
  const points = metricIds.flatMap((metricId, m) =>
    Array.from({ length: months }, (_, i) => {
      const monthIndex = 12 - (months % 12 || 12) + i; // so that the last month is December 2024
      const date = `${firstYear + Math.floor(monthIndex / 12)}-${String((monthIndex % 12) + 1).padStart(2, '0')}-01`;
      const value = Number((500 + m * 1000 + i * 12.5).toFixed(2));
      values[m]!.set(date, value);
      return { metric_id: metricId, date, value: String(value) };
    }),
  );
  await emulator.control.fixtures({
    metrics: metricIds.map((id, m) => ({ id, company_id: fundId, name: `Model metric ${m + 1}`, frequency: 'monthly', unit: 'USD' })),
    data_points: points,
  });
  return { metricIds, values };
}

/** A fund of profiles with a value for every property, select and multiselect ones with options. */
export interface FundData {
  companyId: string;
  profiles: number;
  properties: number;
  selectProperties: number;
  options: number;
  values: number;
}

/** Data types of the 20 properties: a fund's usual mix. */
const PROPERTY_TYPES = [
  'select',
  'select',
  'select',
  'select',
  'multiselect',
  'multiselect',
  'number',
  'number',
  'number',
  'number',
  'date',
  'date',
  'boolean',
  'boolean',
  'string',
  'string',
  'text',
  'text',
  'url',
  'rich_text',
] as const;

export async function createFund(emulator: RunningEmulator, profiles: number, properties: number): Promise<FundData> {
  const companyId = randomUUID();
  const profileIds = Array.from({ length: profiles }, () => randomUUID());
  const types = Array.from({ length: properties }, (_, i) => PROPERTY_TYPES[i % PROPERTY_TYPES.length]!);
  const propertyIds = types.map(() => randomUUID());
  const optionIds = types.map((type) => (type === 'select' || type === 'multiselect' ? Array.from({ length: 5 }, () => randomUUID()) : []));
  const valueOf = (type: string, p: number): Record<string, unknown> => {
    switch (type) {
      case 'number':
        return { value: String(1000 + p * 17) };
      case 'date':
        return { value: `20${10 + (p % 15)}-0${1 + (p % 9)}-15` };
      case 'boolean':
        return { value: p % 2 === 0 ? 'true' : 'false' };
      case 'url':
        return { value: `https://company-${p}.example.com` };
      default:
        return { value: `Text ${p}` };
    }
  };
  const values = profileIds.flatMap((profileId, p) =>
    types.map((type, i) => {
      const base = { portfolio_property_id: propertyIds[i], portfolio_company_profile_id: profileId };
      if (type === 'select') return { ...base, portfolio_property_option_id: optionIds[i]![p % 5] };
      if (type === 'multiselect') return { ...base, portfolio_property_option_ids: [optionIds[i]![p % 5], optionIds[i]![(p + 2) % 5]] };
      return { ...base, ...valueOf(type, p) };
    }),
  );
  await emulator.control.fixtures({
    companies: [{ id: companyId, name: 'Benchmark Fund', kind: 'investor' }],
    portfolio_company_profiles: profileIds.map((id, p) => ({ id, company_id: companyId, name: `Portfolio company ${p + 1}`, currency: 'USD' })),
    portfolio_properties: types.map((data_type, i) => ({ id: propertyIds[i], company_id: companyId, name: `Property ${i + 1} (${data_type})`, data_type })),
    portfolio_property_options: optionIds.flatMap((ids, i) => ids.map((id, o) => ({ id, portfolio_property_id: propertyIds[i], label: `Option ${o + 1}` }))),
    portfolio_property_values: values,
  });
  const selectProperties = optionIds.filter((ids) => ids.length > 0).length;
  return { companyId, profiles, properties, selectProperties, options: selectProperties * 5, values: values.length };
}

/** Quarter starts of the grid fund's series: 2023-Q1..2024-Q4 reported, 2025-Q1 and Q2 pre-created null. */
export const GRID_QUARTERS = [
  '2023-01-01',
  '2023-04-01',
  '2023-07-01',
  '2023-10-01',
  '2024-01-01',
  '2024-04-01',
  '2024-07-01',
  '2024-10-01',
  '2025-01-01',
  '2025-04-01',
];

/** A fund of companies with one quarterly metric of each name, for the grid by name. */
export interface GridFund {
  fundId: string;
  companies: string[];
  names: string[];
  metricId(company: number, name: number): string;
  /** The value the API holds for quarter `q` of GRID_QUARTERS (float text), or null for a blank point. */
  value(company: number, name: number, q: number): string | null;
}

/**
 * As a live fund holds them: a null point pre-created for every quarter (the last two never filled, and
 * one company in seven skipped 2024-Q4), values as float text ("12.0", "141.6666666666666").
 */
export async function createGridFund(emulator: RunningEmulator, companies: number, names: string[]): Promise<GridFund> {
  const fundId = randomUUID();
  const profileIds = Array.from({ length: companies }, () => randomUUID());
  const ids = profileIds.map(() => names.map(() => randomUUID()));
  const companyNames = profileIds.map((_, c) => `Grid company ${c + 1}`);
  const value = (c: number, n: number, q: number): string | null => {
    if (q >= 8 || (q === 7 && c % 7 === 3)) return null;
    const whole = 100 + c * 10 + n;
    // Thirds give the 16-digit float text the service sends; whole numbers its "N.0".
    return n % 2 === 0 ? `${whole + q}.0` : String(Number(((whole * 3 + q) / 3).toPrecision(16)));
  };
  await emulator.control.fixtures({
    companies: [{ id: fundId, name: 'Grid Benchmark Fund', kind: 'investor' }],
    portfolio_company_profiles: profileIds.map((id, c) => ({ id, company_id: fundId, name: companyNames[c], fiscal_year_end_month: (c % 12) + 1 })),
    metrics: profileIds.flatMap((profileId, c) =>
      names.map((name, n) => ({ id: ids[c]![n], company_id: fundId, portfolio_company_profile_id: profileId, name, frequency: 'quarterly', unit: 'USD' })),
    ),
    data_points: profileIds.flatMap((_, c) =>
      names.flatMap((__, n) => GRID_QUARTERS.map((date, q) => ({ metric_id: ids[c]![n], date, value: value(c, n, q) }))),
    ),
  });
  return { fundId, companies: companyNames, names, metricId: (c, n) => ids[c]![n]!, value };
}
