// Deterministic demo data: fixed ids and seeded values, so tests can assert exact records.

import { periodStarts } from './periods';
import { AUTO_CALCULATED_PROPERTY_NAMES } from './property-values';
import { seededRandom } from './random';
import type {
  DataPointRecord,
  DataPointSourceRecord,
  EmulatorState,
  MetricRecord,
  OptionRecord,
  PortfolioNoteRecord,
  ProfileRecord,
  PropertyRecord,
  PropertyValueRecord,
} from './records';
import { emptyState } from './records';

/** A readable, valid UUID: the first group names the kind of record, the last group counts. */
function demoId(kind: string, n: number): string {
  return `${kind}-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** The token the demo user holds unless the CLI is given another. */
export const DEMO_TOKEN = 'demo-token';
/** A token whose user reaches only Blue Harbor Partners: handy for 403 tests. */
export const OUTSIDER_TOKEN = 'outsider-token';

/** Fixed ids of the demo records tests may rely on. */
export const DEMO_IDS = {
  /** Northwind Ventures, the investor fund (replaced by `--company C` when given). */
  fund: demoId('c0000000', 1),
  /** Acme Analytics, a startup company; the demo token reaches it. */
  startup: demoId('c0000000', 2),
  /** Blue Harbor Partners, an investor fund the demo token does not reach. */
  otherFund: demoId('c0000000', 3),
  demoUser: demoId('a0000000', 1),
  outsiderUser: demoId('a0000000', 2),
  metrics: {
    dailyActiveUsers: demoId('e0000000', 1),
    dailyRevenue: demoId('e0000000', 2),
    weeklySignups: demoId('e0000000', 3),
    monthlyRecurringRevenue: demoId('e0000000', 4),
    netBurn: demoId('e0000000', 5),
    grossMarginHtml: demoId('e0000000', 6),
    headcount: demoId('e0000000', 7),
    fundNav: demoId('e0000000', 8),
    cashBalance: demoId('e0000000', 9),
    auditedRevenue: demoId('e0000000', 10),
    emptyMetric: demoId('e0000000', 11),
    startupMrr: demoId('e0000000', 21),
    startupChurn: demoId('e0000000', 22),
    startupDailySignups: demoId('e0000000', 23),
    startupCustomers: demoId('e0000000', 24),
    otherFundRevenue: demoId('e0000000', 31),
  },
  /**
   * Profiles 1..12 and 14..33 of the fund are `profile(n)`; 13 belongs to Blue Harbor. 14 is named
   * "Cirrus Systems" and 32 "Cirrus Systems " (two different companies; see PORTFOLIO_GROWTH).
   */
  profile: (n: number): string => demoId('b0000000', n),
  /** The grown fund's metrics (see PORTFOLIO_GROWTH), numbered from 1 in the order they are listed. */
  grownMetric: (n: number): string => demoId('e0000000', 100 + n),
  contact: (n: number): string => demoId('c1000000', n),
  contactList: (n: number): string => demoId('c2000000', n),
  noteTag: (n: number): string => demoId('c3000000', n),
  portfolioNote: (n: number): string => demoId('b1000000', n),
  property: (n: number): string => demoId('b2000000', n),
  option: (n: number): string => demoId('b3000000', n),
} as const;

/** The metric name that carries HTML, for injection tests. */
export const HTML_METRIC_NAME = '<b>Gross</b> margin <img src=x onerror=alert(1)>';
/** A text that a spreadsheet would run as a formula, for injection tests. */
export const FORMULA_TEXT = '=IMPORTXML("http://x","//a")';

/** Where the demo fund and token come from. */
export interface DemoOptions {
  /** Id the demo fund takes (the CLI's `--company`). */
  fundId?: string;
  /** Token of the demo user (the CLI's `--token`). */
  token?: string;
}

/** Only the fund and its user: what `--empty` and `reset {empty:true}` start from. */
export function buildEmptyState(options: DemoOptions = {}): EmulatorState {
  const state = emptyState();
  const fundId = options.fundId ?? DEMO_IDS.fund;
  state.companies.push({ id: fundId, name: 'Northwind Ventures', kind: 'investor' });
  state.users.push({ id: DEMO_IDS.demoUser, name: 'Dana Whitfield', tokens: [options.token ?? DEMO_TOKEN], company_ids: [fundId] });
  return state;
}

/**
 * The demo user's token and fund in a state (e.g. one loaded from `--data FILE`): the demo user's
 * first token and first company, else the first user's. Null when the state has no user with both.
 */
export function demoIdentity(state: EmulatorState): { token: string; companyId: string } | null {
  const user = state.users.find((candidate) => candidate.id === DEMO_IDS.demoUser) ?? state.users[0];
  const token = user?.tokens[0];
  const companyId = user?.company_ids[0];
  return token !== undefined && companyId !== undefined ? { token, companyId } : null;
}

/** The full demo: a fund with a dozen portfolio companies and years of data, a startup, and a fund the token cannot see. */
export function buildDemoState(options: DemoOptions = {}): EmulatorState {
  const fundId = options.fundId ?? DEMO_IDS.fund;
  const state = emptyState();
  state.companies.push(
    { id: fundId, name: 'Northwind Ventures', kind: 'investor' },
    { id: DEMO_IDS.startup, name: 'Acme Analytics', kind: 'startup' },
    { id: DEMO_IDS.otherFund, name: 'Blue Harbor Partners', kind: 'investor' },
  );
  state.users.push(
    { id: DEMO_IDS.demoUser, name: 'Dana Whitfield', tokens: [options.token ?? DEMO_TOKEN], company_ids: [fundId, DEMO_IDS.startup] },
    { id: DEMO_IDS.outsiderUser, name: 'Olaf Outsider', tokens: [OUTSIDER_TOKEN], company_ids: [DEMO_IDS.otherFund] },
  );
  addContacts(state, fundId);
  addProfiles(state, fundId);
  addMetrics(state, fundId);
  addGrownMetrics(state, fundId);
  addPortfolioNotes(state);
  addProperties(state, fundId);
  return state;
}

function addContacts(state: EmulatorState, fundId: string): void {
  const lists: Array<[number, string, string]> = [
    [1, 'Limited partners', fundId],
    [2, 'Founders', fundId],
    [3, 'Board observers', fundId],
    [4, 'Customers', DEMO_IDS.startup],
    [5, 'Harbor LPs', DEMO_IDS.otherFund],
  ];
  for (const [n, name, companyId] of lists) state.contact_lists.push({ id: DEMO_IDS.contactList(n), name, company_id: companyId });

  const people: Array<[string, string, string | null, string, number[]]> = [
    ['Ada', 'Lovelace', 'Managing Partner', fundId, [1]],
    ['Grace', 'Hopper', 'CEO', fundId, [2]],
    ['Alan', 'Turing', 'CTO', fundId, [2, 3]],
    ['Katherine', 'Johnson', null, fundId, [1, 3]],
    ['Edsger', 'Dijkstra', 'CFO', fundId, [2]],
    ['Barbara', 'Liskov', 'Board member', fundId, [3]],
    ['Donald', 'Knuth', null, fundId, []],
    ['Frances', 'Allen', 'Analyst', fundId, [1]],
    ['Linus', 'Pauling', 'Buyer', DEMO_IDS.startup, [4]],
    ['Marie', 'Curie', null, DEMO_IDS.startup, []],
    ['Niels', 'Bohr', 'Partner', DEMO_IDS.otherFund, [5]],
  ];
  people.forEach(([first, last, title, companyId, lists], index) => {
    state.contacts.push({
      id: DEMO_IDS.contact(index + 1),
      company_id: companyId,
      email: `${first}.${last}@example.com`.toLowerCase(),
      first_name: first,
      last_name: index === 6 ? null : last,
      title,
      contact_list_ids: lists.map((n) => DEMO_IDS.contactList(n)),
    });
  });

  const tags: Array<[number, string, string]> = [
    [1, 'Meeting', fundId],
    [2, 'Call', fundId],
    [3, 'Due diligence', fundId],
    [4, 'Customer feedback', DEMO_IDS.startup],
  ];
  for (const [n, name, companyId] of tags) state.note_tags.push({ id: DEMO_IDS.noteTag(n), name, company_id: companyId });

  state.notes.push(
    {
      id: demoId('c4000000', 1),
      company_id: fundId,
      contact_ids: [DEMO_IDS.contact(2)],
      note_tag_id: DEMO_IDS.noteTag(1),
      content: 'Quarterly catch-up: hiring plan on track.',
      created_at: '2025-04-02T10:00:00.000Z',
    },
    {
      id: demoId('c4000000', 2),
      company_id: fundId,
      contact_ids: [DEMO_IDS.contact(3), DEMO_IDS.contact(5)],
      note_tag_id: null,
      content: '**Follow-up** on the security review.',
      created_at: '2025-05-12T15:30:00.000Z',
    },
  );
}

const PROFILE_NAMES = [
  'Aurora Robotics',
  'Bluebird Health',
  'Cobalt Payments',
  'Dune Energy',
  'Evergreen Foods',
  'Fjord Logistics',
  'Granite Security',
  'Helix Bio',
  'Ion Mobility',
  'Juniper Learning',
  'Kestrel Aerospace',
  'Lumen Analytics',
];
const CURRENCIES = ['USD', 'EUR', 'GBP', null] as const;

function addProfiles(state: EmulatorState, fundId: string): void {
  const fiscalYearEnd: Record<number, number> = { 1: 12, 2: 3, 5: 6 };
  PROFILE_NAMES.forEach((name, index) => {
    const n = index + 1;
    state.portfolio_company_profiles.push({
      id: DEMO_IDS.profile(n),
      company_id: fundId,
      name,
      website_url: n % 5 === 0 ? null : `https://${name.toLowerCase().replace(/\s+/g, '-')}.example.com`,
      currency: CURRENCIES[index % CURRENCIES.length] ?? null,
      primary_contact_id: n <= 5 ? DEMO_IDS.contact(((n - 1) % 5) + 2) : null,
      fiscal_year_end_month: fiscalYearEnd[n] ?? null,
      created_at: `2018-${String(n).padStart(2, '0')}-15T12:00:00.000Z`,
    });
  });
  state.portfolio_company_profiles.push({
    id: DEMO_IDS.profile(13),
    company_id: DEMO_IDS.otherFund,
    name: 'Harbor Holdings',
    website_url: null,
    currency: 'USD',
    primary_contact_id: null,
    fiscal_year_end_month: null,
    created_at: '2019-03-01T12:00:00.000Z',
  });
  // The grown fund (profiles 14 on) comes after Blue Harbor's 13, so every earlier id and position stays.
  PORTFOLIO_GROWTH.filter((company) => company.profile >= FIRST_GROWTH_PROFILE).forEach((company, index) => {
    const n = company.profile;
    state.portfolio_company_profiles.push({
      id: DEMO_IDS.profile(n),
      company_id: fundId,
      name: company.name,
      website_url: n % 6 === 0 ? null : `https://${company.name.trim().toLowerCase().replace(/\s+/g, '-')}-${n}.example.com`,
      currency: company.currency,
      primary_contact_id: null,
      fiscal_year_end_month: company.fiscalYearEnd,
      created_at: `${company.since.slice(0, 4)}-${String((index % 12) + 1).padStart(2, '0')}-20T12:00:00.000Z`,
    });
  });
}

