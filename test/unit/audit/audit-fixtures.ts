// Shared set-up for the audit's tests: a small fund as the API answers it, and a client over the scripted transport.

import { createApiClient, type ApiClient } from '../../../src/core/api/client';
import type { RetryPolicy } from '../../../src/core/api/retry-policy';
import { buildAuditModel } from '../../../src/core/audit/build-audit';
import { loadAuditData } from '../../../src/core/audit/load-audit-data';
import { readAuditSheet } from '../../../src/core/audit/read-sheet';
import { runAuditPushStep, type AuditPushStepOptions } from '../../../src/core/audit/run-push-step';
import type { AuditCell, AuditData, AuditPushState, AuditSchema, AuditSheetModel } from '../../../src/core/audit/types';
import { prepareAuditPush } from '../../../src/core/audit/write-back';
import { WaitLog } from '../../../src/core/jobs/wait-log';
import { FakeClock, ScriptedTransport, type Reply, type Step } from '../../support/scripted-transport';

/** Not UTC, so a date read in UTC would show the previous day. */
export const TZ = 'America/New_York';
export const FUND = 'c0000000-0000-4000-8000-000000000001';

const id = (kind: string, n: number) => `${kind}-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const PROFILE = { aurora: id('b0000000', 1), bluebird: id('b0000000', 2), cobalt: id('b0000000', 3) };
export const PROPERTY = {
  sector: id('b2000000', 1),
  tags: id('b2000000', 2),
  employees: id('b2000000', 3),
  founded: id('b2000000', 4),
  boardSeat: id('b2000000', 5),
  headquarters: id('b2000000', 6),
  pitchDeck: id('b2000000', 7),
  memo: id('b2000000', 8),
  moic: id('b2000000', 11),
  initialInvestment: id('b2000000', 15),
};
export const OPTION = {
  fintech: id('b3000000', 1),
  healthcare: id('b3000000', 2),
  energy: id('b3000000', 3),
  b2b: id('b3000000', 4),
  saas: id('b3000000', 5),
  hardwareIot: id('b3000000', 6),
  hardware: id('b3000000', 7),
  ai: id('b3000000', 8),
};

export const FORMULA_TEXT = '=IMPORTXML("http://x","//a")';
export const MEMO = 'Why we invested: strong team, large market.';

export const PROFILES = [
  { id: PROFILE.aurora, name: 'Aurora Robotics' },
  { id: PROFILE.bluebird, name: 'Bluebird Health' },
  { id: PROFILE.cobalt, name: 'Cobalt Payments' },
].map((p) => ({
  ...p,
  company_id: FUND,
  website_url: null,
  currency: 'USD',
  created_at: '2018-01-15T12:00:00.000Z',
  primary_contact_id: null,
  fiscal_year_end_month: null,
}));

/** As the API lists them, except that an auto-calculated one comes early: the audit orders them by name. */
export const PROPERTIES = (
  [
    [PROPERTY.sector, 'Sector', 'select'],
    [PROPERTY.tags, 'Tags', 'multiselect'],
    [PROPERTY.moic, 'MOIC', 'number'],
    [PROPERTY.employees, 'Employees', 'number'],
    [PROPERTY.founded, 'Founded', 'date'],
    [PROPERTY.boardSeat, 'Board seat', 'boolean'],
    [PROPERTY.headquarters, 'Headquarters', 'string'],
    [PROPERTY.pitchDeck, 'Pitch deck', 'url'],
    [PROPERTY.memo, 'Investment memo', 'text'],
    [PROPERTY.initialInvestment, 'Initial Investment Date', 'date'],
  ] as const
).map(([propertyId, name, dataType]) => ({ id: propertyId, name, data_type: dataType, company_id: FUND }));

export const OPTIONS: Record<string, Array<{ id: string; label: string }>> = {
  [PROPERTY.sector]: [
    { id: OPTION.fintech, label: 'Fintech' },
    { id: OPTION.healthcare, label: 'Healthcare' },
    { id: OPTION.energy, label: 'Energy' },
  ],
  [PROPERTY.tags]: [
    { id: OPTION.b2b, label: 'B2B' },
    { id: OPTION.saas, label: 'SaaS' },
    // A label with a comma, and one that is its prefix: write-back must still tell them apart.
    { id: OPTION.hardwareIot, label: 'Hardware, IoT' },
    { id: OPTION.hardware, label: 'Hardware' },
    { id: OPTION.ai, label: 'AI' },
  ],
};

type ApiValue = { property: string; value: string | number | string[] | null; option?: string | null; options?: string[] };

/** Every stored value, as GET /portfolio_property_values answers it (properties without a value are absent). */
export const VALUES: Record<string, ApiValue[]> = {
  [PROFILE.aurora]: [
    { property: PROPERTY.sector, value: 'Fintech', option: OPTION.fintech, options: [OPTION.fintech] },
    // Sent out of option order: the sheet shows labels in the property's option order.
    { property: PROPERTY.tags, value: ['SaaS', 'B2B'], options: [OPTION.saas, OPTION.b2b] },
    { property: PROPERTY.moic, value: 2.5 },
    { property: PROPERTY.employees, value: 120 },
    { property: PROPERTY.founded, value: '2015-03-01' },
    { property: PROPERTY.boardSeat, value: 'true' },
    { property: PROPERTY.headquarters, value: 'Berlin' },
    { property: PROPERTY.pitchDeck, value: 'https://example.com/decks/1.pdf' },
    { property: PROPERTY.memo, value: MEMO },
    { property: PROPERTY.initialInvestment, value: '2019-06-01' },
  ],
  [PROFILE.bluebird]: [
    { property: PROPERTY.sector, value: 'Healthcare', option: OPTION.healthcare, options: [OPTION.healthcare] },
    { property: PROPERTY.tags, value: ['Hardware, IoT', 'AI'], options: [OPTION.hardwareIot, OPTION.ai] },
    { property: PROPERTY.boardSeat, value: 'false' },
    { property: PROPERTY.headquarters, value: FORMULA_TEXT },
  ],
  [PROFILE.cobalt]: [
    { property: PROPERTY.employees, value: 7.25 },
    { property: PROPERTY.headquarters, value: 'Lisbon' },
  ],
};

function valueRecord(profileId: string, value: ApiValue, n: number) {
  return {
    id: id('b4000000', n),
    value: value.value,
    portfolio_property_id: value.property,
    portfolio_company_profile_id: profileId,
    portfolio_property_option_id: value.option ?? null,
    portfolio_property_option_ids: value.options ?? [],
  };
}

export function page(key: string, items: unknown[], number = 1, totalPages = 1, total = items.length): Reply {
  return { status: 200, body: { [key]: items, meta: { page: number, total_pages: totalPages, total } } };
}

export const profilesStep = (reply: Reply = page('portfolio_company_profiles', PROFILES), n = 1): Step => ({
  match: `GET /portfolio_company_profiles?company_id=${FUND}&page=${n}`,
  reply,
});
export const propertiesStep = (reply: Reply = page('portfolio_properties', PROPERTIES), n = 1): Step => ({
  match: `GET /portfolio_properties?company_id=${FUND}&page=${n}`,
  reply,
});
export const valuesStep = (profileId: string, reply?: Reply, n = 1): Step => ({
  match: `GET /portfolio_property_values?portfolio_company_profile_id=${profileId}&page=${n}`,
  reply:
    reply ??
    page(
      'portfolio_property_values',
      (VALUES[profileId] ?? []).map((value, i) => valueRecord(profileId, value, i + 1)),
    ),
});
export const optionsStep = (propertyId: string): Step => ({
  match: `GET /portfolio_property_options?portfolio_property_id=${propertyId}`,
  reply: { status: 200, body: { portfolio_property_options: (OPTIONS[propertyId] ?? []).map((o) => ({ ...o, portfolio_property_id: propertyId })) } },
});

/** Every request loadAuditData makes for the small fund. */
export function loadSteps(): Step[] {
  return [
    profilesStep(),
    propertiesStep(),
    ...Object.values(PROFILE).map((profileId) => valuesStep(profileId)),
    optionsStep(PROPERTY.sector),
    optionsStep(PROPERTY.tags),
  ];
}

/** No wave starts with less than this left before the step's deadline, unless a test says otherwise. */
export const STEP_MARGIN_MS = 30_000;

export function client(
  steps: Step[],
  options: { clock?: FakeClock; deadlineMs?: number; retry?: Partial<RetryPolicy>; transport?: ScriptedTransport; waits?: WaitLog } = {},
) {
  const clock = options.clock ?? new FakeClock(Date.UTC(2025, 0, 6, 9));
  const transport = options.transport ?? new ScriptedTransport(steps);
  const waits = options.waits ?? new WaitLog();
  const deadline = clock.now() + (options.deadlineMs ?? 270_000);
  const api: ApiClient = createApiClient({
    baseUrl: 'https://api.test',
    token: 'token-123456',
    transport,
    clock,
    deadline,
    retry: { random: () => 0.5, ...options.retry },
    onWait: waits.onWait,
  });
  return {
    api,
    transport,
    clock,
    waits,
    deadline,
    step: (state: AuditPushState, stepOptions: Partial<AuditPushStepOptions> = {}) =>
      runAuditPushStep(state, api, { deadline, marginMs: STEP_MARGIN_MS, waitLog: waits, ...stepOptions }),
  };
}

/** The small fund, read through loadAuditData over the scripted API. */
export function fundData(): AuditData {
  const { api, transport } = client(loadSteps());
  const data = loadAuditData(api, FUND);
  transport.assertDone();
  return data;
}

export function fundSchema(data: AuditData = fundData()): AuditSchema {
  return { companyId: data.companyId, properties: data.properties, options: data.options };
}

export function fundModel(): AuditSheetModel {
  return buildAuditModel(fundData(), { timeZone: TZ });
}

/**
 * The grid as getValues() gives it back after setValues: a leading apostrophe (text in a number, date
 * or boolean column) is not part of the value. Dates, numbers and booleans come back as they went.
 */
export function readBack(grid: readonly AuditCell[][]): unknown[][] {
  return grid.map((row) => row.map((cell) => (typeof cell === 'string' && cell.startsWith("'") ? cell.slice(1) : cell)));
}

/** Sets the cell of a profile and a property, found by the hidden ids wherever they are. */
export function edit(sheet: unknown[][], profileId: string, propertyId: string, value: unknown): void {
  const column = (sheet[0] ?? []).indexOf(propertyId);
  const row = sheet.findIndex((line) => line[0] === profileId);
  if (column < 0 || row < 0) throw new Error(`No cell for ${profileId} / ${propertyId}`);
  sheet[row]![column] = value;
}

/** Prepares a push of the sheet against the model it was built from. */
export function preparePush(sheet: unknown[][], model: AuditSheetModel, schema: AuditSchema = fundSchema()): AuditPushState {
  return prepareAuditPush({ read: readAuditSheet(sheet, FUND), snapshot: model.snapshot, schema, timeZone: TZ });
}

/** The body of every PUT sent, in order. */
export function sentBodies(transport: ScriptedTransport): Array<Record<string, unknown>> {
  return transport.sent
    .filter((request) => request.method === 'PUT')
    .map((request) => (JSON.parse(request.body ?? '{}') as { portfolio_property_value: Record<string, unknown> }).portfolio_property_value);
}

export const putStep = (reply: Reply = { status: 200, body: { portfolio_property_value: {} } }): Step => ({ match: 'PUT /portfolio_property_values', reply });
export const created: Reply = { status: 201, body: { portfolio_property_value: {} } };
export const updated: Reply = { status: 200, body: { portfolio_property_value: {} } };

export { errorReply, SlowTransport } from '../../support/scripted-transport';
