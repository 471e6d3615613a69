// Undo from each push's journal, on the built bundle against the emulator: the values a push replaced come back
// exactly as the server held them (a 62-character memo whole, rich text with its markup, a multiselect by its
// option ids even when labels hold ", "), for any of the person's last pushes, across a Cancel/Resume with
// another push in between, with no cap on how many; values sent unchanged are nothing to undo; and a journal
// row an editor altered is not trusted.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditPushHandle, ExportHandle, JobProgress, UndoablePushes, UndoHandle } from '../../src/shared/rpc';
import { driveExport, driveJob, ok, OWNER, useStack, type Stack } from '../support/stack';

jest.setTimeout(240_000);

let stack: Stack;
useStack((started) => (stack = started));

const JOURNAL = 'Portfolio Metrics journal';

function driveUndo(rt: GasRuntime, first: UndoHandle, maxSteps = 20): Promise<UndoHandle> {
  return driveJob(stack, rt, first, 'continueUndo', (handle) => handle.undoId, maxSteps);
}

function storedValue(state: EmulatorState, profileId: string, propertyId: string) {
  return state.portfolio_property_values.find((v) => v.portfolio_company_profile_id === profileId && v.portfolio_property_id === propertyId);
}

function pointValues(state: EmulatorState, metricId: string, dates: readonly string[]): Array<string | null | undefined> {
  const byDate = new Map(state.data_points.filter((p) => p.metric_id === metricId).map((p) => [p.date, p.value]));
  return dates.map((date) => byDate.get(date));
}

const day = (i: number): string => new Date(Date.UTC(2010, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);

/** A daily metric with `count` points from 2010-01-01, valued base + i. */
async function metricWithPoints(name: string, count: number, base: number): Promise<string> {
  const created = await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name, frequency: 'daily', unit: 'number' }] });
  const metricId = created.metrics[0]!.id;
  for (let from = 0; from < count; from += 2000) {
    await stack.emulator.control.fixtures({
      data_points: Array.from({ length: Math.min(2000, count - from) }, (_, k) => ({
        metric_id: metricId,
        date: day(from + k),
        value: String(base + from + k),
      })),
    });
  }
  return metricId;
}

/** Puts Date/Value rows for days first..first+count-1 (values base + i) at `column` of Sheet1, and the request exporting them. */
function exportRequest(rt: GasRuntime, metricId: string, first: number, count: number, base: number, column = 1, onlyChanged = true) {
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  if (sheet.getMaxRows() < count + 1) sheet.insertRowsAfter(sheet.getMaxRows(), count + 1 - sheet.getMaxRows());
  sheet
    .getRange(1, column, count + 1, 2)
    .setValues([['Date', 'Value'], ...Array.from({ length: count }, (_, k) => [day(first + k), String(base + first + k)])]);
  const letter = (n: number) => String.fromCharCode(64 + n);
  return {
    companyId: DEMO_IDS.fund,
    range: `Sheet1!${letter(column)}1:${letter(column + 1)}${count + 1}`,
    spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged },
    writeStatus: false,
  };
}