interface MetricPlan {
  id: string;
  name: string;
  frequency: string;
  unit: string;
  companyId: string;
  profile: number | null;
  first?: string;
  last?: string;
  base?: number;
  /** Every n-th point is blank (null). */
  blankEvery?: number;
  decimals?: number;
}

/** Data ends here, so the demo is the same whatever day it runs. */
const DEMO_LAST_DAY = '2025-06-30';

function metricPlans(fundId: string): MetricPlan[] {
  const m = DEMO_IDS.metrics;
  return [
    {
      id: m.dailyActiveUsers,
      name: 'Daily Active Users',
      frequency: 'daily',
      unit: 'number',
      companyId: fundId,
      profile: 1,
      first: '2023-07-01',
      base: 1200,
      blankEvery: 45,
      decimals: 0,
    },
    { id: m.dailyRevenue, name: 'Daily Revenue', frequency: 'daily', unit: 'USD', companyId: fundId, profile: 2, first: '2023-07-01', base: 8000, decimals: 2 },
    {
      id: m.weeklySignups,
      name: 'Weekly Signups',
      frequency: 'weekly',
      unit: 'number',
      companyId: fundId,
      profile: 1,
      first: '2023-01-02',
      base: 300,
      decimals: 0,
    },
    {
      id: m.monthlyRecurringRevenue,
      name: 'Monthly Recurring Revenue',
      frequency: 'monthly',
      unit: 'USD',
      companyId: fundId,
      profile: 1,
      first: '2019-01-01',
      base: 50000,
      decimals: 2,
    },
    {
      id: m.netBurn,
      name: 'Net Burn',
      frequency: 'monthly',
      unit: 'EUR',
      companyId: fundId,
      profile: 2,
      first: '2019-01-01',
      base: 120000,
      blankEvery: 13,
      decimals: 2,
    },
    {
      id: m.grossMarginHtml,
      name: HTML_METRIC_NAME,
      frequency: 'monthly',
      unit: 'percent',
      companyId: fundId,
      profile: 3,
      first: '2020-01-01',
      base: 55,
      blankEvery: 20,
      decimals: 1,
    },
    { id: m.headcount, name: 'Headcount', frequency: 'quarterly', unit: 'number', companyId: fundId, profile: 3, first: '2019-01-01', base: 25, decimals: 0 },
    {
      id: m.fundNav,
      name: 'Fund NAV',
      frequency: 'quarterly',
      unit: 'USD',
      companyId: fundId,
      profile: null,
      first: '2019-01-01',
      base: 40000000,
      decimals: 2,
    },
    {
      id: m.cashBalance,
      name: 'Cash Balance',
      frequency: 'monthly',
      unit: 'EUR',
      companyId: fundId,
      profile: 4,
      first: '2020-01-01',
      base: 2500000,
      decimals: 2,
    },
    // Live accounts return frequencies the document does not list; the demo keeps one so clients meet it.
    {
      id: m.auditedRevenue,
      name: 'Audited Revenue',
      frequency: 'annually',
      unit: 'USD',
      companyId: fundId,
      profile: 1,
      first: '2018-01-01',
      last: '2024-01-01',
      base: 900000,
      decimals: 2,
    },
    { id: m.emptyMetric, name: 'Customer NPS', frequency: 'monthly', unit: 'number', companyId: fundId, profile: null },
    {
      id: m.startupMrr,
      name: 'MRR',
      frequency: 'monthly',
      unit: 'USD',
      companyId: DEMO_IDS.startup,
      profile: null,
      first: '2022-01-01',
      base: 15000,
      decimals: 2,
    },
    {
      id: m.startupChurn,
      name: 'Churn Rate',
      frequency: 'monthly',
      unit: 'percent',
      companyId: DEMO_IDS.startup,
      profile: null,
      first: '2022-01-01',
      base: 3,
      decimals: 2,
    },
    {
      id: m.startupDailySignups,
      name: 'Daily Signups',
      frequency: 'daily',
      unit: 'number',
      companyId: DEMO_IDS.startup,
      profile: null,
      first: '2024-07-01',
      base: 40,
      decimals: 0,
    },
    {
      id: m.startupCustomers,
      name: 'Customers',
      frequency: 'quarterly',
      unit: 'number',
      companyId: DEMO_IDS.startup,
      profile: null,
      first: '2022-01-01',
      base: 120,
      decimals: 0,
    },
    {
      id: m.otherFundRevenue,
      name: 'Harbor Revenue',
      frequency: 'monthly',
      unit: 'USD',
      companyId: DEMO_IDS.otherFund,
      profile: 13,
      first: '2024-01-01',
      base: 70000,
      decimals: 2,
    },
  ];
}

