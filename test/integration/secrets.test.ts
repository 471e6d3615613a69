// The token is a secret: after every kind of work, it is nowhere but the owner's user properties.

import { DEMO_IDS, FORMULA_TEXT } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import { startStack, OWNER, type Stack } from '../support/stack';

const SECRET = 'tok_live_SECRET_5f2c9a7e1b3d4f60';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ token: SECRET });
});
afterAll(() => stack.stop());

/** Everything the add-in could have leaked into: logs, cells, notes, caches, the page, server answers. */
function everywhere(rt: GasRuntime, answers: unknown[], errors: string[]): string {
  const parts: string[] = [JSON.stringify(answers), ...errors, ...rt.logs.map((l) => l.message)];
  for (const sheet of rt.spreadsheet.getSheets()) {
    const range = sheet.getDataRange();
    parts.push(JSON.stringify(range.getValues()), JSON.stringify(range.getFormulas()), JSON.stringify(range.getNotes()));
  }
  for (const cache of [rt.cache.user(OWNER), rt.cache.script(), rt.cache.document()]) {
    parts.push(...cache._keys(), ...cache._keys().map((key) => cache.get(key) ?? ''));
  }
  parts.push(...rt.ui.sidebars.map((s) => s.html), ...rt.ui.toasts.map((t) => t.message));
  parts.push(JSON.stringify(rt.properties.document().getProperties()), JSON.stringify(rt.properties.script().getProperties()));
  return parts.join('\n');
}

