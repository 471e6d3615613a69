// Where each fund model cell's value came from: the built add-in's PORTFOLIO_SOURCE and the "Provenance" sheet on
// the demo fund, checked against the emulator's own data point sources (the expected texts are written out here from
// the documented format, not from the add-in's code), and read in one batched include_source read per metric name.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import { ok, useStackWithState, type Stack } from '../support/stack';

let stack: Stack;
let state: EmulatorState;
useStackWithState((started, demo) => ((stack = started), (state = demo)));

const QUARTERS = ['2023-Q3', '2023-Q4', '2024-Q1', '2024-Q2'];
const quarterMonths = (quarter: string): string[] => {
  const [year, q] = [quarter.slice(0, 4), Number(quarter.slice(6))];
  return [0, 1, 2].map((m) => `${year}-${String((q - 1) * 3 + m + 1).padStart(2, '0')}-01`);
};
const norm = (name: string) => name.trim().toLowerCase();

/** The demo fund's companies, each with the label the model writes (name and profile id where two share a name). */
function companies(): Array<{ id: string; label: string }> {
  const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
  const shared = (name: string) => profiles.filter((p) => norm(p.name) === norm(name)).length > 1;
  return profiles.map((p) => ({ id: p.id, label: shared(p.name) ? `${p.name.trim()} (${p.id})` : p.name.trim() }));
}

const metricsNamed = (profileId: string, name: string) =>
  state.metrics.filter((m) => m.portfolio_company_profile_id === profileId && norm(m.name) === norm(name));
const pointOf = (metricId: string, date: string) => state.data_points.find((p) => p.metric_id === metricId && p.date === date);
const valued = (point: ReturnType<typeof pointOf>) => point !== undefined && point.value !== null && point.value !== '';
/** "type: label", the type as METRIC_SOURCE shows it. */
const sourceText = (point: NonNullable<ReturnType<typeof pointOf>>) =>
  `${point.source.source_type === 'ai_inbox' ? 'ai_inbox (review)' : point.source.source_type}: ${point.source.label}`;

/** What a PORTFOLIO_SOURCE cell must show, and the provenance sheet's link, from the emulator's records alone. */
function expected(profileId: string, name: string, quarter: string, aggregate?: 'last'): { text: string; link: string } {
  const metrics = metricsNamed(profileId, name);
  if (metrics.length === 0) return { text: `no metric "${name}"`, link: '' };
  if (metrics.length > 1) return { text: `${metrics.length} metrics "${name}": read one by id (METRIC_VALUE)`, link: '' };
  const metric = metrics[0]!;
  if (metric.frequency === 'quarterly') {
    const point = pointOf(metric.id, quarterMonths(quarter)[0]!);
    return valued(point) ? { text: sourceText(point!), link: point!.source.app_url ?? '' } : { text: '', link: '' };
  }
  expect(metric.frequency).toBe('monthly');
  const dates = aggregate === 'last' ? quarterMonths(quarter).slice(2) : quarterMonths(quarter);
  const points = dates.map((date) => pointOf(metric.id, date));
  if (!points.some(valued)) return { text: '', link: '' };
  const texts = points.map((point) => (valued(point) ? sourceText(point!) : 'no value'));
  const alike = dates.length > 1 && points.every(valued) && texts.every((text) => text === texts[0]);
  return {
    text: alike ? texts[0]! : dates.map((date, i) => `${date.slice(0, 7)}: ${texts[i]}`).join('; '),
    link: dates.flatMap((date, i) => (valued(points[i]) && points[i]!.source.app_url ? [`${date.slice(0, 7)}: ${points[i]!.source.app_url}`] : [])).join('; '),
  };
}

/** The requests one read of these metrics' whole sourced series takes: 20 ids a request, 100 points a page. */
function pagesOfOneRead(name: string): number {
  const ids = state.metrics
    .filter((m) => m.company_id === DEMO_IDS.fund && m.portfolio_company_profile_id && norm(m.name) === norm(name))
    .map((m) => m.id.toLowerCase())
    .sort();
  let pages = 0;
  for (let i = 0; i < ids.length; i += 20) {
    const chunk = new Set(ids.slice(i, i + 20));
    pages += Math.max(1, Math.ceil(state.data_points.filter((p) => chunk.has(p.metric_id.toLowerCase())).length / 100));
  }
  return pages;
}

type Logged = Array<{ path: string; query: string }>;
const pointReads = (requests: Logged) => requests.filter((r) => r.path === '/data_points');