function addMetrics(state: EmulatorState, fundId: string): void {
  let pointCounter = 0;
  metricPlans(fundId).forEach((plan, index) => {
    const metric: MetricRecord = {
      id: plan.id,
      name: plan.name,
      frequency: plan.frequency,
      unit: plan.unit,
      company_id: plan.companyId,
      portfolio_company_profile_id: plan.profile === null ? null : DEMO_IDS.profile(plan.profile),
      created_at: `2019-01-${String(index + 1).padStart(2, '0')}T09:00:00.000Z`,
    };
    state.metrics.push(metric);
    if (!plan.first) return;
    // One generator per metric, so adding a metric never changes another's values.
    const random = seededRandom(index + 1);
    let level = plan.base ?? 100;
    periodStarts(plan.frequency, plan.first, plan.last ?? DEMO_LAST_DAY).forEach((date, position) => {
      level = Math.max(0, level * (1 + (random() - 0.45) * 0.04));
      pointCounter += 1;
      const blank = plan.blankEvery !== undefined && position % plan.blankEvery === plan.blankEvery - 1;
      const point: DataPointRecord = {
        id: demoId('d0000000', pointCounter),
        metric_id: metric.id,
        date,
        value: blank ? null : level.toFixed(plan.decimals ?? 2),
        source: demoSource(metric, position, demoId('d0000000', pointCounter)),
      };
      state.data_points.push(point);
    });
  });
}

