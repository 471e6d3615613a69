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
  answers.push(rt.callServer('insertMetricValues', [{ companyId: DEMO_IDS.fund, metricIds: [DEMO_IDS.metrics.headcount], startDate: null, endDate: null, mode: 'snapshot', headers: true }]));
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