it('restores a 62-character memo whole, rich text with its markup, and a multiselect whose labels hold ", " by its option ids', async () => {
  const state = await stack.emulator.control.state();
  const acme = state.portfolio_company_profiles.find((p) => p.company_id === DEMO_IDS.fund)!;
  const property = (name: string) => state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === name)!;
  const [memo, thesis] = [property('Investment memo'), property('Investment thesis')];
  const markets = (await stack.emulator.control.fixtures({ portfolio_properties: [{ company_id: DEMO_IDS.fund, name: 'Markets', data_type: 'multiselect' }] }))
    .portfolio_properties[0]!;
  const options = (
    await stack.emulator.control.fixtures({
      portfolio_property_options: ['Payments, Lending', 'Health, Care', 'Energy'].map((label) => ({ portfolio_property_id: markets.id, label })),
    })
  ).portfolio_property_options;
  const longMemo = 'Why we invested: a strong team, a large market, a clear moat!!';
  expect(longMemo).toHaveLength(62);
  await stack.emulator.control.fixtures({
    portfolio_property_values: [
      { portfolio_property_id: memo.id, portfolio_company_profile_id: acme.id, value: longMemo },
      { portfolio_property_id: markets.id, portfolio_company_profile_id: acme.id, portfolio_property_option_ids: [options[0]!.id, options[1]!.id] },
    ],
  });
  const thesisBefore = storedValue(state, acme.id, thesis.id)!.value!;
  expect(thesisBefore).toMatch(/^<p>.* <em>compounds<\/em> .*<\/p>$/);

  const rt = stack.runtime();
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = sheet.getDataRange().getValues();
  const cell = (propertyId: string) => sheet.getRange(grid.findIndex((r) => r[0] === acme.id) + 1, grid[0]!.indexOf(propertyId) + 1);
  expect(cell(markets.id).getValue()).toBe('Payments, Lending, Health, Care');
  cell(memo.id).setValue('A short memo');
  cell(thesis.id).setValue('A plain thesis');
  cell(markets.id).setValue('Energy');
  const pushed = await driveJob(stack, rt, ok<AuditPushHandle>(rt.callServer('startAuditPush', [null])), 'continueAuditPush', (h) => h.pushId);
  expect(pushed.report!.totals).toMatchObject({ updated: 3, conflict: 0, failed: 0 });

  // The Pushes sheet's Old value is the whole value the server held just before the write.
  const logged = rt.spreadsheet
    .getSheetByName('Pushes')!
    .getDataRange()
    .getValues()
    .slice(1)
    .map((row) => [row[3], row[5], row[6]]);
  expect(logged).toEqual(
    expect.arrayContaining([
      [`${acme.name} › Investment memo`, longMemo, 'A short memo'],
      [`${acme.name} › Investment thesis`, thesisBefore, 'A plain thesis'],
      [`${acme.name} › Markets`, 'Payments, Lending, Health, Care', 'Energy'],
    ]),
  );

  // Offered for Undo with what it is; the person picks it and Undo writes back exactly what was there.
  const listed = ok<UndoablePushes>(rt.callServer('listUndoablePushes', []));
  expect(listed.altered).toBeNull();
  expect(listed.pushes[0]).toMatchObject({ pushId: pushed.pushId, kind: 'Audit push', stored: 3, restorable: 3, cannotUndo: 0, undoneBy: null });
  expect(listed.pushes[0]!.description).toMatch(
    new RegExp(
      `^Audit push from "Portfolio audit" of \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} \\(Push ${pushed.pushId} in the Pushes sheet\\), 3 values stored: Undo restores 3 values it replaced\\.$`,
    ),
  );
  await stack.emulator.control.clearRequests();
  const undone = await driveUndo(rt, ok<UndoHandle>(rt.callServer('undoPush', [pushed.pushId])));
  expect(undone.report!.totals).toMatchObject({ updated: 3, conflict: 0, failed: 0, pending: 0 });
  const puts = (await stack.emulator.control.requests())
    .filter((r) => r.method === 'PUT')
    .map((r) => (r.body as { portfolio_property_value: unknown }).portfolio_property_value);
  expect(puts).toHaveLength(3);
  expect(puts).toEqual(
    expect.arrayContaining([
      { portfolio_property_id: memo.id, portfolio_company_profile_id: acme.id, value: longMemo },
      { portfolio_property_id: thesis.id, portfolio_company_profile_id: acme.id, value: thesisBefore },
      { portfolio_property_id: markets.id, portfolio_company_profile_id: acme.id, portfolio_property_option_ids: [options[0]!.id, options[1]!.id] },
    ]),
  );
  const after = await stack.emulator.control.state();
  expect(storedValue(after, acme.id, memo.id)!.value).toBe(longMemo);
  expect(storedValue(after, acme.id, thesis.id)!.value).toBe(thesisBefore);
  expect(storedValue(after, acme.id, markets.id)!.option_ids).toEqual([options[0]!.id, options[1]!.id]);
  // Nothing of the values in the user's properties: the undo's record there names the push, no value.
  const props = JSON.stringify(rt.properties.user(OWNER).getProperties());
  expect(props).not.toContain('Why we invested');
});