it('never appears in logs, cells, errors, caches, the page or the answers to the sidebar', () => {
  const rt = stack.runtime();
  const answers: unknown[] = [];
  const errors: string[] = [];
  const formula = (name: string, args: unknown[]) => {
    try {
      answers.push(rt.runCustomFunction(name, args));
    } catch (error) {
      errors.push((error as Error).message);
    }
  };
  rt.run('onOpen', [{ authMode: 'FULL' }]);
  rt.run('showSidebar');
  formula('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue]);
  formula('METRIC_VALUES', ['00000000-0000-4000-8000-00000000dead']);
  formula('METRICS', [DEMO_IDS.otherFund]);
  formula('PORTFOLIO_NOTES', [DEMO_IDS.profile(1)]);
  answers.push(rt.callServer('getSettings', []));
  answers.push(rt.callServer('testConnection', [DEMO_IDS.fund]));
  answers.push(rt.callServer('listMetrics', [DEMO_IDS.fund]));
  rt.spreadsheet.setActiveRange(rt.spreadsheet.getActiveSheet().getRange('A1'));
  answers.push(
    rt.callServer('insertMetricValues', [
      { companyId: DEMO_IDS.fund, metricIds: [DEMO_IDS.metrics.headcount], startDate: null, endDate: null, mode: 'snapshot', headers: true },
    ]),
  );
  // A rejected token: the error names the problem, never the token.
  rt.properties.user(OWNER).setProperty('METRICS_API_TOKEN', `${SECRET}x`);
  formula('METRIC_VALUES', [DEMO_IDS.metrics.headcount, '2020-01-01']);
  answers.push(rt.callServer('testConnection', [DEMO_IDS.fund]));

  expect(errors.length).toBeGreaterThanOrEqual(3);
  const haystack = everywhere(rt, answers, errors);
  expect(haystack).toContain('Headcount'); // the work happened and is in the haystack
  expect(haystack).not.toContain(SECRET);
  expect(haystack).not.toContain(SECRET.slice(0, 12));
  expect(rt.properties.user(OWNER).getProperty('METRICS_API_TOKEN')).toBe(`${SECRET}x`);
});

it('keeps API text that looks like a formula as text when a formula spills it into cells', async () => {
  const state = await stack.emulator.control.state();
  const note = state.portfolio_notes.find((n) => n.content === FORMULA_TEXT)!;
  const rt = stack.runtime();
  rt.evaluateFormula(`=PORTFOLIO_NOTES("${note.portfolio_company_profile_id}")`, { cell: 'A1' });
  const sheet = rt.spreadsheet.getActiveSheet();
  const values = sheet.getDataRange().getValues();
  const row = values.findIndex((r) => r[3] === note.id);
  expect(row).toBeGreaterThan(0);
  expect(sheet.getRange(row + 1, 2).getValue()).toBe(FORMULA_TEXT);
  expect(sheet.getRange(row + 1, 2).getFormula()).toBe('');
});

it('never appears in the results, sheets or errors of exports, imports and audit pushes', async () => {
  const rt = stack.runtime();
  const answers: unknown[] = [];
  const errors: string[] = [];
  const call = (name: string, args: unknown[]): { ok: boolean; value?: Record<string, unknown>; error?: string } => {
    const result = rt.callServer(name, args) as { ok: boolean; value?: Record<string, unknown>; error?: string };
    answers.push(result);
    if (!result.ok) errors.push(result.error ?? '');
    return result;
  };
  const drive = (next: string, idField: string, first: { ok: boolean; value?: Record<string, unknown> }) => {
    let handle = first.value;
    for (let i = 0; handle && !handle['report'] && i < 20; i++) handle = call(next, [handle[idField]]).value;
    return handle;
  };
  const sheet = rt.spreadsheet.getActiveSheet();

  // An export of a few data points.
  sheet.getRange('A1:B3').setValues([
    ['Date', 'Value'],
    ['2024-01-01', '1'],
    ['2024-01-02', 'x'],
  ]);
  const spec = {
    layout: 'long',
    metricId: DEMO_IDS.metrics.dailyActiveUsers,
    hasHeaderRow: true,
    skipBlanks: true,
    duplicates: 'reject',
    offPeriod: 'reject',
    onlyChanged: false,
  };
  drive('continueExport', 'exportId', call('startExport', [{ companyId: DEMO_IDS.fund, range: 'Sheet1!A1:B3', spec, writeStatus: true }]));
  // Profile and contact imports, each with a row the checks refuse.
  sheet.getRange('D1:E3').setValues([
    ['Name', 'Currency'],
    ['Secretive Labs', 'EUR'],
    ['Typo Corp', 'EUX'],
  ]);
  drive('continueImport', 'importId', call('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!D1:E3' }]));
  sheet.getRange('H1:I3').setValues([
    ['Email', 'First name'],
    ['keeper@example.com', 'Kee'],
    ['not-an-email', 'No'],
  ]);
  drive('continueImport', 'importId', call('startImport', [{ kind: 'contacts', companyId: DEMO_IDS.fund, range: 'Sheet1!H1:I3' }]));
  // An audit, pushed with one label the fund does not have.
  call('buildAudit', [DEMO_IDS.fund]);
  const audit = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = audit.getDataRange().getValues();
  const state = await stack.emulator.control.state();
  const stage = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Stage')!;
  const headquarters = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Headquarters')!;
  const row = grid.findIndex((r) => r[0] === DEMO_IDS.profile(2)) + 1;
  audit.getRange(row, grid[0]!.indexOf(stage.id) + 1).setValue('Series Z');
  audit.getRange(row, grid[0]!.indexOf(headquarters.id) + 1).setValue('Reykjavik');
  drive('continueAuditPush', 'pushId', call('startAuditPush', [null]));
  call('findUnfinishedPortfolioJobs', []);
  // The same work with a rejected token: every error names the problem, never the token.
  rt.properties.user(OWNER).setProperty('METRICS_API_TOKEN', `${SECRET}x`);
  audit.getRange(row, grid[0]!.indexOf(headquarters.id) + 1).setValue('Akureyri');
  drive('continueAuditPush', 'pushId', call('startAuditPush', [null]));
  call('buildAudit', [DEMO_IDS.fund]);
  call('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!D1:E3' }]);
  drive('continueExport', 'exportId', call('startExport', [{ companyId: DEMO_IDS.fund, range: 'Sheet1!A1:B3', spec, writeStatus: true }]));

  const haystack = everywhere(rt, answers, errors);
  // The work happened and its results are in the haystack.
  expect(haystack).toContain('Secretive Labs');
  expect(haystack).toContain('in E3 is not an ISO 4217 code in use');
  expect(haystack).toContain('Reykjavik');
  expect(haystack).toMatch(/Series Z/);
  expect(errors.length).toBeGreaterThanOrEqual(2);
  expect(haystack).not.toContain(SECRET);
  expect(haystack).not.toContain(SECRET.slice(0, 12));
  expect(haystack).not.toContain(SECRET.slice(-12));
});
