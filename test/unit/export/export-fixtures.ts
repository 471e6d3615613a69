// Shared set-up for the exporter's tests: metrics, ranges, and a client over the scripted transport.

import { createApiClient, type ApiClient } from '../../../src/core/api/client';
import type { RetryPolicy } from '../../../src/core/api/retry-policy';
import { prepareExport } from '../../../src/core/export/export-state';
import { runExportStep, type ExportStepOptions } from '../../../src/core/export/run-step';
import type { ExportSpec, ExportState, MetricRef, RangeInput } from '../../../src/core/export/types';
import { WaitLog } from '../../../src/core/jobs/wait-log';
import { midnightIn } from '../../../src/core/sheets/time-zone';
import { intlDateFormatter } from '../../../src/core/validate/dates';
import { FakeClock, ScriptedTransport, type Reply, type Step } from '../../support/scripted-transport';

export const TZ = 'America/New_York';
export const REVENUE = '0b000000-0000-4000-8000-000000000001';
export const USERS = '0b000000-0000-4000-8000-000000000002';
export const HEADCOUNT = '0b000000-0000-4000-8000-000000000003';
export const SIGNUPS = '0b000000-0000-4000-8000-000000000004';
export const AUDITED = '0b000000-0000-4000-8000-000000000005';
export const PARTNERS = '0b000000-0000-4000-8000-000000000006';
export const CHURN_A = '0b000000-0000-4000-8000-000000000007';
export const CHURN_B = '0b000000-0000-4000-8000-000000000008';
export const BURN = '0b000000-0000-4000-8000-000000000009';

export const MARGIN = '0b000000-0000-4000-8000-00000000000a';

export const METRICS: MetricRef[] = [
  { id: REVENUE, name: 'Revenue', frequency: 'monthly', unit: 'USD' },
  { id: USERS, name: 'Daily Active Users', frequency: 'daily', unit: 'number' },
  { id: HEADCOUNT, name: 'Headcount', frequency: 'quarterly', unit: 'number' },
  { id: SIGNUPS, name: 'Weekly Signups', frequency: 'weekly', unit: 'number' },
  // A live account returned this frequency, which the API document does not list.
  { id: AUDITED, name: 'Audited Revenue', frequency: 'annually', unit: 'USD' },
  { id: PARTNERS, name: 'Partners', frequency: 'fortnightly', unit: 'number' },
  // Two metrics may share a name; a header naming it is ambiguous.
  { id: CHURN_A, name: 'Churn', frequency: 'monthly', unit: 'percent' },
  { id: CHURN_B, name: 'Churn', frequency: 'monthly', unit: 'percent' },
  { id: BURN, name: 'Net Burn', frequency: 'monthly', unit: 'EUR' },
  // Units are matched without regard to case: the API document spells it `percent`.
  { id: MARGIN, name: 'Gross Margin', frequency: 'monthly', unit: 'Percent' },
];

/** A long-layout spec that sends everything (no diff) unless told otherwise. */
export function longSpec(overrides: Partial<ExportSpec> = {}): ExportSpec {
  return {
    layout: 'long',
    metricId: REVENUE,
    hasHeaderRow: false,
    skipBlanks: true,
    duplicates: 'reject',
    offPeriod: 'reject',
    onlyChanged: false,
    ...overrides,
  };
}

export function wideSpec(overrides: Partial<ExportSpec> = {}): ExportSpec {
  return { layout: 'wide', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false, ...overrides };
}

export function prepare(values: unknown[][], spec: ExportSpec, extra: Partial<RangeInput> = {}, compareFirst = false): ExportState {
  return prepareExport({ range: { values, ...extra }, spec, metrics: METRICS, timeZone: TZ, formatDate: intlDateFormatter, compareFirst });
}

/** A Date cell as Sheets gives it: midnight of that day in the spreadsheet's time zone. */
export function dateCell(isoDate: string): Date {
  return midnightIn(isoDate, TZ);
}