// --- The grown fund --------------------------------------------------------------------------
//
// What a fund analyst meets on a live account: 32 portfolio companies whose metrics share a few
// names (Revenue, MRR, Cash, Headcount, Net Burn…) under different ids, spelt with other cases and spaces
// now and then, one company with two metrics of one name, two companies of one name (Cirrus Systems, profiles
// 14 and 32), fiscal years ending in
// different months, monthly and quarterly metrics, a null point pre-created for every period whether or
// not the company reported it (PLATFORM.md: "A null data point is pre-created for every period, reported or
// not"), and values as float text ("12.0", "141.6666666666666"). Everything here comes after the records
// above, so their ids, positions and values stay as they were.

interface GrownMetric {
  name: string;
  frequency: 'monthly' | 'quarterly';
  unit: string;
  base: number;
  /** money: cents; count: whole numbers ("42.0"); twelfths: a yearly whole number / 12; thirds: n / 3. */
  kind: 'money' | 'count' | 'twelfths' | 'thirds';
}

interface GrownCompany {
  /** Profile number: 5..12 are profiles above that had no metrics, 14 on are new. */
  profile: number;
  name: string;
  fiscalYearEnd: number | null;
  currency: string | null;
  /** First period the company's metrics exist (and are pre-created) from. */
  since: string;
  /** Share of periods the company skipped (their points stay null). */
  missRate: number;
  /** Last period it reported; later points stay null (a company that stopped sending updates). */
  stoppedAfter?: string;
  metrics: GrownMetric[];
}

/** Points are pre-created up to here (the rest of 2025), reported ones end at DEMO_LAST_DAY. */
const DEMO_PRECREATED_UNTIL = '2025-12-31';
/** The fund's profiles number 1..12, then Blue Harbor's 13, then these. */
const FIRST_GROWTH_PROFILE = 14;

