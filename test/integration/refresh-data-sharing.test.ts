// "Refresh data" in a shared spreadsheet re-reads only what this spreadsheet's formulas may read. The clicker's
// cache is theirs across every spreadsheet the add-on runs in (CacheService's user cache is per user and
// script), so a series cached for another spreadsheet, or one formula access no longer allows, must not be
// re-read here with the clicker's token, nor its restated values land in this spreadsheet's Changes sheet.

import type { GasRuntime } from '../../gas-runtime';
import type { FormulaAccess } from '../../src/shared/rpc';
import { requestsNaming, withOtherCompany, type OtherCompany } from '../support/other-company';
import { OWNER, ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

/** A metric of the owner's default company, and one of "Secret Co", which the owner's token also reaches. */
function setup(): Promise<OtherCompany> {
  return withOtherCompany(stack, 'Open revenue', ['2024-01-01', '2024-02-01']);
}

function allow(rt: GasRuntime, companyIds: string[]): void {
  expect(ok<FormulaAccess>(rt.callServer('setFormulaAccess', [companyIds], { user: OWNER })).companyIds).toEqual(companyIds);
}

async function restate(s: OtherCompany): Promise<void> {
  await stack.emulator.control.fixtures({
    data_points: [
      { metric_id: s.secret, date: '2024-02-01', value: '1', source: { source_type: 'update_request', label: 'Restated' } },
      { metric_id: s.allowed, date: '2024-02-01', value: '555', source: { source_type: 'update_request', label: 'Restated' } },
    ],
  });
}

function refreshData(rt: GasRuntime): void {
  rt.run('onOpen', [{ authMode: 'FULL' }]);
  rt.run(rt.ui.menuFunction('Refresh data')!);
}

function changesMetrics(rt: GasRuntime): unknown[] {
  const sheet = rt.spreadsheet.getSheetByName('Changes');
  return sheet
    ? sheet
        .getRange(2, 2, Math.max(sheet.getLastRow() - 1, 1), 1)
        .getValues()
        .map((row) => row[0])
    : [];
}

describe('Refresh data', () => {
  it("re-reads nothing of a series the owner's cache holds for another spreadsheet", async () => {
    const s = await setup();
    // Spreadsheet Y: the owner allowed Secret Co there, and a formula cached its series.
    const other = stack.runtime({ spreadsheetId: 'spreadsheet-y', activeUser: OWNER });
    allow(other, [stack.emulator.companyId, s.secretCompany]);
    expect(other.evaluateFormula(`=METRIC_VALUES("${s.secret}")`, { cell: 'A1' })).toMatchObject({ ok: true });
    // Spreadsheet X, same add-on, same owner (so the same user cache); formula access here is the default company.
    const rt = stack.runtime({ spreadsheetId: 'spreadsheet-x', activeUser: OWNER, sameScriptAs: other });
    const sheet = rt.spreadsheet.getActiveSheet();
    expect(rt.evaluateFormula(`=METRIC_VALUES("${s.allowed}")`, { cell: 'A1' })).toMatchObject({ ok: true });
    // An editor types the other spreadsheet's formula here; it runs as the owner and is refused.
    expect(rt.evaluateFormula(`=METRIC_VALUES("${s.secret}")`, { cell: 'D1' })).toMatchObject({ ok: false });
    sheet.getRange('D1').setFormula(`=METRIC_VALUES("${s.secret}")`);
    await restate(s);
    await stack.takeRequests();

    refreshData(rt);
    expect(await requestsNaming(stack, s)).toEqual([]);
    // This spreadsheet's own series was compared, and only it.
    expect(changesMetrics(rt)).toEqual(['Open revenue']);
  });

  it('re-reads nothing cached for another spreadsheet, even of a company both allow: each keeps its own part of the cache', async () => {
    const s = await setup();
    const other = stack.runtime({ spreadsheetId: 'spreadsheet-y', activeUser: OWNER });
    allow(other, [stack.emulator.companyId, s.secretCompany]);
    expect(other.evaluateFormula(`=METRIC_VALUES("${s.secret}")`, { cell: 'A1' })).toMatchObject({ ok: true });
    const rt = stack.runtime({ spreadsheetId: 'spreadsheet-x', activeUser: OWNER, sameScriptAs: other });
    allow(rt, [stack.emulator.companyId, s.secretCompany]);
    // Typed here, never run here: what X's formulas read of it is nothing yet.
    rt.spreadsheet.getActiveSheet().getRange('D1').setFormula(`=METRIC_VALUES("${s.secret}")`);
    await restate(s);
    await stack.takeRequests();

    refreshData(rt);
    expect(await requestsNaming(stack, s)).toEqual([]);
    expect(changesMetrics(rt)).toEqual([]);
  });

  it('re-reads nothing of a company formula access no longer allows, though the cache still holds its series', async () => {
    const s = await setup();
    const rt = stack.runtime({ activeUser: OWNER });
    allow(rt, [stack.emulator.companyId, s.secretCompany]);
    expect(rt.evaluateFormula(`=METRIC_VALUES("${s.secret}")`, { cell: 'A1' })).toMatchObject({ ok: true });
    expect(rt.evaluateFormula(`=METRIC_VALUES("${s.allowed}")`, { cell: 'D1' })).toMatchObject({ ok: true });
    allow(rt, [stack.emulator.companyId]);
    await restate(s);
    await stack.takeRequests();

    refreshData(rt);
    expect(await requestsNaming(stack, s)).toEqual([]);
    expect(changesMetrics(rt)).toEqual(['Open revenue']);
  });
});
