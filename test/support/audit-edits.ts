// Audit push tests start the same way: the demo fund's audit built, then one property edited on every row.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import { ok, type Stack } from './stack';

type Profile = { id: string; name: string };

/**
 * Builds the demo fund's audit and types `valueOf(profile, index)` into every portfolio company's Headquarters
 * cell; returns the audit sheet, the profiles, the property, what the API should store (`profileId/propertyId`)
 * and each profile's cell.
 */
export async function editDemoHeadquarters(stack: Stack, rt: GasRuntime, valueOf: (profile: Profile, index: number) => string) {
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const values = sheet.getDataRange().getValues();
  const state = await stack.emulator.control.state();
  const property = state.portfolio_properties.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Headquarters')!;
  const column = values[0]!.indexOf(property.id) + 1;
  const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
  const expected = new Map<string, string>();
  /** A profile's Headquarters cell. */
  const cellOf = (profileId: string) => sheet.getRange(values.findIndex((r) => r[0] === profileId) + 1, column);
  profiles.forEach((profile, index) => {
    const value = valueOf(profile, index);
    cellOf(profile.id).setValue(value);
    expected.set(`${profile.id}/${property.id}`, value);
  });
  return { sheet, profiles, property, expected, cellOf };
}
