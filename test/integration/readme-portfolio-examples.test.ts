// The README's examples of PORTFOLIO_VALUE, PORTFOLIO_METRIC and PORTFOLIO_COVERAGE, run as written on the
// built add-in against the demo fund `npm start` serves: each documented value is asserted here, so a change
// to the demo data or to the functions that moves one fails this test before it misleads a reader.

import { DEMO_IDS } from '../../emulator/demo-data';
import { useStack, type Stack } from '../support/stack';
import { errorOf } from '../support/formula-errors';

let stack: Stack;
useStack((started) => (stack = started));

describe("the README's fund grid examples on the demo fund", () => {
  it('PORTFOLIO_VALUE: a month, float text, a sum, a fiscal quarter, a pre-created blank, and the two duplicates', () => {
    const rt = stack.runtime();
    const value = (...args: unknown[]) => rt.runCustomFunction('PORTFOLIO_VALUE', args);
    expect(value('Redwood Fintech', 'MRR', '2024-06')).toBe(632739.25);
    expect(value('redwood fintech ', 'mrr', '2024-01')).toBe(600493.6666666666);
    expect(value('Redwood Fintech', 'Revenue (sum)', '2024-Q2')).toBe(2726007.39);
    // Quasar's fiscal year ends in September: Q1 FY2025 is October to December 2024.
    expect(value('Quasar Semiconductors', 'Revenue', 'Q1 FY2025')).toBe(13393612.22);
    expect(value('Tidal Water', 'Revenue', '2024-Q4')).toBe('');
    expect(value('Pinnacle Retail', 'Revenue', '2024-Q1')).toBe('2 metrics "Revenue": read one by id (METRIC_VALUE)');
    expect(errorOf(() => value('Cirrus Systems', 'Revenue', '2024-Q1'))).toBe(
      `2 portfolio companies of fund ${DEMO_IDS.fund} are named "Cirrus Systems": give the one you mean as "Cirrus Systems (${DEMO_IDS.profile(14)})" or "Cirrus Systems (${DEMO_IDS.profile(32)})" (or its profile id).`,
    );
    expect(value(DEMO_IDS.profile(14), 'Revenue', '2024-Q1')).toBe(2519341.45);
    expect(value(`Cirrus Systems (${DEMO_IDS.profile(14)})`, 'Revenue', '2024-Q1')).toBe(2519341.45);
  });

  it("PORTFOLIO_METRIC: MRR across the fund, Redwood Fintech's row, a company without it and the row counting the companies with a value", () => {
    const rt = stack.runtime();
    const table = rt.runCustomFunction('PORTFOLIO_METRIC', ['MRR', [['2024-04', '2024-05', '2024-06']]]) as unknown[][];
    expect(table[0]).toEqual(['Company', '2024-04', '2024-05', '2024-06', 'Unit']);
    expect(table).toHaveLength(1 + 32 + 1);
    expect(table.find((row) => row[0] === 'Redwood Fintech')).toEqual(['Redwood Fintech', 633679.8333333334, 629619.0833333334, 632739.25, 'USD']);
    expect(table.find((row) => row[0] === 'Aurora Robotics')).toEqual(['Aurora Robotics', 'no metric "MRR"', 'no metric "MRR"', 'no metric "MRR"', '']);
    expect(table.at(-1)![0]).toBe('Companies with a value');
    expect(table.at(-1)!.slice(1, 4)).toEqual([1, 2, 3].map((c) => `${table.slice(1, -1).filter((row) => typeof row[c] === 'number').length} of 32`));
  });

  it("Insert a fund model: MRR from 2024-04 to 2024-06, Redwood Fintech's row as PORTFOLIO_METRIC shows it", async () => {
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    rt.spreadsheet.setActiveRange(sheet.getRange('A1'));
    const report = rt.callServer('insertFundModel', [
      { companyId: DEMO_IDS.fund, metricNames: ['MRR'], periods: [], startPeriod: '2024-04', endPeriod: '2024-06', aggregate: null },
    ]) as { ok: boolean };
    expect(report).toMatchObject({ ok: true });
    const rows = sheet.getRange('A1:D33').getValues();
    expect(rows[0]).toEqual(['MRR', '2024-04', '2024-05', '2024-06']);
    // The two profiles named Cirrus Systems are labelled with their ids, so each row reads its own company.
    expect(rows.map((row) => row[0])).toEqual(
      expect.arrayContaining(['Redwood Fintech', `Cirrus Systems (${DEMO_IDS.profile(14)})`, `Cirrus Systems (${DEMO_IDS.profile(32)})`]),
    );
    const redwood = rows.findIndex((row) => row[0] === 'Redwood Fintech') + 1;
    // One formula fills the block (companies × months), recalculated as Sheets does: one execution.
    expect(sheet.getRange('B2').getFormula()).toBe('=PORTFOLIO_VALUE($A2:$A33, $A$1, B$1:E$1)');
    const done = await rt.recalculateWritten();
    expect(done.map((o) => o.cell)).toEqual(['B2']);
    expect(sheet.getRange(`B${redwood}:D${redwood}`).getValues()[0]).toEqual([633679.8333333334, 629619.0833333334, 632739.25]);
  });

  it('PORTFOLIO_COVERAGE: Tidal Water stopped reporting after 2024-Q3', () => {
    const rt = stack.runtime();
    const table = rt.runCustomFunction('PORTFOLIO_COVERAGE', [[['Revenue', 'Cash']], '2024-Q3', '2025-Q2']) as unknown[][];
    expect(table[0]).toEqual(['Company', 'Metric', '2024-Q3', '2024-Q4', '2025-Q1', '2025-Q2', 'Reported', 'Blank', 'No such metric', 'Ambiguous name']);
    expect(table.find((row) => row[0] === 'Tidal Water' && row[1] === 'Revenue')).toEqual([
      'Tidal Water',
      'Revenue',
      'reported',
      'blank',
      'blank',
      'blank',
      1,
      3,
      0,
      0,
    ]);
    expect(table.find((row) => row[0] === 'Aurora Robotics' && row[1] === 'Cash')).toEqual([
      'Aurora Robotics',
      'Cash',
      'no such metric',
      'no such metric',
      'no such metric',
      'no such metric',
      0,
      0,
      4,
      0,
    ]);
  });
});