const revenueQ = (base: number): GrownMetric => ({ name: 'Revenue', frequency: 'quarterly', unit: 'USD', base, kind: 'money' });
const revenueM = (base: number): GrownMetric => ({ name: 'Revenue', frequency: 'monthly', unit: 'USD', base, kind: 'money' });
const mrr = (base: number): GrownMetric => ({ name: 'MRR', frequency: 'monthly', unit: 'USD', base, kind: 'twelfths' });
const cashM = (base: number): GrownMetric => ({ name: 'Cash', frequency: 'monthly', unit: 'USD', base, kind: 'money' });
const cashQ = (base: number): GrownMetric => ({ name: 'Cash', frequency: 'quarterly', unit: 'USD', base, kind: 'money' });
const headcountQ = (base: number): GrownMetric => ({ name: 'Headcount', frequency: 'quarterly', unit: 'number', base, kind: 'count' });
const headcountM = (base: number): GrownMetric => ({ name: 'Headcount', frequency: 'monthly', unit: 'number', base, kind: 'count' });
const burn = (base: number): GrownMetric => ({ name: 'Net Burn', frequency: 'monthly', unit: 'USD', base, kind: 'money' });
const margin = (base: number): GrownMetric => ({ name: 'Gross Margin', frequency: 'quarterly', unit: 'percent', base, kind: 'thirds' });
const customers = (base: number): GrownMetric => ({ name: 'Customers', frequency: 'quarterly', unit: 'number', base, kind: 'count' });