it('undoes an export cancelled part-way, with another push made before it resumed, and that other push afterwards', async () => {
  const metricId = await metricWithPoints('Interleaved metric', 600, 1000);
  const rt = stack.runtime();
  // Export A (600 updates): the API holds its answers, so the step is cancelled after its first wave of PUTs.
  const requestA = exportRequest(rt, metricId, 0, 600, 2000);
  const started = ok<ExportHandle>(rt.callServer('startExport', [requestA]));
  await stack.emulator.control.faults({ latencyMs: 600_000 });
  let answered = false;
  const step = rt.callServerAsync('continueExport', [started.exportId]).finally(() => {
    answered = true;
  });
  for (let reads = 0; !answered && reads < 2000; reads++) {
    const live = ok<JobProgress | null>(await rt.callServerAsync('getJobProgress', ['export', started.exportId]));
    if (live && 'itemsDone' in live && live.itemsDone > 0) break;
    await stack.emulator.control.release();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  ok(await rt.callServerAsync('cancelExport', [started.exportId]));
  await stack.emulator.control.faults({ reset: true });
  await stack.emulator.control.release();
  const cancelled = ok<ExportHandle>(await step);
  expect(cancelled.progress.status).toBe('cancelled');
  const storedFirst = cancelled.report!.totals.updated;
  expect(storedFirst).toBeGreaterThan(0);
  expect(storedFirst).toBeLessThan(600);

  // Push B, from another range: 10 of the points A stored, written again.
  const b = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [exportRequest(rt, metricId, 0, 10, 3000, 4)])));
  expect(b.report!.totals).toMatchObject({ updated: 10 });

  // A resumed and finished.
  const resumed = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('resumeExport', [started.exportId])));
  expect(resumed.report!.totals).toMatchObject({ updated: 600, pending: 0 });

  // Undo of A, picked from the list: every value it replaced comes back, but the 10 B wrote again, held back as conflicts.
  const listed = ok<UndoablePushes>(rt.callServer('listUndoablePushes', []));
  expect(listed.pushes.map((p) => p.pushId)).toEqual([started.exportId, b.exportId]);
  expect(listed.pushes[0]).toMatchObject({ stored: 600, restorable: 590, heldBack: 10 });
  const undoneA = await driveUndo(rt, ok<UndoHandle>(rt.callServer('undoPush', [started.exportId])));
  expect(undoneA.report!.totals).toMatchObject({ updated: 590, conflict: 10, failed: 0, pending: 0 });
  expect(undoneA.report!.summary).toBe(
    `Undo of the export (Push ${started.exportId} in the Pushes sheet): 590 values restored, 10 values held back as conflicts (written again by a later push: undo that one first). The exported range still shows the exported values.`,
  );
  let state = await stack.emulator.control.state();
  const dates = Array.from({ length: 600 }, (_, i) => day(i));
  expect(pointValues(state, metricId, dates)).toEqual(dates.map((_, i) => String(i < 10 ? 3000 + i : 1000 + i)));

  // B can still be undone: its 10 values go back to A's, which it had replaced.
  const again = ok<UndoablePushes>(rt.callServer('listUndoablePushes', []));
  expect(again.pushes.find((p) => p.pushId === started.exportId)!.undoneBy).toBe(undoneA.undoId);
  expect(rt.callServer('undoPush', [started.exportId])).toEqual({ ok: false, error: expect.stringMatching(/^Push [0-9a-f-]{36} was undone already/) });
  const undoneB = await driveUndo(rt, ok<UndoHandle>(rt.callServer('undoPush', [b.exportId])));
  expect(undoneB.report!.totals).toMatchObject({ updated: 10, conflict: 0 });
  state = await stack.emulator.control.state();
  expect(pointValues(state, metricId, dates)).toEqual(dates.map((_, i) => String(i < 10 ? 2000 + i : 1000 + i)));
});

it("restores every one of a 10,000-value export's updates, with no cap, and keeps no value in the user's properties", async () => {
  const count = 10_000;
  const metricId = await metricWithPoints('Ten thousand', count, 100_000);
  const rt = stack.runtime();
  const exported = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [exportRequest(rt, metricId, 0, count, 500_000)])), 100);
  expect(exported.report!.totals).toMatchObject({ updated: count, pending: 0 });

  const started = ok<UndoHandle>(rt.callServer('undoLastPush', []));
  expect(started.progress.cellsTotal).toBe(count);
  // The undo's stored record names its push and how it runs: a few hundred bytes, not its values.
  const stored = Object.entries(rt.properties.user(OWNER).getProperties()).filter(([key]) => key.includes(started.undoId));
  expect(stored.reduce((sum, [, value]) => sum + value.length, 0)).toBeLessThan(1000);
  const undone = await driveUndo(rt, started, 100);
  expect(undone.report!.totals).toMatchObject({ updated: count, conflict: 0, failed: 0, pending: 0 });
  const state = await stack.emulator.control.state();
  const dates = Array.from({ length: count }, (_, i) => day(i));
  expect(pointValues(state, metricId, dates)).toEqual(dates.map((_, i) => String(100_000 + i)));
});