describe('PORTFOLIO_SOURCE on the demo fund', () => {
  it("gives every cell of a block the emulator's source, each case as PORTFOLIO_VALUE shows it, from one batched include_source read", async () => {
    const rt = stack.runtime();
    const fund = companies();
    await stack.takeRequests();
    const grid = rt.runCustomFunction('PORTFOLIO_SOURCE', [fund.map((c) => [c.label]), 'Revenue', [QUARTERS]]) as unknown[][];
    const want = fund.map((c) => QUARTERS.map((q) => expected(c.id, 'Revenue', q).text));
    expect(grid).toEqual(want);
    // The demo fund holds every case, or the comparison would prove less than it says.
    const all = want.flat();
    expect(all.some((cell) => /^2023-07: .*; 2023-08: .*; 2023-09: /.test(cell))).toBe(true);
    expect(all).toContain('no metric "Revenue"');
    expect(all).toContain('2 metrics "Revenue": read one by id (METRIC_VALUE)');
    expect(all.some((cell) => cell.includes('ai_inbox (review): '))).toBe(true);
    expect(all.some((cell) => /^(user_provided|update_request): [^;]*$/.test(cell))).toBe(true);
    const reads = pointReads(await stack.takeRequests());
    expect(reads.every((r) => r.query.includes('include_source=true') && r.query.includes('metric_id[]='))).toBe(true);
    expect(reads).toHaveLength(pagesOfOneRead('Revenue'));
    expect(reads.length).toBeLessThan(fund.length);
    // Another cell of the name, another company, reads nothing more.
    expect(rt.runCustomFunction('PORTFOLIO_SOURCE', [fund[5]!.label, 'revenue ', '2024-Q1'])).toBe(expected(fund[5]!.id, 'Revenue', '2024-Q1').text);
    expect(pointReads(await stack.takeRequests())).toHaveLength(0);
  }, 120_000);

  it('lists each month\'s source for a quarter of a monthly metric, once when they read alike, the last month\'s for "Cash (last)"', async () => {
    const rt = stack.runtime();
    const fjord = companies().find((c) => c.label === 'Fjord Logistics')!;
    expect(metricsNamed(fjord.id, 'Cash').map((m) => m.frequency)).toEqual(['monthly']);
    const quarters = ['2022-Q1', '2022-Q2', '2022-Q3', '2022-Q4', ...QUARTERS];
    const shown = quarters.map((q) => rt.runCustomFunction('PORTFOLIO_SOURCE', ['Fjord Logistics', 'Cash', q]));
    expect(shown).toEqual(quarters.map((q) => expected(fjord.id, 'Cash', q).text));
    // Both forms occur: months of different sources listed, and three alike given once.
    expect(shown.some((cell) => String(cell).split('; ').length === 3)).toBe(true);
    expect(shown.some((cell) => cell !== '' && !String(cell).includes('; '))).toBe(true);
    // The value cell asks for an aggregate; its source still says where each month's value came from.
    expect(rt.runCustomFunction('PORTFOLIO_VALUE', ['Fjord Logistics', 'Cash', '2023-Q3'])).toMatch(/^3 monthly values: type "Cash \(sum\)"/);
    const last = quarters.map((q) => rt.runCustomFunction('PORTFOLIO_SOURCE', ['Fjord Logistics', 'Cash (last)', q]));
    expect(last).toEqual(quarters.map((q) => expected(fjord.id, 'Cash', q, 'last').text));
    expect(last.every((cell) => cell === '' || /^\d{4}-(03|06|09|12): [^;]*$/.test(String(cell)))).toBe(true);
    // Each Cirrus Systems reads its own: the monthly one lists months, the quarterly one gives its quarter's.
    for (const cirrus of companies().filter((c) => c.label.startsWith('Cirrus Systems ('))) {
      expect(rt.runCustomFunction('PORTFOLIO_SOURCE', [cirrus.label, 'Cash', '2024-Q2'])).toBe(expected(cirrus.id, 'Cash', '2024-Q2').text);
    }
    expect(() => rt.runCustomFunction('PORTFOLIO_SOURCE', ['Cirrus Systems', 'Cash', '2024-Q2'])).toThrow('2 portfolio companies of fund');
    expect(() => rt.runCustomFunction('PORTFOLIO_SOURCE', ['Fjord Logistics', 'Cahs', '2024-Q2'])).toThrow('No metric named "Cahs"');
  }, 120_000);

  it("fills a fund model's block of one PORTFOLIO_SOURCE per cell, recalculated together, from one read", async () => {
    // 256 cells at once are more executions than Apps Script allows per second (docs/platform.md, §14): this test
    // counts the reads the cells share, so the rate is off here (fund-model-truth.test.ts keeps it on).
    const rt = stack.runtime({ assumptions: { customFunctionsPerSecond: false } });
    const sheet = rt.spreadsheet.getActiveSheet();
    rt.spreadsheet.setActiveRange(sheet.getRange('A1'));
    ok(
      rt.callServer('insertFundModel', [
        { companyId: DEMO_IDS.fund, metricNames: ['Cash (last)'], periods: QUARTERS, startPeriod: null, endPeriod: null, aggregate: null },
      ]),
    );
    const fund = companies();
    const labels = sheet
      .getRange(2, 1, fund.length, 1)
      .getValues()
      .map(([label]) => String(label));
    expect([...labels].sort()).toEqual(fund.map((c) => c.label).sort());
    await stack.takeRequests();
    const column = (n: number) => String.fromCharCode(64 + n);
    const cells = labels.flatMap((_, r) =>
      QUARTERS.map((__, q) => ({ cell: `${column(12 + q)}${2 + r}`, formula: `=PORTFOLIO_SOURCE($A${2 + r}, $A$1, ${column(2 + q)}$1)` })),
    );
    const done = await rt.recalculate(cells);
    expect(done.every((cell) => cell.ok)).toBe(true);
    const byLabel = new Map(fund.map((c) => [c.label, c.id]));
    expect(labels.map((_, r) => QUARTERS.map((__, q) => sheet.getRange(2 + r, 12 + q).getValue()))).toEqual(
      labels.map((label) => QUARTERS.map((q) => expected(byLabel.get(label)!, 'Cash', q, 'last').text)),
    );
    const reads = pointReads(await stack.takeRequests());
    expect(reads.every((r) => r.query.includes('include_source=true'))).toBe(true);
    expect(reads).toHaveLength(pagesOfOneRead('Cash'));
  }, 180_000);
});