/** Profiles 5..12 gain metrics (Lumen Analytics, just onboarded, has none); 14..33 are new companies. */
const PORTFOLIO_GROWTH: GrownCompany[] = [
  {
    profile: 14,
    name: 'Cirrus Systems',
    fiscalYearEnd: 12,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.05,
    metrics: [revenueQ(2_400_000), mrr(780_000), cashM(18_000_000), headcountQ(85), burn(420_000)],
  },
  {
    profile: 15,
    name: 'Orchid Therapeutics',
    fiscalYearEnd: 6,
    currency: 'GBP',
    since: '2022-01-01',
    missRate: 0.1,
    metrics: [cashM(42_000_000), burn(1_900_000), headcountQ(64)],
  },
  {
    profile: 16,
    name: 'Pinnacle Retail',
    fiscalYearEnd: 1,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.05,
    // Revenue twice: a monthly one, and a quarterly one someone created later instead of finding the first.
    metrics: [revenueM(1_100_000), cashQ(9_500_000), headcountQ(210), margin(38), revenueQ(3_300_000)],
  },
  {
    profile: 17,
    name: 'Quasar Semiconductors',
    fiscalYearEnd: 9,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.08,
    metrics: [revenueQ(12_000_000), cashQ(55_000_000), headcountQ(340), margin(52)],
  },
  {
    profile: 18,
    name: 'Redwood Fintech',
    fiscalYearEnd: 12,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0,
    metrics: [revenueM(650_000), mrr(600_000), cashM(24_000_000), headcountM(120), burn(900_000)],
  },
  {
    profile: 19,
    name: 'Sable Games',
    fiscalYearEnd: 3,
    currency: 'EUR',
    since: '2022-07-01',
    missRate: 0.15,
    metrics: [
      revenueQ(1_800_000),
      cashQ(7_000_000),
      headcountQ(48),
      { name: 'Monthly Active Users', frequency: 'monthly', unit: 'number', base: 240_000, kind: 'count' },
    ],
  },
  {
    profile: 20,
    name: 'Tidal Water',
    fiscalYearEnd: null,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.1,
    stoppedAfter: '2024-09-30',
    metrics: [revenueQ(900_000), cashQ(3_200_000), headcountQ(22)],
  },
  {
    profile: 21,
    name: 'Umbra Vision',
    fiscalYearEnd: 12,
    currency: 'EUR',
    since: '2023-01-01',
    missRate: 0.05,
    // A trailing space, as names typed into the web application keep them.
    metrics: [revenueQ(1_500_000), mrr(420_000), cashM(11_000_000), { ...headcountQ(40), name: 'Headcount ' }, burn(380_000)],
  },
  {
    profile: 22,
    name: 'Vertex Materials',
    fiscalYearEnd: 6,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.12,
    metrics: [revenueQ(4_200_000), cashQ(16_000_000), headcountQ(150), burn(700_000)],
  },
  {
    profile: 23,
    name: 'Willow Care',
    fiscalYearEnd: 3,
    currency: 'GBP',
    since: '2022-01-01',
    missRate: 0.05,
    metrics: [revenueM(480_000), cashM(6_500_000), headcountQ(95), customers(1_200)],
  },
  {
    profile: 24,
    name: 'Xylo Music',
    fiscalYearEnd: 12,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.1,
    stoppedAfter: '2024-12-31',
    metrics: [{ ...revenueQ(1_200_000), name: 'revenue' }, mrr(330_000), cashM(5_000_000), headcountQ(36)],
  },
  {
    profile: 25,
    name: 'Yarrow Farms',
    fiscalYearEnd: 9,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.2,
    metrics: [revenueQ(2_800_000), cashQ(4_400_000), margin(27)],
  },
  {
    profile: 26,
    name: 'Zephyr Drones',
    fiscalYearEnd: 12,
    currency: 'USD',
    since: '2023-04-01',
    missRate: 0.05,
    metrics: [revenueQ(700_000), cashM(13_000_000), headcountQ(58), burn(650_000)],
  },
  {
    profile: 27,
    name: 'Atlas Freight',
    fiscalYearEnd: null,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.08,
    metrics: [revenueM(2_100_000), cashM(21_000_000), headcountQ(260)],
  },
  {
    profile: 28,
    name: 'Beacon Insurance',
    fiscalYearEnd: 12,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.05,
    metrics: [revenueQ(6_400_000), cashQ(80_000_000), headcountQ(180), customers(42_000)],
  },
  {
    profile: 29,
    name: 'Cinder Studios',
    fiscalYearEnd: 4,
    currency: 'USD',
    since: '2022-01-01',
    missRate: 0.1,
    metrics: [revenueQ(1_000_000), mrr(250_000), cashM(4_100_000), headcountQ(30)],
  },
  {
    profile: 30,
    name: 'Delta Grid',
    fiscalYearEnd: 6,
    currency: 'EUR',
    since: '2022-01-01',
    missRate: 0.05,
    metrics: [revenueQ(5_600_000), cashQ(33_000_000), headcountQ(140), burn(1_200_000)],
  },
  {
    profile: 31,
    name: 'Ember Batteries',
    fiscalYearEnd: 12,
    currency: 'USD',
    since: '2023-01-01',
    missRate: 0.05,
    metrics: [cashM(60_000_000), burn(2_600_000), headcountQ(110)],
  },
  // A second, different company of the same name as the add-in reads names (trimmed, any case): another
  // profile, its own fiscal year and metrics. The trailing space is what lets the service hold both, as its
  // names are unique per fund compared without regard to case (contract x-decision) but not trimmed
  // (*unverified*: whether the live service trims names before that check).
  {
    profile: 32,
    name: 'Cirrus Systems ',
    fiscalYearEnd: 6,
    currency: 'USD',
    since: '2024-01-01',
    missRate: 0.05,
    metrics: [revenueQ(350_000), cashQ(2_000_000), headcountQ(12)],
  },
  { profile: 33, name: 'Foxglove Pharma', fiscalYearEnd: 3, currency: 'GBP', since: '2025-01-01', missRate: 0, metrics: [cashQ(25_000_000), burn(1_400_000)] },
  // Profiles of the first twelve that had no metrics: names and fiscal years as above, metrics added.
  {
    profile: 5,
    name: 'Evergreen Foods',
    fiscalYearEnd: 6,
    currency: null,
    since: '2022-01-01',
    missRate: 0.1,
    metrics: [revenueM(900_000), cashQ(8_000_000), headcountQ(75), margin(31)],
  },
  {
    profile: 6,
    name: 'Fjord Logistics',
    fiscalYearEnd: null,
    currency: null,
    since: '2022-01-01',
    missRate: 0.05,
    metrics: [revenueQ(3_100_000), cashM(12_000_000), headcountM(130), burn(500_000)],
  },
  {
    profile: 7,
    name: 'Granite Security',
    fiscalYearEnd: null,
    currency: null,
    since: '2022-01-01',
    missRate: 0.05,
    metrics: [revenueQ(2_000_000), mrr(680_000), cashM(15_000_000), headcountQ(90)],
  },
  {
    profile: 8,
    name: 'Helix Bio',
    fiscalYearEnd: null,
    currency: null,
    since: '2022-01-01',
    missRate: 0.1,
    metrics: [cashM(36_000_000), burn(1_700_000), headcountQ(55)],
  },
  {
    profile: 9,
    name: 'Ion Mobility',
    fiscalYearEnd: null,
    currency: null,
    since: '2022-01-01',
    missRate: 0.15,
    metrics: [revenueQ(1_400_000), cashQ(9_000_000), headcountQ(70), burn(600_000)],
  },
  {
    profile: 10,
    name: 'Juniper Learning',
    fiscalYearEnd: null,
    currency: null,
    since: '2022-01-01',
    missRate: 0.05,
    metrics: [revenueM(300_000), mrr(290_000), cashM(3_800_000), headcountQ(44), customers(3_500)],
  },
  {
    profile: 11,
    name: 'Kestrel Aerospace',
    fiscalYearEnd: null,
    currency: null,
    since: '2022-01-01',
    missRate: 0.1,
    metrics: [revenueQ(7_500_000), cashQ(48_000_000), headcountQ(320)],
  },
];

/**
 * A number as the live service sends it: Ruby's Float#to_s as seen there, "12.0" for a whole number,
 * else the shortest text, cut to 16 significant digits ("141.6666666666666"; *unverified*: whether the
 * service cuts or rounds the 17th digit, the one sample cuts).
 */
export function liveFloatText(value: number): string {
  if (Number.isInteger(value)) return `${value}.0`;
  const text = String(value);
  const digits = text.replace(/^-?0*\.?0*/, '').replace('.', '');
  if (digits.length <= 16) return text;
  const cut = text.length - (digits.length - 16);
  return text.slice(0, cut).replace(/0+$/, '');
}