it('counts values an export sent unchanged as nothing to undo, not as values it cannot undo', async () => {
  const metricId = await metricWithPoints('Sent again', 3, 10);
  const rt = stack.runtime();
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  sheet.getRange(1, 1, 4, 2).setValues([
    ['Date', 'Value'],
    [day(0), '10'],
    [day(1), '99'],
    [day(2), '12'],
  ]);
  const request = {
    companyId: DEMO_IDS.fund,
    range: 'Sheet1!A1:B4',
    spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
    writeStatus: false,
  };
  rt.spreadsheet.setActiveRange(sheet.getRange('A1:B4'));
  // Previewed first, as the sidebar does: typed data is compared, so the two unchanged values are known as such.
  ok(rt.callServer('previewExport', [request]));
  const exported = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request])));
  expect(exported.report!.totals).toMatchObject({ written: 2, updated: 1 });
  // The journal's hidden sheet, made by this first push, did not move the person's selection.
  expect(`${rt.spreadsheet.getActiveRange()!.getSheet().getName()}!${rt.spreadsheet.getActiveRange()!.getA1Notation()}`).toBe('Sheet1!A1:B4');

  const listed = ok<UndoablePushes>(rt.callServer('listUndoablePushes', []));
  expect(listed.pushes[0]).toMatchObject({ stored: 3, restorable: 1, nothingToUndo: 2, cannotUndo: 0 });
  const undone = await driveUndo(rt, ok<UndoHandle>(rt.callServer('undoLastPush', [])));
  expect(undone.report!.summary).toBe(
    `Undo of the export (Push ${exported.exportId} in the Pushes sheet): 1 value restored, 2 values sent unchanged (nothing to undo). The exported range still shows the exported values.`,
  );
  expect(undone.report!.notUndone).toEqual([]);
  expect(pointValues(await stack.emulator.control.state(), metricId, [day(0), day(1), day(2)])).toEqual(['10', '11', '12']);
});

it('does not trust a journal row an editor altered: it is reported, and nothing of it is restored', async () => {
  const metricId = await metricWithPoints('Forged journal', 2, 10);
  const rt = stack.runtime();
  const exported = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [exportRequest(rt, metricId, 0, 2, 50)])));
  expect(exported.report!.totals).toMatchObject({ updated: 2 });

  // An editor rewrites the value the export replaced, in the hidden sheet, to have Undo write theirs.
  const journal = rt.spreadsheet.getSheetByName(JOURNAL)!;
  expect(journal.isSheetHidden()).toBe(true);
  const record = journal.getRange(2, 6);
  expect(String(record.getValue())).toContain('"replaced":"10"');
  record.setValue(String(record.getValue()).replace('"replaced":"10"', '"replaced":"666"'));

  const listed = ok<UndoablePushes>(rt.callServer('listUndoablePushes', []));
  expect(listed.pushes).toEqual([]);
  expect(listed.altered).toBe(
    `1 row of your journal of pushes (the hidden sheet "${JOURNAL}") was changed by someone else, so it is ignored: what it recorded is not undone.`,
  );
  await stack.emulator.control.clearRequests();
  expect(rt.callServer('undoPush', [exported.exportId])).toEqual({ ok: false, error: expect.stringMatching(/^There is no push [0-9a-f-]{36} of yours/) });
  expect(rt.callServer('undoLastPush', [])).toEqual({ ok: false, error: expect.stringMatching(/^There is no push to undo/) });
  expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toEqual([]);

  // A row copied in from another push's journal under this one's id does not verify either.
  const copy = journal.getRange(2, 1, 1, journal.getLastColumn()).getValues()[0]!.map(String);
  copy[5] = copy[5]!.replace('"replaced":"666"', '"replaced":"10"').replace(exported.exportId, '00000000-0000-4000-8000-000000000000');
  journal.getRange(3, 1, 1, copy.length).setValues([copy]);
  expect(ok<UndoablePushes>(rt.callServer('listUndoablePushes', [])).pushes).toEqual([]);
});
