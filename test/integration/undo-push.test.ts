// Undo the last push, on the built bundle against the emulator: the cells an audit push
// updated get their value before back, read before written; a cell a colleague changed after the push is
// kept and reported as a conflict; a value the push created and an export's values are listed, not touched.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditPushHandle, ExportHandle, ImportHandle, UndoHandle } from '../../src/shared/rpc';
import { driveExport, ok, OWNER, useStack, waitOnBothClocks, type Stack } from '../support/stack';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

async function drive<H extends { progress: { waitingForRateLimitMs?: number }; report: unknown }>(
  rt: GasRuntime,
  first: H,
  next: string,
  id: (handle: H) => string,
): Promise<H> {
  let handle = first;
  for (let step = 0; !handle.report && step < 20; step++) {
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    handle = ok<H>(rt.callServer(next, [id(handle)]));
  }
  return handle;
}

function storedValue(state: EmulatorState, profileId: string, propertyId: string) {
  return state.portfolio_property_values.find((v) => v.portfolio_company_profile_id === profileId && v.portfolio_property_id === propertyId);
}

function puts(requests: Array<{ method: string; body?: unknown }>) {
  return requests.filter((r) => r.method === 'PUT').map((r) => (r.body as { portfolio_property_value: Record<string, unknown> }).portfolio_property_value);
}

