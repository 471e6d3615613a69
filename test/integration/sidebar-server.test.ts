// The sidebar's server functions and the menu, run as google.script.run and triggers would run them.

import { DEMO_IDS, FORMULA_TEXT } from '../../emulator/demo-data';
import { ok, startStack, OWNER, type Rpc, type Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());
beforeEach(() => stack.emulator.control.reset());

describe('menu', () => {
  it('adds its items in every auth mode, touching no property in AuthMode.NONE', () => {
    for (const authMode of ['NONE', 'LIMITED', 'FULL'] as const) {
      const rt = stack.runtime();
      rt.run('onOpen', [{ authMode }], { authMode });
      const items = rt.ui.menus.flatMap((m) => m.entries).flatMap((e) => (e.kind === 'item' ? [e.functionName] : []));
      expect(items).toEqual([
        'showSidebar',
        'refreshData',
        'showExporter',
        'showAudit',
        'freezeSelectionFromMenu',
        'thawSelectionFromMenu',
        'checkInstallationFromMenu',
      ]);
    }
    const rt = stack.runtime();
    rt.run('onInstall', [{ authMode: 'FULL' }], { authMode: 'FULL' });
    expect(rt.ui.menus).toHaveLength(1);
  });

  it('opens the built sidebar', () => {
    const rt = stack.runtime();
    rt.run('showSidebar');
    expect(rt.ui.sidebars).toHaveLength(1);
    expect(rt.ui.sidebars[0]!.title).toBe('Portfolio Metrics');
    expect(rt.ui.sidebars[0]!.html).toContain('id="panel-metrics"');
  });

  it('refreshes every add-in formula with fresh values', async () => {
    const rt = stack.runtime({ formulaEvaluator: () => 'stale' });
    const sheet = rt.spreadsheet.getActiveSheet();
    const formula = `=METRIC_VALUE("${DEMO_IDS.metrics.headcount}", "2024-Q1")`;
    rt.evaluateFormula(formula, { cell: 'A1' });
    const before = sheet.getRange('A1').getValue();
    // The value changes on the platform; the cached answer would hide it until a refresh.
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: DEMO_IDS.metrics.headcount, date: '2024-01-01', value: '999' }] });
    rt.evaluateFormula(formula, { cell: 'A1' });
    expect(sheet.getRange('A1').getValue()).toBe(before);
    const rewritten: string[] = [];
    const rt2 = rt; // the same spreadsheet and caches
    rt2.run('refreshData');
    for (const row of sheet.getDataRange().getFormulas()) rewritten.push(...row.filter(Boolean));
    expect(rewritten).toEqual([formula]);
    rt.evaluateFormula(formula, { cell: 'A1' }); // Sheets re-runs the rewritten formula
    expect(sheet.getRange('A1').getValue()).toBe(999);
    expect(rt.ui.toasts.at(-1)!.message).toBe('Refreshed 1 formula with fresh data. 1 cached value changed: see the "Changes" sheet.');
  });
});

