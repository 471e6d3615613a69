// Formula access, the sharing line and the missing-credential sentences, against a scripted API.

import { NotAmongAllowedError } from '../../src/core/errors';
import {
  parseFormulaAccess,
  requireCompanyAccess,
  requireMetricAccess,
  requireProfileAccess,
  requirePropertyAccess,
  withCompany,
} from '../../src/core/formulas/formula-access';
import { contactLists, portfolioNotes } from '../../src/core/formulas/list-formulas';
import { metricValues } from '../../src/core/formulas/metric-formulas';
import { missingCredential } from '../../src/core/settings/credential-sentences';
import { formulaAccessRefusal, sharingNote } from '../../src/core/settings/sharing-note';
import { MemoryCache } from '../support/memory-cache';
import { scriptedFormulaContext } from '../support/formula-context';
import type { Step } from '../support/scripted-transport';

const FUND = '0a000000-0000-4000-8000-000000000001';
const STARTUP = '0a000000-0000-4000-8000-000000000002';
const OTHER = '0a000000-0000-4000-8000-000000000003';
const FUND_METRIC = '0b000000-0000-4000-8000-000000000001';
const STARTUP_METRIC = '0b000000-0000-4000-8000-000000000002';
const STRANGER_METRIC = '0b000000-0000-4000-8000-000000000009';
const PROFILE = '0c000000-0000-4000-8000-000000000001';
const PROPERTY = '0d000000-0000-4000-8000-000000000001';

const page = (key: string, items: unknown[]) => ({
  status: 200,
  body: { [key]: items, meta: { page: 1, total_pages: items.length ? 1 : 0, total: items.length } },
});
const metric = (id: string, company: string) => ({
  id,
  name: `M ${id.slice(-1)}`,
  frequency: 'monthly',
  unit: 'USD',
  company_id: company,
  portfolio_company_profile_id: null,
});
const fundMetrics: Step = { match: `GET /metrics?company_id=${FUND}&page=1`, reply: page('metrics', [metric(FUND_METRIC, FUND)]) };
const startupMetrics: Step = { match: `GET /metrics?company_id=${STARTUP}&page=1`, reply: page('metrics', [metric(STARTUP_METRIC, STARTUP)]) };
const forbidden = (path: string, company: string): Step => ({
  match: `GET ${path}?company_id=${company}&page=1`,
  reply: { status: 403, body: { errors: [{ type: 'forbidden' }] } },
});

function context(allowed: string[], steps: Step[], cache = new MemoryCache()) {
  return scriptedFormulaContext({ steps, cache, timeZone: 'UTC', defaultCompanyId: allowed[0] ?? null, allowedCompanyIds: allowed });
}

describe('the stored list', () => {
  it('is the default company when none is stored, and nothing without either', () => {
    expect(parseFormulaAccess(undefined, FUND.toUpperCase())).toEqual([FUND]);
    expect(parseFormulaAccess(null, null)).toEqual([]);
  });

  it('keeps the ids of a stored list, once each, and allows nothing when it is not a list', () => {
    expect(parseFormulaAccess(JSON.stringify([STARTUP, 'not-an-id', STARTUP.toUpperCase(), 42]), FUND)).toEqual([STARTUP]);
    expect(parseFormulaAccess('[]', FUND)).toEqual([]);
    expect(parseFormulaAccess('{oops', FUND)).toEqual([]);
    expect(parseFormulaAccess('"' + FUND + '"', FUND)).toEqual([]);
  });

  it('gains a company once', () => {
    expect(withCompany([FUND], STARTUP)).toEqual([FUND, STARTUP]);
    expect(withCompany([FUND, STARTUP], STARTUP.toUpperCase())).toEqual([FUND, STARTUP]);
  });
});