it("restores the values an audit push updated, keeps a colleague's later change as a conflict, and lists a created value", async () => {
  const rt = stack.runtime();
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = sheet.getDataRange().getValues();
  const before = await stack.emulator.control.state();
  const [acme, beta] = before.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
  const property = (name: string) => before.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === name)!;
  const [sector, headquarters, employees] = [property('Sector'), property('Headquarters'), property('Employees')];
  const cell = (profileId: string, propertyId: string) => sheet.getRange(grid.findIndex((r) => r[0] === profileId) + 1, grid[0]!.indexOf(propertyId) + 1);
  // The demo leaves Acme without a number of employees: the push creates it.
  expect(storedValue(before, acme!.id, employees.id)).toBeUndefined();
  const hqBefore = storedValue(before, acme!.id, headquarters.id)!.value;
  const sectorBefore = storedValue(before, beta!.id, sector.id)!.option_ids;
  const otherSector = before.portfolio_property_options.find((o) => o.portfolio_property_id === sector.id && !sectorBefore.includes(o.id))!;

  cell(acme!.id, headquarters.id).setValue('Analyst harbour');
  cell(beta!.id, sector.id).setValue(otherSector.label);
  cell(beta!.id, employees.id).setValue(4242);
  cell(acme!.id, employees.id).setValue(7);
  const pushed = await drive(rt, ok<AuditPushHandle>(rt.callServer('startAuditPush', [null])), 'continueAuditPush', (h) => h.pushId);
  expect(pushed.report!.totals).toMatchObject({ updated: 3, created: 1, conflict: 0, failed: 0 });

  // A colleague changes one of the pushed cells in the web application after the push.
  const colleague = await fetch(`${stack.emulator.url}/portfolio_property_values`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${stack.emulator.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ portfolio_property_value: { portfolio_property_id: employees.id, portfolio_company_profile_id: beta!.id, value: '999' } }),
  });
  expect(colleague.status).toBe(200);

  await stack.emulator.control.clearRequests();
  const undone = await drive(rt, ok<UndoHandle>(rt.callServer('undoLastPush', [])), 'continueUndo', (h) => h.undoId);
  expect(undone.progress.status).toBe('done');
  const report = undone.report!;
  expect(undone.pushId).toBe(pushed.pushId);
  expect(report.totals).toMatchObject({ updated: 2, conflict: 1, failed: 0, pending: 0 });
  expect(report.summary).toMatch(
    /^Undo of the audit push \(Push [0-9a-f-]{36} in the Pushes sheet\): 2 values restored, 1 conflict \(changed on the server since the push, so not restored\), 1 value the API cannot undo \(listed\)\./,
  );
  expect(report.problems).toEqual([
    expect.objectContaining({ profileId: beta!.id, propertyId: employees.id, outcome: 'conflict', conflict: { atBuild: '4242', server: '999' } }),
  ]);
  expect(report.notUndone).toEqual([
    expect.objectContaining({
      what: `${acme!.name} › Employees`,
      value: '7',
      reason: expect.stringMatching(/^the push created it .*no delete.*clear it in the web application$/),
    }),
  ]);

  // Read before written: one read of the values, then exactly the two PUTs of the values before.
  const requests = await stack.emulator.control.requests();
  const firstPut = requests.findIndex((r) => r.method === 'PUT');
  expect(requests.slice(0, firstPut).some((r) => r.method === 'GET' && r.path === '/portfolio_property_values')).toBe(true);
  expect(puts(requests)).toEqual(
    expect.arrayContaining([
      { portfolio_property_id: headquarters.id, portfolio_company_profile_id: acme!.id, value: hqBefore },
      { portfolio_property_id: sector.id, portfolio_company_profile_id: beta!.id, portfolio_property_option_id: sectorBefore[0] },
    ]),
  );
  expect(puts(requests)).toHaveLength(2);
  const after = await stack.emulator.control.state();
  expect(storedValue(after, acme!.id, headquarters.id)!.value).toBe(hqBefore);
  expect(storedValue(after, beta!.id, sector.id)!.option_ids).toEqual(sectorBefore);
  expect(storedValue(after, beta!.id, employees.id)!.value).toBe('999');
  expect(storedValue(after, acme!.id, employees.id)!.value).toBe('7');

  // The undo is logged in the Pushes sheet as kind "Undo", under its own id.
  const log = rt.spreadsheet.getSheetByName('Pushes')!.getDataRange().getValues();
  const undoRows = log
    .slice(1)
    .filter((row) => row[2] === 'Undo')
    .map((row) => row.slice(1));
  expect(undoRows).toHaveLength(3);
  expect(undoRows).toEqual(
    expect.arrayContaining([
      [
        OWNER,
        'Undo',
        `${acme!.name} › Headquarters`,
        '',
        'Analyst harbour',
        hqBefore,
        'restored',
        expect.stringMatching(/^'Portfolio audit'!\w+\d+$/),
        undone.undoId,
      ],
      [
        OWNER,
        'Undo',
        `${beta!.name} › Employees`,
        '',
        '999',
        '84',
        expect.stringMatching(/^conflict: changed on the server since the push/),
        expect.any(String),
        undone.undoId,
      ],
    ]),
  );
  expect(
    log
      .slice(1)
      .filter((row) => row[2] === 'Audit push')
      .every((row) => row[9] === pushed.pushId),
  ).toBe(true);

  // Undone once: a second Undo has nothing to restore.
  const again = rt.callServer('undoLastPush', []) as { ok: boolean; error?: string };
  expect(again).toEqual({ ok: false, error: expect.stringMatching(/^There is no push to undo: your last push \(Push [0-9a-f-]{36}\) was undone already\./) });

  // The audit sheet shows the restored values (the conflict's cell keeps what the person typed), so a push made
  // now sends nothing of what Undo restored.
  const sectorLabel = before.portfolio_property_options.find((o) => o.id === sectorBefore[0])!.label;
  expect(cell(acme!.id, headquarters.id).getValue()).toBe(hqBefore);
  expect(cell(beta!.id, sector.id).getValue()).toBe(sectorLabel);
  expect(cell(beta!.id, employees.id).getValue()).toBe(4242);
  await stack.emulator.control.clearRequests();
  const next = await drive(rt, ok<AuditPushHandle>(rt.callServer('startAuditPush', [null])), 'continueAuditPush', (h) => h.pushId);
  const sentAgain = puts(await stack.emulator.control.requests()).filter(
    (put) => put.portfolio_property_id === headquarters.id || put.portfolio_property_id === sector.id,
  );
  expect(sentAgain).toEqual([]);
  expect(next.report?.totals.updated ?? 0).toBe(0);
});

it("lists an export's values as what the API cannot undo, and sends nothing", async () => {
  const created = await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: 'Undo metric', frequency: 'daily', unit: 'number' }] });
  const metricId = created.metrics[0]!.id;
  const rt = stack.runtime();
  rt.spreadsheet
    .getSheetByName('Sheet1')!
    .getRange(1, 1, 3, 2)
    .setValues([
      ['Date', 'Value'],
      ['2024-01-01', 7],
      ['2024-01-02', 9],
    ]);
  const exported = await driveExport(
    stack,
    rt,
    ok<ExportHandle>(
      rt.callServer('startExport', [
        {
          companyId: DEMO_IDS.fund,
          range: 'Sheet1!A1:B3',
          spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
          writeStatus: false,
        },
      ]),
    ),
  );
  expect(exported.progress.status).toBe('done');

  await stack.emulator.control.clearRequests();
  const undone = ok<UndoHandle>(rt.callServer('undoLastPush', []));
  expect(undone.progress.status).toBe('done');
  expect(undone.report!.summary).toBe(
    `Undo of the export (Push ${exported.exportId} in the Pushes sheet): 0 values restored, 2 values the API cannot undo (listed).`,
  );
  expect(undone.report!.notUndone).toEqual([
    // Every write is compared right before it (compare-and-set), so even typed data sent without a preview knows it created these.
    { what: 'Undo metric', period: '2024-01-01', cell: 'Sheet1!B2', value: '7', reason: expect.stringMatching(/^the push created it/) },
    { what: 'Undo metric', period: '2024-01-02', cell: 'Sheet1!B3', value: '9', reason: expect.stringMatching(/^the push created it/) },
  ]);
  expect((await stack.emulator.control.requests()).filter((r) => r.method !== 'GET')).toHaveLength(0);
});