describe('settings', () => {
  it('never returns the token, only that it is set, a hint that tells two apart, and that the API accepted it', async () => {
    await stack.emulator.control.fixtures({ users: [{ name: 'Second token', tokens: ['tok_live_ABCDEFGHIJKLmnop'], company_ids: [DEMO_IDS.fund] }] });
    const rt = stack.runtime({ token: null });
    const saved = rt.callServer('saveSettings', [{ token: 'tok_live_ABCDEFGHIJKLmnop', baseUrl: stack.emulator.url }]) as Rpc<Record<string, unknown>>;
    expect(saved).toEqual({
      ok: true,
      value: {
        tokenSet: true,
        tokenLast4: null,
        tokenHint: null,
        baseUrl: stack.emulator.url,
        defaultCompanyId: DEMO_IDS.fund,
        isOwner: true,
        sharingNote: null,
        connection: { ok: true, message: `Saved. The API at ${stack.emulator.url} accepted the token.` },
      },
    });
    expect(JSON.stringify(rt.callServer('getSettings', []))).not.toContain('tok_live');
    expect(rt.properties.user(OWNER).getProperty('METRICS_API_TOKEN')).toBe('tok_live_ABCDEFGHIJKLmnop');
  });

  it('tests a new token with one request, and does not keep one the API refuses', async () => {
    const rt = stack.runtime();
    const before = rt.properties.user(OWNER).getProperty('METRICS_API_TOKEN');
    await stack.emulator.control.clearRequests();
    const refused = rt.callServer('saveSettings', [{ token: 'tok_live_WRONGWRONGWRONG' }]) as Rpc<unknown>;
    expect(refused).toEqual({
      ok: false,
      error: `The API at ${stack.emulator.url} refused this token (HTTP 401), so it was not saved; the token saved before is kept. Paste the whole token again, as the platform's API support sent it.`,
    });
    expect(rt.properties.user(OWNER).getProperty('METRICS_API_TOKEN')).toBe(before);
    expect((await stack.emulator.control.requests()).map((r) => r.status)).toEqual([401]);
    expect(JSON.stringify(refused)).not.toContain('WRONG');
  });

  it('keeps a token it could not test, saying that nothing answered at the address', () => {
    const rt = stack.runtime();
    const saved = rt.callServer('saveSettings', [{ baseUrl: 'http://127.0.0.1:9' }]) as Rpc<{ connection: { ok: boolean; message: string } }>;
    expect(saved.ok && saved.value.connection.ok).toBe(false);
    expect(saved.ok && saved.value.connection.message).toMatch(/^Saved, but not confirmed: Could not reach the API at http:\/\/127\.0\.0\.1:9 /);
  });

  it('refuses a plain-http base URL that is not this machine', () => {
    const rt = stack.runtime();
    const result = rt.callServer('saveSettings', [{ baseUrl: 'http://api.example.com' }]) as Rpc<unknown>;
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/must start with https:\/\//) });
  });

  it('reports what the token can see', () => {
    const rt = stack.runtime();
    const startup = rt.callServer('testConnection', [DEMO_IDS.startup]) as Rpc<{ ok: boolean; message: string }>;
    expect(startup.ok && startup.value.message).toMatch(/^Connected\. This token sees \d+ metrics of company .+, and it has no portfolio data/);
    const other = rt.callServer('testConnection', [DEMO_IDS.otherFund]) as Rpc<{ ok: boolean; message: string }>;
    expect(other).toEqual({ ok: true, value: { ok: false, message: expect.stringMatching(/^This API token has no access/) } });
  });
});