describe('the provenance sheet (buildProvenanceSheet)', () => {
  it('lists per name, company and quarter the value PORTFOLIO_VALUE shows and its source and links, reading one sourced series per name', async () => {
    const rt = stack.runtime();
    const fund = companies();
    const names = ['Cash (last)', 'Revenue'];
    await stack.takeRequests();
    const report = ok<{ sheetName: string; rows: number; message: string }>(
      rt.callServer('buildProvenanceSheet', [
        { companyId: DEMO_IDS.fund, metricNames: names, periods: QUARTERS, startPeriod: null, endPeriod: null, aggregate: null },
      ]),
    );
    const reads = pointReads(await stack.takeRequests());
    expect(reads.every((r) => r.query.includes('include_source=true'))).toBe(true);
    expect(reads).toHaveLength(pagesOfOneRead('Cash') + pagesOfOneRead('Revenue'));
    expect(report.sheetName).toBe('Provenance');
    expect(report.rows).toBe(names.length * fund.length * QUARTERS.length);
    expect(report.message).toContain(`Built "Provenance": ${fund.length} companies × 4 periods × 2 metrics (Cash (last) and Revenue), ${report.rows} rows`);
    const rows = rt.spreadsheet.getSheetByName('Provenance')!.getDataRange().getValues();
    expect(rows[0]).toEqual(['Company', 'Metric', 'Period', 'Value', 'Source', 'Source link']);
    expect(rows).toHaveLength(1 + report.rows);
    const values = new Map(names.map((name) => [name, rt.runCustomFunction('PORTFOLIO_VALUE', [fund.map((c) => [c.label]), name, [QUARTERS]]) as unknown[][]]));
    let r = 1;
    for (const name of names) {
      for (const [c, company] of fund.entries()) {
        for (const [q, quarter] of QUARTERS.entries()) {
          const want = expected(company.id, name.replace(' (last)', ''), quarter, name.endsWith('(last)') ? 'last' : undefined);
          expect(rows[r]).toEqual([company.label, name, quarter, values.get(name)![c]![q], want.text, want.link]);
          r++;
        }
      }
    }
    // Built again, it replaces itself.
    ok(
      rt.callServer('buildProvenanceSheet', [
        { companyId: DEMO_IDS.fund, metricNames: ['Revenue'], periods: ['2024-Q1'], startPeriod: null, endPeriod: null, aggregate: null },
      ]),
    );
    expect(rt.spreadsheet.getSheetByName('Provenance')!.getDataRange().getValues()).toHaveLength(1 + fund.length);
  }, 180_000);
});