describe('checks', () => {
  it('allow a company argument on the list and refuse another, naming it and the way to allow it, without a request', () => {
    const { ctx, transport } = context([FUND], []);
    expect(() => requireCompanyAccess(ctx, FUND)).not.toThrow();
    expect(() => contactLists(ctx, OTHER)).toThrow(
      `Formulas in this spreadsheet may not read the data of company ${OTHER}: the spreadsheet's owner has not allowed that company. The spreadsheet's owner can allow a company in the add-in's Settings › Formula access, or by inserting one of its metrics from the sidebar as a live formula.`,
    );
    expect(transport.sent).toHaveLength(0);
  });

  it('find a metric in the allowed listings, reading only as many as needed, and nothing on a warm cache', () => {
    const cache = new MemoryCache();
    const cold = context([FUND, STARTUP], [fundMetrics], cache);
    expect(requireMetricAccess(cold.ctx, [FUND_METRIC]).get(FUND_METRIC)?.company_id).toBe(FUND);
    expect(cold.transport.sent).toHaveLength(1);
    const second = context([FUND, STARTUP], [startupMetrics], cache);
    expect([...requireMetricAccess(second.ctx, [FUND_METRIC, STARTUP_METRIC]).keys()].sort()).toEqual([FUND_METRIC, STARTUP_METRIC]);
    expect(second.transport.sent.map((r) => r.url)).toEqual([`https://api.test/metrics?company_id=${STARTUP}&page=1`]);
    const warm = context([FUND, STARTUP], [], cache);
    requireMetricAccess(warm.ctx, [FUND_METRIC, STARTUP_METRIC]);
    expect(warm.transport.sent).toHaveLength(0);
  });

  it('refuse a metric of no allowed company before any data point is read', () => {
    const { ctx, transport } = context([FUND], [fundMetrics]);
    expect(() => metricValues(ctx, [[FUND_METRIC], [STRANGER_METRIC]], '', '', '')).toThrow(NotAmongAllowedError);
    expect(() => metricValues(ctx, STRANGER_METRIC, '', '', '')).toThrow(
      `No metric with id ${STRANGER_METRIC} was found in the companies this spreadsheet may read (1 company): check the id. If it is another company's,`,
    );
    expect(transport.sent.map((r) => r.url)).toEqual([`https://api.test/metrics?company_id=${FUND}&page=1`]);
  });

  it('refuse everything when the owner allowed nothing, saying so', () => {
    const { ctx } = context([], []);
    expect(() => metricValues(ctx, FUND_METRIC, '', '', '')).toThrow('in the companies this spreadsheet may read (none yet): check the id.');
  });

  it('find a profile in an allowed fund, skipping companies without a portfolio (403)', () => {
    const { ctx } = context(
      [STARTUP, FUND],
      [
        forbidden('/portfolio_company_profiles', STARTUP),
        {
          match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`,
          reply: page('portfolio_company_profiles', [{ id: PROFILE, name: 'Acme', company_id: FUND }]),
        },
        { match: `GET /portfolio_notes?portfolio_company_profile_id=${PROFILE}&page=1`, reply: page('portfolio_notes', []) },
      ],
    );
    expect(requireProfileAccess(ctx, PROFILE).name).toBe('Acme');
    expect(portfolioNotes(ctx, PROFILE)).toEqual([
      ['Name', 'Content', 'Created at', 'Id'],
      ['No portfolio notes: this portfolio company has none yet.', '', '', ''],
    ]);
  });

  it('refuse a profile that is not of the fund given, and a profile or property of no allowed fund', () => {
    const fundProfiles: Step = { match: `GET /portfolio_company_profiles?company_id=${FUND}&page=1`, reply: page('portfolio_company_profiles', []) };
    const { ctx } = context(
      [FUND],
      [
        fundProfiles,
        {
          match: `GET /portfolio_properties?company_id=${FUND}&page=1`,
          reply: page('portfolio_properties', [{ id: 'x', name: 'Stage', data_type: 'select', company_id: FUND }]),
        },
      ],
    );
    expect(() => requireProfileAccess(ctx, PROFILE, FUND)).toThrow(`No portfolio company profile with id ${PROFILE} was found in fund ${FUND}: check the id.`);
    expect(() => requireProfileAccess(ctx, PROFILE, OTHER)).toThrow(`the data of company ${OTHER}`);
    expect(() => requireProfileAccess(ctx, PROFILE)).toThrow(
      `No portfolio company profile with id ${PROFILE} was found in the companies this spreadsheet may read`,
    );
    expect(() => requirePropertyAccess(ctx, PROPERTY)).toThrow(
      `No portfolio property with id ${PROPERTY} was found in the companies this spreadsheet may read`,
    );
  });
});

describe('sentences', () => {
  it('tell a formula reader that the owner has no token, and the sidebar user that they have none', () => {
    const owner = missingCredential('token', 'spreadsheet-owner').message;
    expect(owner).toBe(
      "Formulas in this spreadsheet use its owner's API connection, and the owner has not set an API token. The owner can set it in Extensions › Portfolio Metrics › Open sidebar › Settings; anyone else can make a copy of the spreadsheet (File › Make a copy) and use their own connection there.",
    );
    expect(owner).not.toMatch(/your (API )?token/i);
    expect(missingCredential('baseUrl', 'spreadsheet-owner').message).toContain("the owner has not set the API's base URL");
    expect(missingCredential('token', 'caller').message).toBe(
      'No API token is set. Open Extensions › Portfolio Metrics › Open sidebar › Settings and paste your API token.',
    );
  });

  it('say nothing extra to the owner, name a known owner to others, and stay neutral when unknown', () => {
    expect(sharingNote(true, 'o@x.com')).toBeNull();
    expect(sharingNote(false, 'o@x.com')).toBe(
      "Formulas in this spreadsheet use its owner's (o@x.com) API connection and the companies the owner allowed, not yours. Your own exports, imports and pushes use your connection, set here.",
    );
    expect(sharingNote(false, null)).toContain("use its owner's API connection");
    expect(sharingNote(null, null)).toBe(
      "Formulas in this spreadsheet use the spreadsheet owner's API connection and the companies the owner allowed, whoever opens it.",
    );
    expect(formulaAccessRefusal('o@x.com')).toMatch(/^Only its owner \(o@x\.com\) can change .* nothing was changed/);
  });
});