describe('metric browser', () => {
  it('creates a metric with POST /metrics', async () => {
    const rt = stack.runtime();
    const created = rt.callServer('createMetric', [{ companyId: DEMO_IDS.fund, name: 'Bookings', frequency: 'monthly', unit: 'EUR' }]) as Rpc<{
      id: string;
      name: string;
    }>;
    expect(created.ok && created.value.name).toBe('Bookings');
    const state = await stack.emulator.control.state();
    expect(state.metrics.find((m) => m.name === 'Bookings')).toMatchObject({ frequency: 'monthly', unit: 'EUR', company_id: DEMO_IDS.fund });
    expect(rt.callServer('createMetric', [{ companyId: DEMO_IDS.fund, name: 'X', frequency: 'monthly', unit: 'dollars' }])).toEqual({
      ok: false,
      error: 'The unit must be number, percent, or a currency code like USD.',
    });
    // Units are matched without regard to case: nobody means another unit by "usd".
    expect(rt.callServer('createMetric', [{ companyId: DEMO_IDS.fund, name: 'Lower-case units', frequency: 'monthly', unit: ' usd ' }])).toMatchObject({
      ok: true,
    });
    expect(rt.callServer('createMetric', [{ companyId: DEMO_IDS.fund, name: 'Percent in capitals', frequency: 'monthly', unit: 'Percent' }])).toMatchObject({
      ok: true,
    });
    expect(rt.callServer('createMetric', [{ companyId: DEMO_IDS.fund, name: 'Y', frequency: 'monthly', unit: 'uss' }])).toEqual({
      ok: false,
      error: 'USS is not an ISO 4217 currency code in use: the unit must be number, percent, or a currency code like USD.',
    });
    const after = await stack.emulator.control.state();
    expect(after.metrics.find((m) => m.name === 'Lower-case units')!.unit).toBe('USD');
    expect(after.metrics.find((m) => m.name === 'Percent in capitals')!.unit).toBe('percent');
    expect(after.metrics.some((m) => m.name === 'Y' || m.name === 'X')).toBe(false);
  });

  it('writes a snapshot that keeps formula-like names as text and never overwrites cells', async () => {
    const [metric] = (
      await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: FORMULA_TEXT, frequency: 'monthly', unit: 'number' }] })
    ).metrics;
    await stack.emulator.control.fixtures({ data_points: [{ metric_id: metric!.id, date: '2024-01-01', value: '-5' }] });
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    rt.spreadsheet.setActiveRange(sheet.getRange('C3'));
    const result = rt.callServer('insertMetricValues', [
      { companyId: DEMO_IDS.fund, metricIds: [metric!.id], startDate: null, endDate: null, mode: 'snapshot', headers: true },
    ]) as Rpc<{ range: string }>;
    expect(result).toEqual({
      ok: true,
      value: {
        range: 'Sheet1!C3:D4',
        rows: 1,
        message: 'Wrote 1 row of values to Sheet1!C3:D4. "Refresh snapshots" in this tab writes them again with the values the API holds then.',
      },
    });
    expect(sheet.getRange('D3').getValue()).toBe(FORMULA_TEXT);
    expect(sheet.getRange('D3').getFormula()).toBe('');
    expect(sheet.getRange('D4').getValue()).toBe(-5);
    expect(sheet.getRange('C4').getDisplayValue()).toBe('1/1/2024');

    const again = rt.callServer('insertMetricValues', [
      { companyId: DEMO_IDS.fund, metricIds: [metric!.id], startDate: null, endDate: null, mode: 'snapshot', headers: true },
    ]) as Rpc<unknown>;
    expect(again).toEqual({ ok: false, error: 'The cells C3:D4 are not all empty. Select an empty cell with room for 2 rows and 2 columns.' });
    // The counts agree with their nouns: one row is "1 row", and one cell is a cell.
    const oneRow = rt.callServer('insertMetricValues', [
      { companyId: DEMO_IDS.fund, metricIds: [metric!.id], startDate: null, endDate: null, mode: 'snapshot', headers: false },
    ]) as Rpc<unknown>;
    expect(oneRow).toEqual({ ok: false, error: 'The cells C3:D3 are not all empty. Select an empty cell with room for 1 row and 2 columns.' });
    const formula = rt.callServer('insertMetricValues', [
      { companyId: DEMO_IDS.fund, metricIds: [metric!.id], startDate: null, endDate: null, mode: 'formula', headers: true },
    ]) as Rpc<unknown>;
    expect(formula).toEqual({ ok: false, error: 'The cell C3 is not empty. Select an empty cell.' });
    // A snapshot without a company says so before it reads the dates; a formula reads the dates first.
    const noCompany = { companyId: '', metricIds: [metric!.id], startDate: 'January', endDate: null, headers: true };
    expect(rt.callServer('insertMetricValues', [{ ...noCompany, mode: 'snapshot' }])).toEqual({ ok: false, error: expect.stringMatching(/^The company id /) });
    expect(rt.callServer('insertMetricValues', [{ ...noCompany, mode: 'formula' }])).toEqual({
      ok: false,
      error: 'The start date must be a date like 2024-01-31.',
    });
  });
});

