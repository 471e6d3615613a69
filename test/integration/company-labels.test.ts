// Two companies of one name are told apart in the property audit and in everything read from it: the demo fund's
// two "Cirrus Systems" (profiles 14 and 32) carry their profile ids in the audit sheet's name column, in the push's
// report and in the Pushes sheet, and each row's edit goes to its own profile. Built bundle against the emulator.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { AuditPushHandle } from '../../src/shared/rpc';
import { driveAuditPush, ok, OWNER, putPropertyValue, type Stack, useStack } from '../support/stack';

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