it("lists an import's created profiles as what the API cannot undo, and sends nothing", async () => {
  const rt = stack.runtime();
  rt.spreadsheet
    .getSheetByName('Sheet1')!
    .getRange(1, 4, 2, 2)
    .setValues([
      ['Name', 'Currency'],
      ['Undo Co One', 'USD'],
    ]);
  let imported = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!D1:E2' }]));
  for (let step = 0; !imported.report && step < 20; step++) imported = ok<ImportHandle>(rt.callServer('continueImport', [imported.importId]));
  expect(imported.progress.status).toBe('done');

  await stack.emulator.control.clearRequests();
  const undone = ok<UndoHandle>(rt.callServer('undoLastPush', []));
  expect(undone.report!.summary).toBe(
    `Undo of the profile import (Push ${imported.importId} in the Pushes sheet): 0 values restored, 1 value the API cannot undo (listed).`,
  );
  expect(undone.report!.notUndone).toEqual([
    {
      what: 'Undo Co One',
      period: '',
      cell: 'Sheet1!D2',
      value: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reason: expect.stringMatching(/^the import created this record \(it did not exist before\), and the API cannot delete it/),
    },
  ]);
  expect((await stack.emulator.control.requests()).filter((r) => r.method !== 'GET')).toHaveLength(0);
  const state = await stack.emulator.control.state();
  expect(state.portfolio_company_profiles.some((p) => p.name === 'Undo Co One')).toBe(true);
});

it('restores the fields an import replaced on an existing profile, compared first, and never advises deleting it', async () => {
  const rt = stack.runtime();
  const before = await stack.emulator.control.state();
  const acme = before.portfolio_company_profiles.find((p) => p.company_id === DEMO_IDS.fund && !p.name.startsWith('Cirrus'))!;
  rt.spreadsheet
    .getSheetByName('Sheet1')!
    .getRange(1, 4, 3, 2)
    .setValues([
      ['Name', 'Website'],
      [acme.name, 'https://undo-me.example'],
      ['Undo Co Two', 'https://two.example'],
    ]);
  let imported = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!D1:E3' }]));
  for (let step = 0; !imported.report && step < 20; step++) imported = ok<ImportHandle>(rt.callServer('continueImport', [imported.importId]));
  expect(imported.report!.totals).toMatchObject({ updated: 1, created: 1 });
  expect((await stack.emulator.control.state()).portfolio_company_profiles.find((p) => p.id === acme.id)!.website_url).toBe('https://undo-me.example');

  await stack.emulator.control.clearRequests();
  const undone = await drive(rt, ok<UndoHandle>(rt.callServer('undoLastPush', [])), 'continueUndo', (h) => h.undoId);
  expect(undone.progress.status).toBe('done');
  expect(undone.report!.totals).toMatchObject({ updated: 1, conflict: 0, failed: 0 });
  // The created profile is listed as the import's own creation; the existing one is never called created.
  expect(undone.report!.notUndone).toEqual([
    expect.objectContaining({ what: 'Undo Co Two', reason: expect.stringMatching(/^the import created this record/) }),
  ]);
  expect(JSON.stringify(undone.report)).not.toMatch(new RegExp(`${acme.name}[^"]*delete`));
  // Read before written, then one PUT that puts the website back and keeps the name.
  const requests = await stack.emulator.control.requests();
  const writes = requests.filter((r) => r.method !== 'GET');
  expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /portfolio_company_profiles/${acme.id}`]);
  expect(requests.findIndex((r) => r.method === 'GET' && r.path === '/portfolio_company_profiles')).toBeLessThan(requests.indexOf(writes[0]!));
  const after = (await stack.emulator.control.state()).portfolio_company_profiles.find((p) => p.id === acme.id)!;
  expect(after).toMatchObject({ name: acme.name, website_url: acme.website_url });
});