function grownValue(metric: GrownMetric, level: number): string {
  switch (metric.kind) {
    case 'count':
      return liveFloatText(Math.round(level));
    case 'twelfths':
      return liveFloatText(Math.round(level * 12) / 12);
    case 'thirds':
      return liveFloatText(Math.round(level * 3) / 3);
    default:
      return liveFloatText(Math.round(level * 100) / 100);
  }
}

function addGrownMetrics(state: EmulatorState, fundId: string): void {
  let metricNumber = 0;
  for (const company of PORTFOLIO_GROWTH) {
    // Whether the company reported a month is one draw for all its metrics: an update covers them all.
    const reports = seededRandom(5000 + company.profile);
    const skipped = new Set<string>();
    for (const month of periodStarts('monthly', company.since, DEMO_PRECREATED_UNTIL)) {
      if (reports() < company.missRate || month > DEMO_LAST_DAY || (company.stoppedAfter !== undefined && month > company.stoppedAfter)) skipped.add(month);
    }
    for (const plan of company.metrics) {
      metricNumber += 1;
      const metric: MetricRecord = {
        id: DEMO_IDS.grownMetric(metricNumber),
        name: plan.name,
        frequency: plan.frequency,
        unit: plan.unit,
        company_id: fundId,
        portfolio_company_profile_id: DEMO_IDS.profile(company.profile),
        created_at: `${company.since}T09:${String(metricNumber % 60).padStart(2, '0')}:00.000Z`,
      };
      state.metrics.push(metric);
      const random = seededRandom(1000 + metricNumber);
      let level = plan.base;
      periodStarts(plan.frequency, company.since, DEMO_PRECREATED_UNTIL).forEach((date, position) => {
        level = Math.max(1, level * (1 + (random() - 0.42) * (plan.kind === 'thirds' ? 0.02 : 0.06)));
        const id = demoId('d0000000', state.data_points.length + 1);
        state.data_points.push({
          id,
          metric_id: metric.id,
          date,
          // Pre-created for every period; a period the company did not report keeps its null.
          value: skipped.has(date) ? null : grownValue(plan, level),
          source: demoSource(metric, position, id),
        });
      });
    }
  }
}

function demoSource(metric: MetricRecord, position: number, pointId: string): DataPointSourceRecord {
  const appUrl = `https://app.example.com/companies/${metric.company_id}/metrics/${metric.id}/data_points/${pointId}`;
  if (position % 29 === 0) return { source_type: 'unknown', label: 'Unknown source', app_url: null };
  // A source type the document does not list: enums of this API grow, clients must cope.
  if (metric.id === DEMO_IDS.metrics.cashBalance && position % 7 === 3) {
    return { source_type: 'integration', label: 'Synced from the accounting integration', app_url: appUrl };
  }
  if (position % 10 === 0) return { source_type: 'ai_inbox', label: 'AI inbox: board-pack.pdf', app_url: appUrl };
  if (position % 10 === 1) return { source_type: 'update_request', label: 'Update request: Monthly KPIs', app_url: appUrl };
  return { source_type: 'user_provided', label: 'Entered by Dana Whitfield', app_url: appUrl };
}

function addPortfolioNotes(state: EmulatorState): void {
  let counter = 0;
  const push = (profile: number, name: string, content: string | null, createdAt: string): void => {
    counter += 1;
    const note: PortfolioNoteRecord = {
      id: DEMO_IDS.portfolioNote(counter),
      portfolio_company_profile_id: DEMO_IDS.profile(profile),
      name,
      content,
      created_at: createdAt,
    };
    state.portfolio_notes.push(note);
  };
  // 27 notes on profile 1: more than one page of 25.
  for (let month = 1; month <= 27; month += 1) {
    const year = 2023 + Math.floor((month - 1) / 12);
    const monthOfYear = ((month - 1) % 12) + 1;
    push(
      1,
      `Monthly update ${year}-${String(monthOfYear).padStart(2, '0')}`,
      `Revenue and hiring for month ${monthOfYear} of ${year}.`,
      `${year}-${String(monthOfYear).padStart(2, '0')}-05T08:00:00.000Z`,
    );
  }
  push(2, 'Board meeting', '## Decisions\n- Approve budget\n- Hire a VP Sales', '2025-02-10T14:00:00.000Z');
  push(2, 'Term sheet review', 'Pro-rata rights confirmed.', '2024-11-20T09:30:00.000Z');
  push(2, 'Intro call', 'First call with the founders.', '2024-06-01T16:00:00.000Z');
  push(3, 'Imported from a spreadsheet', FORMULA_TEXT, '2025-03-03T11:00:00.000Z');
  push(3, 'Security review <script>alert(1)</script>', 'No findings.', '2025-01-15T10:00:00.000Z');
  push(4, 'Empty note', null, '2025-05-01T07:00:00.000Z');
  push(13, 'Harbor confidential', 'Not for Northwind.', '2025-01-01T00:00:00.000Z');
}