/** `count` consecutive period starts from `first` (YYYY-MM-DD, itself a period start). */
export function periodDates(first: string, count: number, frequency: 'daily' | 'monthly'): string[] {
  const [year, month, day] = first.split('-').map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, i) => {
    const date = frequency === 'daily' ? new Date(Date.UTC(year, month - 1, day + i)) : new Date(Date.UTC(year, month - 1 + i, 1));
    return date.toISOString().slice(0, 10);
  });
}

export type Harness = {
  client: ApiClient;
  transport: ScriptedTransport;
  clock: FakeClock;
  waits: WaitLog;
  /** One step with a deadline `stepMs` from now, the way the server runs it. */
  step(state: ExportState, options?: Partial<ExportStepOptions>): ReturnType<typeof runExportStep>;
};

export const STEP_MS = 270_000;
/** No wave starts with less than this left before the step's deadline, unless a test says otherwise. */
export const STEP_MARGIN_MS = 30_000;

/**
 * A client for one step, as the server builds one per execution: the same deadline for the client and
 * the step, deterministic jitter, and the wait log wired in.
 */
export function harness(
  steps: Step[],
  options: { clock?: FakeClock; stepMs?: number; retry?: Partial<RetryPolicy>; transport?: ScriptedTransport } = {},
): Harness {
  const clock = options.clock ?? new FakeClock(Date.UTC(2025, 0, 6, 9));
  const transport = options.transport ?? new ScriptedTransport(steps, emptyCompareReads);
  const waits = new WaitLog();
  const deadline = clock.now() + (options.stepMs ?? STEP_MS);
  const client = createApiClient({
    baseUrl: 'https://api.test',
    token: 'token-123456',
    transport,
    clock,
    deadline,
    retry: { random: () => 0.5, ...options.retry },
    onWait: waits.onWait,
  });
  return {
    client,
    transport,
    clock,
    waits,
    step: (state, stepOptions = {}) => runExportStep(state, client, { deadline, marginMs: STEP_MARGIN_MS, waitLog: waits, ...stepOptions }),
  };
}

export const stored: Reply = { status: 200, body: { data_points: [] } };

/**
 * The answer to a compare read (GET /data_points before each wave) that a test does not script: the server
 * holds no point on those dates. Tests about the comparison script their reads; scripted steps come first.
 */
export function emptyCompareReads(line: string): Reply | undefined {
  return line.startsWith('GET /data_points?') ? { status: 200, body: { data_points: [], meta: { page: 1, total_pages: 1, total: 0 } } } : undefined;
}

export function put(metricId: string, reply: Reply = stored): Step {
  return { match: `PUT /metrics/${metricId}/data_points`, reply };
}

export function puts(metricId: string, count: number): Step[] {
  return Array.from({ length: count }, () => put(metricId));
}

/** The data points of every PUT sent, in order. */
export function sentBatches(transport: ScriptedTransport): Array<{ path: string; dataPoints: Array<{ date: string; value: string }> }> {
  return transport.sent
    .filter((request) => request.method === 'PUT')
    .map((request) => ({
      path: request.url.replace('https://api.test', ''),
      dataPoints: (JSON.parse(request.body ?? '{}') as { data_points: Array<{ date: string; value: string }> }).data_points,
    }));
}

/** One page of GET /data_points, as the API answers. */
export function pointsPage(metricId: string, points: Array<[string, string | null]>, page = 1, totalPages = 1, total = points.length): Reply {
  return {
    status: 200,
    body: {
      data_points: points.map(([date, value]) => ({ id: `${metricId}-${date}`, metric_id: metricId, date, value })),
      meta: { page, total_pages: totalPages, total },
    },
  };
}

/** Outcome and reason of every item, in sheet order, for exact assertions. */
export function outcomes(state: ExportState): Array<[string, string | undefined]> {
  return state.items.map((item) => [item.outcome, item.reason]);
}

export { errorReply, SlowTransport } from '../../support/scripted-transport';
