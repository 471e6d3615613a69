// Values restored on the server (what Undo of an audit push does) shown in the audit sheet, on the built bundle
// against the emulator: each in its cell found by the hidden ids, exactly as a fresh build shows it, the
// snapshot refreshed so the next push sends nothing; a cell typed into since is left as typed; a sheet whose
// hidden ids were swapped is refused, and nothing is written into it.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { AuditPushHandle } from '../../src/shared/rpc';
import { driveAuditPush, ok, putPropertyValue, type Stack, useStack } from '../support/stack';
import { builtCodeWith } from '../support/server-function-bundle';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

const AUDIT = 'Portfolio audit';
const AURORA = DEMO_IDS.profile(1);
const BLUEBIRD = DEMO_IDS.profile(2);
const SHOW = 'showRestoredAuditValuesForTest';
const code = builtCodeWith('src/server/audit-sheet-restore.ts', 'showRestoredAuditValues', SHOW);

/** The demo audit built, three of Aurora Robotics' cells edited and pushed, their values before known. */
async function pushedEdits() {
  const rt = stack.runtime({ code });
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName(AUDIT)!;
  const state = await stack.emulator.control.state();
  const property = (name: string) => state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === name)!;
  const [headquarters, sector, founded] = [property('Headquarters'), property('Sector'), property('Founded')];
  const before = (propertyId: string) =>
    state.portfolio_property_values.find((v) => v.portfolio_company_profile_id === AURORA && v.portfolio_property_id === propertyId)!;
  const cell = (profileId: string, propertyId: string) => {
    const grid = sheet.getDataRange().getValues();
    return sheet.getRange(grid.findIndex((r) => r[0] === profileId) + 1, grid[0]!.indexOf(propertyId) + 1);
  };
  // As built: what a restored cell must look like again.
  const atBuild = [headquarters, sector, founded].map((p) => ({ value: cell(AURORA, p.id).getValue(), format: cell(AURORA, p.id).getNumberFormat() }));
  const [hqBefore, sectorBefore, foundedBefore] = [before(headquarters.id), before(sector.id), before(founded.id)];
  expect([hqBefore.value, sectorBefore.option_ids.length, foundedBefore.value]).toEqual(['Berlin', 1, expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)]);
  const otherSector = state.portfolio_property_options.find((o) => o.portfolio_property_id === sector.id && !sectorBefore.option_ids.includes(o.id))!;

  cell(AURORA, headquarters.id).setValue('Analyst harbour');
  cell(AURORA, sector.id).setValue(otherSector.label);
  cell(AURORA, founded.id).setValue(new Date(Date.UTC(2001, 1, 3, 12)));
  const pushed = await driveAuditPush(stack, rt, ok<AuditPushHandle>(rt.callServer('startAuditPush', [null])));
  expect(pushed.report!.totals).toMatchObject({ updated: 3, failed: 0, conflict: 0 });

  // Undo's writes on the server: the values before, as it PUTs them.
  const restored = [
    { profileId: AURORA, propertyId: headquarters.id, value: { value: hqBefore.value as string } },
    { profileId: AURORA, propertyId: sector.id, value: { portfolio_property_option_id: sectorBefore.option_ids[0]! } },
    { profileId: AURORA, propertyId: founded.id, value: { value: foundedBefore.value as string } },
  ];
  for (const { propertyId, value } of restored)
    await putPropertyValue(stack, { portfolio_property_id: propertyId, portfolio_company_profile_id: AURORA, ...value });
  return { rt, sheet, cell, headquarters, sector, founded, atBuild, restored };
}

it('shows restored values as a fresh build would, and the next push sends nothing', async () => {
  const s = await pushedEdits();
  const missing = { profileId: 'b0000000-0000-4000-8000-0000000000ff', propertyId: s.headquarters.id, value: { value: 'Nowhere' } };
  expect(s.rt.callServer(SHOW, [AUDIT, [...s.restored, missing]])).toEqual({ shown: 3, notFound: 1, leftAsTyped: 0 });
  const now = [s.headquarters, s.sector, s.founded].map((p) => ({ value: s.cell(AURORA, p.id).getValue(), format: s.cell(AURORA, p.id).getNumberFormat() }));
  expect(now).toEqual(s.atBuild);
  expect(s.atBuild[2]!.value).toBeInstanceOf(Date);

  await stack.emulator.control.clearRequests();
  const next = await driveAuditPush(stack, s.rt, ok<AuditPushHandle>(s.rt.callServer('startAuditPush', [null])));
  expect(next.report!.summary).toMatch(/nothing changed, so nothing was sent/);
  expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
});

it('leaves a cell the person typed into since the push as typed', async () => {
  const s = await pushedEdits();
  s.cell(AURORA, s.headquarters.id).setValue('Typed after the push');
  expect(s.rt.callServer(SHOW, [AUDIT, s.restored])).toEqual({ shown: 2, notFound: 0, leftAsTyped: 1 });
  expect(s.cell(AURORA, s.headquarters.id).getValue()).toBe('Typed after the push');
  expect(s.cell(AURORA, s.sector.id).getValue()).toBe(s.atBuild[1]!.value);
});

it('refuses a sheet whose hidden ids were swapped since, writing nothing into it', async () => {
  const s = await pushedEdits();
  const grid = s.sheet.getDataRange().getValues();
  const [auroraRow, bluebirdRow] = [grid.findIndex((r) => r[0] === AURORA) + 1, grid.findIndex((r) => r[0] === BLUEBIRD) + 1];
  s.sheet.getRange(auroraRow, 1).setValue(BLUEBIRD);
  s.sheet.getRange(bluebirdRow, 1).setValue(AURORA);
  const swapped = s.sheet.getDataRange().getValues();
  expect(() => s.rt.callServer(SHOW, [AUDIT, s.restored])).toThrow(
    /^The hidden ids in "Portfolio audit" no longer match the names it shows: row 3 shows "Aurora Robotics" but holds the hidden id of "Bluebird Health"/,
  );
  expect(s.sheet.getDataRange().getValues()).toEqual(swapped);
});

it('finds nothing to show when the audit sheet is gone', async () => {
  const s = await pushedEdits();
  s.rt.spreadsheet.deleteSheet(s.sheet);
  expect(s.rt.callServer(SHOW, [AUDIT, s.restored])).toEqual({ shown: 0, notFound: 3, leftAsTyped: 0 });
});