const CUSTOM_PROPERTIES: Array<[name: string, dataType: string, options: string[]]> = [
  ['Sector', 'select', ['Fintech', 'Healthcare', 'Energy', 'Logistics', 'Consumer', 'Security', 'Deep Tech']],
  ['Stage', 'select', ['Seed', 'Series A', 'Series B', 'Growth']],
  ['Tags', 'multiselect', ['B2B', 'B2C', 'SaaS', 'Marketplace', 'Hardware', 'AI']],
  ['Employees', 'number', []],
  ['Founded', 'date', []],
  ['Board seat', 'boolean', []],
  ['Headquarters', 'string', []],
  ['Investment memo', 'text', []],
  ['Pitch deck', 'url', []],
  ['Investment thesis', 'rich_text', []],
];
const AUTO_TYPES: Record<string, string> = {
  'Total Invested': 'number',
  'Current Fair Value': 'number',
  MOIC: 'number',
  Ownership: 'number',
  'Initial Investment Date': 'date',
};
const CITIES = ['Berlin', 'Boston', 'Lisbon', 'Austin', 'Oslo', 'Toronto', 'Dublin', 'Zurich', 'Seoul', 'Nairobi', 'Lyon', 'Denver'];

function addProperties(state: EmulatorState, fundId: string): void {
  let optionCounter = 0;
  const properties: PropertyRecord[] = [];
  const options = new Map<string, OptionRecord[]>();
  CUSTOM_PROPERTIES.forEach(([name, dataType, labels], index) => {
    const property: PropertyRecord = { id: DEMO_IDS.property(index + 1), company_id: fundId, name, data_type: dataType, auto_calculated: false };
    properties.push(property);
    options.set(
      property.id,
      labels.map((label) => {
        optionCounter += 1;
        return { id: DEMO_IDS.option(optionCounter), portfolio_property_id: property.id, label };
      }),
    );
  });
  AUTO_CALCULATED_PROPERTY_NAMES.forEach((name, index) => {
    properties.push({ id: DEMO_IDS.property(11 + index), company_id: fundId, name, data_type: AUTO_TYPES[name] ?? 'number', auto_calculated: true });
  });
  properties.push({ id: DEMO_IDS.property(16), company_id: DEMO_IDS.otherFund, name: 'Harbor rating', data_type: 'string', auto_calculated: false });
  state.portfolio_properties.push(...properties);
  for (const list of options.values()) state.portfolio_property_options.push(...list);

  let valueCounter = 0;
  const push = (profile: ProfileRecord, property: PropertyRecord, value: string | null, optionIds: string[] = []): void => {
    valueCounter += 1;
    const record: PropertyValueRecord = {
      id: demoId('b4000000', valueCounter),
      portfolio_property_id: property.id,
      portfolio_company_profile_id: profile.id,
      value,
      option_ids: optionIds,
    };
    state.portfolio_property_values.push(record);
  };
  const fundProfiles = state.portfolio_company_profiles.filter((profile) => profile.company_id === fundId);
  fundProfiles.forEach((profile, index) => {
    const p = index + 1;
    properties.slice(0, CUSTOM_PROPERTIES.length).forEach((property, q) => {
      // Gaps: about one value in four is missing, so sheets meet empty cells.
      if ((p + q) % 4 === 0) return;
      const choices = options.get(property.id) ?? [];
      switch (property.data_type) {
        case 'select':
          return push(profile, property, null, [choices[p % choices.length]?.id ?? '']);
        case 'multiselect':
          return push(profile, property, null, [...new Set([choices[p % 6]?.id ?? '', choices[(p + 2) % 6]?.id ?? ''])]);
        case 'number':
          return push(profile, property, String(10 + p * 37));
        case 'date':
          return push(profile, property, `${2010 + p}-${String((p % 9) + 1).padStart(2, '0')}-15`);
        case 'boolean':
          return push(profile, property, p % 2 === 0 ? 'true' : 'false');
        case 'string':
          return push(profile, property, p === 3 ? FORMULA_TEXT : (CITIES[index] ?? 'Remote'));
        case 'text':
          return push(profile, property, `Why we invested in ${profile.name}:\nstrong team, large market.`);
        case 'url':
          return push(profile, property, `https://example.com/decks/${p}.pdf`);
        default:
          return push(profile, property, `<p>${profile.name} <em>compounds</em> data advantages.</p>`);
      }
    });
    if (p > 10) return;
    const invested = 500000 * p;
    const fairValue = Math.round(invested * (0.6 + (p % 5) * 0.45));
    const auto = properties.filter((property) => property.auto_calculated);
    const autoValues = [
      String(invested),
      String(fairValue),
      (fairValue / invested).toFixed(2),
      (5 + p * 1.5).toFixed(1),
      `${2015 + (p % 8)}-0${(p % 9) + 1}-01`,
    ];
    auto.forEach((property, position) => push(profile, property, autoValues[position] ?? null));
  });
}