describe('ids from the page', () => {
  // A 300-character id would overflow CacheService's 250-character key ("Argument too large: key") or ride
  // into a URL: serve() must refuse each kind with a sentence naming it, before any request or cache key.
  const long = 'x'.repeat(300);
  const cases: Array<[string, unknown[], RegExp]> = [
    // Every job kind's continue, cancel and resume.
    ...[
      ['Export', 'export'],
      ['Import', 'import'],
      ['AuditPush', 'push'],
      ['AuditBuild', 'build'],
    ].flatMap(([kind, noun]) =>
      ['continue', 'cancel', 'resume'].map((verb): [string, unknown[], RegExp] => [
        `${verb}${kind}`,
        [long],
        new RegExp(`^The ${noun} id must be an id like `),
      ]),
    ),
    ['startAuditBuild', [long], /^The fund company id must be an id like /],
    ['getJobProgress', ['export', long], /^The job id must be an id like /],
    ['testConnection', [long], /^The company id must be an id like /],
    ['listMetrics', [long], /^The company id must be an id like /],
    ['listNoteTags', [long], /^The company id must be an id like /],
    ['buildAudit', [long], /^The fund company id must be an id like /],
    ['listFundMetricNames', [long], /^The fund company id must be an id like /],
    ['insertPortfolioNotes', [long], /^The portfolio company profile id must be an id like /],
    ['latestMetricValues', [[DEMO_IDS.metrics.headcount, long]], /^A metric id must be an id like /],
    ['refreshFormulasFor', [[long]], /^A metric id must be an id like /],
    ['setFormulaAccess', [[long]], /^A company id must be an id like /],
    ['saveSettings', [{ defaultCompanyId: long }], /^The default company id must be an id like /],
    ['createMetric', [{ companyId: long, name: 'Churn', frequency: 'monthly', unit: '%' }], /^The company id must be an id like /],
    [
      'insertMetricValues',
      [{ companyId: DEMO_IDS.fund, metricIds: [long], startDate: null, endDate: null, mode: 'snapshot', headers: false }],
      /^A metric id must be an id like /,
    ],
    [
      'previewExport',
      [{ companyId: long, range: 'Sheet1!A1:B3', spec: { layout: 'wide', hasHeaderRow: true }, writeStatus: false }],
      /^The company id must be an id like /,
    ],
    [
      'startExport',
      [{ companyId: long, range: 'Sheet1!A1:B3', spec: { layout: 'wide', hasHeaderRow: true }, writeStatus: false }],
      /^The company id must be an id like /,
    ],
    ['startImport', [{ kind: 'profiles', companyId: long, range: 'Sheet1!A1:B3' }], /^The company id must be an id like /],
    ['addNoteToSelectedContacts', [{ content: 'Met at the fair', noteTagId: long, skipRowsWithoutId: true }], /^The note tag id must be an id like /],
    [
      'insertPortfolioGrid',
      [{ companyId: long, kind: 'metric', metricNames: ['Revenue'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, mode: 'formula' }],
      /^The company id must be an id like /,
    ],
    [
      'buildCoverageSheet',
      [{ companyId: long, metricNames: ['Revenue'], startPeriod: '2024-01', endPeriod: '2024-03' }],
      /^The company id must be an id like /,
    ],
    [
      'buildProvenanceSheet',
      [{ companyId: long, metricNames: ['Revenue'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, aggregate: null }],
      /^The company id must be an id like /,
    ],
  ];

  it.each(cases)('%s refuses a 300-character id with a sentence, sending nothing', async (name, args, sentence) => {
    const rt = stack.runtime();
    await stack.takeRequests();
    const answer = rt.callServer(name, args) as Rpc<unknown>;
    expect(answer).toEqual({ ok: false, error: expect.stringMatching(sentence) });
    expect(await stack.takeRequests()).toEqual([]);
  });

  it("names each fund metric's portfolio company, from the profile listing the PORTFOLIO_* functions cache", async () => {
    const state = await stack.emulator.control.state();
    const rt = stack.runtime();
    const listed = ok<Array<{ id: string; portfolioCompanyProfileId: string | null; portfolioCompanyName: string | null }>>(
      rt.callServer('listMetrics', [DEMO_IDS.fund]),
    );
    // Each company's label: its name, and its profile id where two of the fund's companies share the name (Cirrus Systems).
    const shared = (p: { company_id: string; name: string }) =>
      state.portfolio_company_profiles.filter((q) => q.company_id === p.company_id && q.name.trim().toLowerCase() === p.name.trim().toLowerCase()).length > 1;
    const profileName = new Map(state.portfolio_company_profiles.map((p) => [p.id, shared(p) ? `${p.name.trim()} (${p.id})` : p.name.trim()]));
    expect([...profileName.values()].filter((name) => name.startsWith('Cirrus Systems ('))).toHaveLength(2);
    expect(listed.filter((m) => m.portfolioCompanyProfileId).length).toBeGreaterThan(13);
    for (const metric of listed)
      expect(metric.portfolioCompanyName).toBe(metric.portfolioCompanyProfileId ? profileName.get(metric.portfolioCompanyProfileId) : null);
    // The thirteen "Net Burn" are thirteen companies'.
    const burns = listed.filter((m) => state.metrics.find((s) => s.id === m.id)?.name === 'Net Burn');
    expect(new Set(burns.map((m) => m.portfolioCompanyName)).size).toBe(burns.length);
  });

  it('takes a well-formed id in any case and with stray spaces, as the UUID it is', () => {
    const rt = stack.runtime();
    const answer = rt.callServer('listMetrics', [`  ${DEMO_IDS.fund.toUpperCase()} `]) as Rpc<unknown[]>;
    expect(answer.ok).toBe(true);
  });
});
