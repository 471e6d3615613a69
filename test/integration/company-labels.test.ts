// Two companies of one name are told apart in the property audit and in everything read from it: the demo fund's
// two "Cirrus Systems" (profiles 14 and 32) carry their profile ids in the audit sheet's name column, in the push's
// report and in the Pushes sheet, and each row's edit goes to its own profile. Built bundle against the emulator.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { AuditPushHandle, ExportHandle, UndoHandle } from '../../src/shared/rpc';
import { driveAuditPush, driveExport, driveJob, ok, OWNER, putPropertyValue, type Stack, useStack } from '../support/stack';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

const first = DEMO_IDS.profile(14);
const second = DEMO_IDS.profile(32);
const label = (profileId: string) => `Cirrus Systems (${profileId})`;

it('labels the two Cirrus Systems in the audit sheet, the push report and the Pushes sheet, and pushes each row to its own profile', async () => {
  const rt = stack.runtime();
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = sheet.getDataRange().getValues();
  const rowOf = (profileId: string) => grid.findIndex((row) => row[0] === profileId);
  const state = await stack.emulator.control.state();
  const names = new Map(state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund).map((p) => [p.id, p.name]));
  // The emulator holds one name twice (trimmed, any case): the audit's name column says which is which.
  expect([names.get(first)!.trim(), names.get(second)!.trim()]).toEqual(['Cirrus Systems', 'Cirrus Systems']);
  expect(grid[rowOf(first)]![1]).toBe(label(first));
  expect(grid[rowOf(second)]![1]).toBe(label(second));
  // A name no other company has stays plain.
  const redwood = [...names].find(([, name]) => name === 'Redwood Fintech')![0];
  expect(grid[rowOf(redwood)]![1]).toBe('Redwood Fintech');

  // A colleague changes the second's Headquarters on the server; the analyst types into both rows.
  const headquarters = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Headquarters')!;
  const cell = (profileId: string) => sheet.getRange(rowOf(profileId) + 1, grid[0]!.indexOf(headquarters.id) + 1);
  await putPropertyValue(stack, { portfolio_property_id: headquarters.id, portfolio_company_profile_id: second, value: 'Colleague harbour' });
  cell(first).setValue('Analyst harbour');
  cell(second).setValue('Analyst quay');

  const pushed = await driveAuditPush(stack, rt, ok<AuditPushHandle>(rt.callServer('startAuditPush', [null])));
  expect(pushed.progress.status).toBe('done');
  // The report names the held-back cell's company by its label, as the sidebar shows it.
  expect(pushed.report!.conflicts).toEqual([
    expect.objectContaining({ profileId: second, profileName: label(second), propertyName: 'Headquarters', outcome: 'conflict' }),
  ]);
  const after = await stack.emulator.control.state();
  const stored = (profileId: string) =>
    after.portfolio_property_values.find((v) => v.portfolio_company_profile_id === profileId && v.portfolio_property_id === headquarters.id)?.value;
  expect(stored(first)).toBe('Analyst harbour');
  expect(stored(second)).toBe('Colleague harbour');

  // The Pushes sheet's What column: the label, so the two rows of one name are two companies there too.
  const log = rt.spreadsheet
    .getSheetByName('Pushes')!
    .getDataRange()
    .getValues()
    .slice(1)
    .map((row) => row.slice(1, 4).concat(row.slice(5, 8)));
  expect(log).toEqual(
    expect.arrayContaining([
      [OWNER, 'Audit push', `${label(first)} › Headquarters`, expect.anything(), 'Analyst harbour', expect.stringMatching(/^(updated|created)$/)],
      [OWNER, 'Audit push', `${label(second)} › Headquarters`, 'Colleague harbour', 'Analyst quay', expect.stringMatching(/^conflict: /)],
    ]),
  );
});

/** The Pushes sheet's rows of one push: [kind, what, period, new value, outcome]. */
function pushes(rt: ReturnType<Stack['runtime']>, pushId: string): unknown[][] {
  const sheet = rt.spreadsheet.getSheetByName('Pushes');
  return (sheet?.getDataRange().getValues().slice(1) ?? []).filter((row) => row[9] === pushId).map((row) => [row[2], row[3], row[4], row[6], row[7]]);
}

