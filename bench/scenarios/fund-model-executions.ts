// Scenario: how many custom-function executions Insert a fund model asks of Sheets, in each form. The grid fund's
// 50 companies × 5 metrics × 8 quarters (2,000 values) inserted through the sidebar's insertFundModel at A1, then
// recalculated as Sheets does after the insert (rt.recalculateWritten, 30 at once, 400 ms start-up each): one
// =PORTFOLIO_VALUE per block (the default) and one per cell, the latter with Apps Script's per-second refusal as
// the runtime models it (docs/platform.md, §14). Executions are the runtime's records of custom
// functions (refused ones included), not time; every value is checked against the fixture.

import type { GasRuntime } from '../../gas-runtime';
import { INVOCATION_RATE_REFUSAL, DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND } from '../../gas-runtime/invocation-rate';
import type { Bench, Side } from '../harness';
import { measuredRow, type ScenarioResult } from '../figures';
import { createGridFund, GRID_QUARTERS, type GridFund } from '../fixtures';
import { MAX_CONCURRENT, STARTUP_MS, warmWorkers } from './concurrent';

const NAMES = ['Revenue', 'Cash', 'Net Burn', 'Headcount', 'ARR'];
const COMPANIES = 50;
const QUARTERS = 8;
const LABELS = GRID_QUARTERS.slice(0, QUARTERS).map((date) => `${date.slice(0, 4)}-Q${(Number(date.slice(5, 7)) + 2) / 3}`);

interface Inserted {
  executions: number;
  refused: number;
  /** Value cells showing what the fixture holds; wrong ones show anything else (an error, another number). */
  right: number;
  wrong: number;
  firstWrong: string | null;
  /** The first formula that failed for another reason than the per-second refusal, with its message. */
  otherError: string | null;
}

/** Inserts the model at A1 of a fresh sheet in `formulas` form, recalculates what it wrote, and checks every value. */
async function insertAndRecalculate(rt: GasRuntime, fund: GridFund, formulas: 'block' | 'cell'): Promise<Inserted> {
  const sheet = rt.spreadsheet.insertSheet(`Model ${formulas}`);
  rt.spreadsheet.setActiveRange(sheet.getRange('A1'));
  const before = rt.executions.length;
  const answer = rt.callServer('insertFundModel', [
    { companyId: fund.fundId, metricNames: fund.names, periods: LABELS, startPeriod: null, endPeriod: null, aggregate: null, formulas },
  ]) as { ok: boolean; error?: string };
  if (!answer.ok) throw new Error(`insertFundModel failed: ${answer.error ?? ''}`);
  const outcomes = await rt.recalculateWritten({ maxConcurrent: MAX_CONCURRENT, startupMs: STARTUP_MS });
  const failedOutcome = outcomes.find((o) => !o.ok && o.error.message !== INVOCATION_RATE_REFUSAL);
  const otherError = failedOutcome && !failedOutcome.ok ? `${failedOutcome.cell}: ${failedOutcome.error.message}` : null;
  const executions = rt.executions.slice(before).filter((e) => e.kind === 'custom-function');
  const rows = sheet.getDataRange().getValues();
  const companyIndex = new Map(fund.companies.map((name, c) => [name.trim(), c]));
  let right = 0;
  let wrong = 0;
  let firstWrong: string | null = null;
  fund.names.forEach((_, n) => {
    const top = n * (COMPANIES + 3);
    for (let r = top + 1; r <= top + COMPANIES; r++) {
      const c = companyIndex.get(String(rows[r]![0]).trim())!;
      for (let q = 0; q < QUARTERS; q++) {
        const expected = fund.value(c, n, q);
        const shown = rows[r]![1 + q];
        if (shown === (expected === null ? '' : Number(expected))) right++;
        else {
          wrong++;
          firstWrong ??= `${String(rows[r]![0])} ${fund.names[n]} ${LABELS[q]}: ${String(shown)}`;
        }
      }
    }
  });
  return { executions: executions.length, refused: executions.filter((e) => e.error === INVOCATION_RATE_REFUSAL).length, right, wrong, firstWrong, otherError };
}

export async function fundModelExecutionsScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  if (!sides.includes('addin')) return [];
  const fund = await createGridFund(bench.emulator, COMPANIES, NAMES);
  const variants: Array<[string, 'block' | 'cell', number | false]> = [
    ['one formula per block (the default)', 'block', DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND],
    [`one formula per cell, Apps Script's refusal past ${DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND}/s modelled`, 'cell', DEFAULT_CUSTOM_FUNCTIONS_PER_SECOND],
  ];
  const rows = [];
  for (const [variant, formulas, perSecond] of variants) {
    console.log(`fund-model-executions: ${variant}`);
    const rt = await bench.addinRuntime({ defaultCompany: fund.fundId, customFunctionsPerSecond: perSecond });
    await warmWorkers(rt, 'METRIC_VALUE', MAX_CONCURRENT);
    // measure() moves the clock on past a rate window, so the warm-up's calls are out of the second counted.
    const run = await bench.measure(rt, () => insertAndRecalculate(rt, fund, formulas));
    const { executions, refused, right, wrong, firstWrong, otherError } = run.value;
    const note = `${executions} custom-function executions (${refused} refused: "${INVOCATION_RATE_REFUSAL}"); ${right} of ${right + wrong} values right${firstWrong ? `, first wrong: ${firstWrong}` : ''}${otherError ? `; failed otherwise: ${otherError}` : ''}`;
    rows.push(measuredRow(variant, run, note, { executions, refused, rightValues: right, wrongValues: wrong }));
  }
  const title = `Fund model: executions per recalculation, ${COMPANIES} companies × ${NAMES.length} metrics × ${QUARTERS} quarters (${COMPANIES * NAMES.length * QUARTERS} values) inserted by insertFundModel, ≤ ${MAX_CONCURRENT} at once, ${STARTUP_MS} ms start-up each`;
  return [{ id: 'fund-model-executions', title, rows }];
}