it("labels an export's two metrics of one name with their companies in the report, the Pushes sheet and the undo, and nothing else reads the profiles", async () => {
  // Two companies' "Net Burn" of the fund, as a wide export names them by id: the two Cirrus Systems' own.
  const created = await stack.emulator.control.fixtures({
    metrics: [first, second].map((profile) => ({
      company_id: DEMO_IDS.fund,
      portfolio_company_profile_id: profile,
      name: 'Burn by company',
      frequency: 'monthly',
      unit: 'USD',
    })),
  });
  const [a, b] = created.metrics.map((metric) => metric.id) as [string, string];
  // Values there before, so the export updates them and the undo restores them.
  await stack.emulator.control.fixtures({
    data_points: [
      { metric_id: a, date: '2024-01-01', value: '1' },
      { metric_id: b, date: '2024-01-01', value: '2' },
    ],
  });
  const rt = stack.runtime();
  rt.spreadsheet
    .getActiveSheet()
    .getRange('A1:C2')
    .setValues([
      ['Date', a, b],
      ['2024-01-01', 100, 200],
    ]);
  const request = (range: string) => ({
    companyId: DEMO_IDS.fund,
    range,
    spec: { layout: 'wide', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
    writeStatus: false,
  });
  await stack.takeRequests();
  // Previewed first, as the sidebar does: the values it overwrites are approved there.
  const preview = ok<{ sample: Array<{ metricName: string | null }> }>(rt.callServer('previewExport', [request('Sheet1!A1:C2')]));
  expect(preview.sample.map((item) => item.metricName)).toEqual([`${label(first)} › Burn by company`, `${label(second)} › Burn by company`]);
  const done = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request('Sheet1!A1:C2')])));
  expect(done.report!.totals).toMatchObject({ updated: 2, failed: 0 });
  expect(pushes(rt, done.exportId)).toEqual([
    ['Export', `${label(first)} › Burn by company`, '2024-01-01', '100', 'updated'],
    ['Export', `${label(second)} › Burn by company`, '2024-01-01', '200', 'updated'],
  ]);
  // The profiles were read once, for the labels; each value went to its own company's metric.
  expect((await stack.takeRequests()).filter((r) => r.path === '/portfolio_company_profiles').length).toBeGreaterThan(0);
  const state = await stack.emulator.control.state();
  expect(state.data_points.filter((p) => p.metric_id === a || p.metric_id === b).map((p) => [p.metric_id, Number(p.value)])).toEqual([
    [a, 100],
    [b, 200],
  ]);
  const undone = await driveJob(stack, rt, ok<UndoHandle>(rt.callServer('undoLastPush', [])), 'continueUndo', (handle) => handle.undoId);
  expect(pushes(rt, undone.undoId).map((row) => [row[1], row[3]])).toEqual([
    [`${label(first)} › Burn by company`, '1'],
    [`${label(second)} › Burn by company`, '2'],
  ]);

  // One metric of that name in the range: no label, and no profile read for one.
  rt.spreadsheet
    .getActiveSheet()
    .getRange('E1:F2')
    .setValues([
      ['Date', a],
      ['2024-02-01', 300],
    ]);
  await stack.takeRequests();
  const single = await driveExport(stack, rt, ok<ExportHandle>(rt.callServer('startExport', [request('Sheet1!E1:F2')])));
  expect(pushes(rt, single.exportId).map((row) => row[1])).toEqual(['Burn by company']);
  expect((await stack.takeRequests()).filter((r) => r.path === '/portfolio_company_profiles')).toEqual([]);
});

it("keeps an export's company labels across a 429 pause between steps and a dropped cache: they live in the job's record", async () => {
  const created = await stack.emulator.control.fixtures({
    metrics: [first, second].map((profile) => ({
      company_id: DEMO_IDS.fund,
      portfolio_company_profile_id: profile,
      name: 'Burn across steps',
      frequency: 'monthly',
      unit: 'USD',
    })),
  });
  const [a, b] = created.metrics.map((metric) => metric.id) as [string, string];
  const rt = stack.runtime();
  rt.spreadsheet
    .getActiveSheet()
    .getRange('A1:C2')
    .setValues([
      ['Date', a, b],
      ['2024-01-01', 100, 200],
    ]);
  const request = {
    companyId: DEMO_IDS.fund,
    range: 'Sheet1!A1:C2',
    spec: { layout: 'wide', hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
    writeStatus: false,
  };
  const started = ok<ExportHandle>(rt.callServer('startExport', [request]));
  // The first step's wave: its compare reads (one a metric) and the first metric's PUT pass, the second PUT meets a 429.
  await stack.emulator.control.rateLimit({ limit: 3, windowSeconds: 60, retryAfter: true, freshWindow: true });
  const paused = ok<ExportHandle>(rt.callServer('continueExport', [started.exportId]));
  expect(paused.report ?? null).toBeNull();
  const between = await stack.emulator.control.state();
  expect(between.data_points.filter((p) => p.metric_id === a || p.metric_id === b).map((p) => p.metric_id)).toEqual([a]);
  // Between the steps Google drops every cached entry: the metric listing and the profiles the labels came from.
  const cache = rt.cache.user(OWNER);
  cache.removeAll(cache._keys());
  await stack.takeRequests();
  const done = await driveExport(stack, rt, paused);
  expect(done.report!.totals).toMatchObject({ created: 2, failed: 0 });
  expect(pushes(rt, done.exportId).map((row) => row[1])).toEqual([`${label(first)} › Burn across steps`, `${label(second)} › Burn across steps`]);
  // The resumed step did not read the profiles again to name them.
  expect((await stack.takeRequests()).filter((r) => r.path === '/portfolio_company_profiles')).toEqual([]);
});
