// Imports send only what the person meant and say everything: unrecognised columns, unsettled cells,
// existing contacts, duplicate rows, names matched without renaming, and a cancel — against the emulator.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { EmulatorState } from '../../emulator/records';
import type { GasRuntime } from '../../gas-runtime';
import type { ImportColumnCheck, ImportHandle } from '../../src/shared/rpc';
import { ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
let state: EmulatorState;
useStack((started) => (stack = started));
beforeEach(async () => {
  state = await stack.emulator.control.state();
});

async function runImport(rt: GasRuntime, kind: 'profiles' | 'contacts', range: string, ignoreUnrecognisedColumns?: boolean): Promise<ImportHandle> {
  const request = { kind, companyId: DEMO_IDS.fund, range, ...(ignoreUnrecognisedColumns ? { ignoreUnrecognisedColumns } : {}) };
  let handle = ok<ImportHandle>(rt.callServer('startImport', [request]));
  for (let i = 0; !handle.report && i < 20; i++) handle = ok<ImportHandle>(rt.callServer('continueImport', [handle.importId]));
  return handle;
}

const apiRequests = async () => (await stack.takeRequests()).map((r) => `${r.method} ${r.path}`);
const writes = async () => (await apiRequests()).filter((line) => !line.startsWith('GET'));

it('names a column whose header it does not recognise, sends nothing, and imports without it only when told to', async () => {
  const rt = stack.runtime();
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange('A1:C2').setValues([
    ['Email', 'First name', 'Contact list names'],
    ['ada@example.com', 'Ada', 'Board'],
  ]);
  await stack.takeRequests();
  const check = ok<ImportColumnCheck>(rt.callServer('checkImportColumns', [{ kind: 'contacts', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:C2' }]));
  expect(check).toEqual({ recognised: ['Email', 'First name', 'Last name', 'Title', 'Contact lists', 'Contact id'], unrecognised: ['C "Contact list names"'] });

  const refused = rt.callServer('startImport', [{ kind: 'contacts', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:C2' }]) as { ok: boolean; error: string };
  expect(refused).toEqual({
    ok: false,
    error:
      'The contact import does not recognise the header of C "Contact list names", so nothing in this column would be sent. ' +
      'Rename it to a recognised header (Email, First name, Last name, Title, Contact lists, Contact id), or choose to ignore this column.',
  });
  expect(await writes()).toEqual([]);
  expect((await stack.emulator.control.state()).contacts.some((c) => c.email === 'ada@example.com')).toBe(false);

  const done = await runImport(rt, 'contacts', 'Sheet1!A1:C2', true);
  expect(done.report!.summary).toBe('1 row read: 1 created.');
  expect(await writes()).toEqual(['POST /contacts']);
  expect((await stack.emulator.control.state()).contacts.find((c) => c.email === 'ada@example.com')).toMatchObject({ first_name: 'Ada', contact_list_ids: [] });
});

it('never sends a cell still calculating ("Loading…") or showing an error: the row is refused, naming the cell', async () => {
  const rt = stack.runtime();
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange('A1:C4').setValues([
    ['Email', 'First name', 'Last name'],
    ['loading@example.com', 'Loading...', 'Smith'],
    ['error@example.com', 'Eve', '#ERROR!'],
    ['fine@example.com', 'Fay', 'Fine'],
  ]);
  await stack.takeRequests();
  const done = await runImport(rt, 'contacts', 'Sheet1!A1:C4');
  expect(done.report!.totals).toMatchObject({ created: 1, failed: 2 });
  expect(done.report!.problems.map((p) => [p.sheetRow, p.reason])).toEqual([
    [2, 'the first name cell B2 shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again'],
    [3, 'the last name cell C3 shows the error #ERROR!'],
  ]);
  expect(await writes()).toEqual(['POST /contacts']);
  const contacts = (await stack.emulator.control.state()).contacts;
  expect(contacts.filter((c) => ['loading@example.com', 'error@example.com'].includes(c.email))).toEqual([]);
  expect(contacts.some((c) => c.first_name === 'Loading...' || c.last_name === '#ERROR!')).toBe(false);
});

it('reports an email the API already has as existing, and a second row of one email as a duplicate of the first, sending it once', async () => {
  const rt = stack.runtime();
  const known = state.contacts.find((c) => c.company_id === DEMO_IDS.fund)!;
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange('A1:B4').setValues([
    ['Email', 'First name'],
    [known.email.toUpperCase(), 'Changed name'],
    ['new@example.com', 'New'],
    ['NEW@example.com', 'New again'],
  ]);
  await stack.takeRequests();
  const done = await runImport(rt, 'contacts', 'Sheet1!A1:B4');
  expect(done.report!.totals).toMatchObject({ created: 1, existing: 1, failed: 1 });
  expect(done.report!.summary).toBe('3 rows read: 1 created, 1 existing, 1 failed.');
  expect(done.report!.problems.map((p) => [p.sheetRow, p.outcome, p.reason])).toEqual([
    [2, 'existing', expect.stringMatching(/^a contact with this email already exists in this company; the API has no contact lookup or update/)],
    [4, 'failed', 'duplicate of row 3 (the same email): each contact can be created once'],
  ]);
  // One POST per distinct email: the existing one is refused by the API, the duplicate never sent.
  expect(await writes()).toEqual(['POST /contacts', 'POST /contacts']);
  const after = await stack.emulator.control.state();
  expect(after.contacts.filter((c) => c.email.toLowerCase() === 'new@example.com')).toHaveLength(1);
  expect(after.contacts.find((c) => c.id === known.id)).toEqual(known);
  expect(sheet.getRange('D2').getValue()).toMatch(/^existing: /);
});

it('matches a profile by name without renaming it, and refuses a name two profiles share once trimmed', async () => {
  const rt = stack.runtime();
  const acme = state.portfolio_company_profiles.find((p) => p.company_id === DEMO_IDS.fund && !p.name.startsWith('Cirrus'))!;
  // The demo fund holds "Cirrus Systems" and "Cirrus Systems " (two companies), as the formulas' ambiguity tests use.
  const cirrus = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund && p.name.trim() === 'Cirrus Systems');
  expect(cirrus.map((p) => p.name).sort()).toEqual(['Cirrus Systems', 'Cirrus Systems ']);
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange('A1:B3').setValues([
    ['Name', 'Website'],
    [`  ${acme.name.toUpperCase()} `, 'https://acme-new.example'],
    ['cirrus systems', 'https://cirrus.example'],
  ]);
  await stack.takeRequests();
  const done = await runImport(rt, 'profiles', 'Sheet1!A1:B3');
  expect(done.report!.totals).toMatchObject({ updated: 1, failed: 1 });
  expect(done.report!.problems).toEqual([
    {
      sheetRow: 3,
      label: 'cirrus systems',
      outcome: 'failed',
      reason: '2 profiles of this fund are named "cirrus systems": put the id of the one you mean in the id column',
    },
  ]);
  expect(await writes()).toEqual([`PUT /portfolio_company_profiles/${acme.id}`]);
  const after = await stack.emulator.control.state();
  expect(after.portfolio_company_profiles.find((p) => p.id === acme.id)).toMatchObject({ name: acme.name, website_url: 'https://acme-new.example' });
  expect(after.portfolio_company_profiles.filter((p) => p.name.trim() === 'Cirrus Systems')).toEqual(cirrus);
});

it("reports a cancel during a rate-limit wait as the person's cancel, not the rate limit", async () => {
  const rt = stack.runtime();
  rt.spreadsheet
    .getActiveSheet()
    .getRange('A1:A4')
    .setValues([['Email'], ['a1@example.com'], ['a2@example.com'], ['a3@example.com']]);
  let handle = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'contacts', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:A4' }]));
  await stack.emulator.control.faults({ next429: 1_000 });
  for (let i = 0; !handle.progress.waitingForRateLimitMs && i < 5; i++) handle = ok<ImportHandle>(rt.callServer('continueImport', [handle.importId]));
  expect(handle.progress.waitingForRateLimitMs).toBeGreaterThan(0);
  const cancelled = ok<ImportHandle>(rt.callServer('cancelImport', [handle.importId]));
  expect(cancelled.progress.status).toBe('cancelled');
  expect(cancelled.report!.problem).toBeNull();
  expect(cancelled.report!.summary).toBe('3 rows read: 3 not sent (import cancelled).');
  expect((await stack.emulator.control.state()).contacts.filter((c) => /^a\d@example\.com$/.test(c.email))).toEqual([]);
});

describe('renames', () => {
  const profileNamed = async (id: string) => (await stack.emulator.control.state()).portfolio_company_profiles.find((p) => p.id === id)!;
  const preview = (rt: GasRuntime, range: string) =>
    ok<ImportColumnCheck>(rt.callServer('checkImportColumns', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range }]));

  it('never renames by case: run 1 matches "AURORA ROBOTICS" by name and writes the id back, run 2 matches by id and sends nothing', async () => {
    // The demo fund's own "Aurora Robotics".
    const aurora = state.portfolio_company_profiles.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Aurora Robotics');
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('A1:A2').setValues([['Name'], ['AURORA ROBOTICS']]);
    await stack.takeRequests();

    expect(preview(rt, 'Sheet1!A1:A2').renames).toEqual([]);
    const first = await runImport(rt, 'profiles', 'Sheet1!A1:A2');
    expect(first.report!.summary).toBe('1 row read: 1 unchanged.');
    // The id went back into the sheet, so the next run matches by id.
    expect(sheet.getRange('B1:B2').getValues()).toEqual([['Profile id'], [aurora!.id]]);

    expect(preview(rt, 'Sheet1!A1:A2').renames).toEqual([]);
    const second = await runImport(rt, 'profiles', 'Sheet1!A1:A2');
    expect(second.report!.summary).toBe('1 row read: 1 unchanged.');
    expect(await writes()).toEqual([]);
    expect((await profileNamed(aurora!.id)).name).toBe('Aurora Robotics');

    // With another field changed, the PUT carries the server's name, not the sheet's case.
    sheet.getRange('A2:A2').setValues([[' aurora robotics ']]);
    sheet.getRange('D1:D2').setValues([['Website'], ['https://aurora-new.example']]);
    const third = await runImport(rt, 'profiles', 'Sheet1!A1:D2');
    expect(third.report!.totals).toMatchObject({ updated: 1 });
    const sent = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
    expect(sent.map((r) => [r.path, (r.body as { portfolio_company_profile: { name: string } }).portfolio_company_profile.name])).toEqual([
      [`/portfolio_company_profiles/${aurora!.id}`, 'Aurora Robotics'],
    ]);
    expect(await profileNamed(aurora!.id)).toMatchObject({ name: 'Aurora Robotics', website_url: 'https://aurora-new.example' });
  });

  it('shows a real rename old → new in the preview, sends nothing until it is confirmed, then renames', async () => {
    // The demo fund's own "Aurora Robotics".
    const aurora = state.portfolio_company_profiles.find((p) => p.company_id === DEMO_IDS.fund && p.name === 'Aurora Robotics');
    const rt = stack.runtime();
    rt.spreadsheet
      .getActiveSheet()
      .getRange('A1:B2')
      .setValues([
        ['Name', 'Profile id'],
        ['Aurora Robotics Inc', aurora!.id],
      ]);
    await stack.takeRequests();

    const check = preview(rt, 'Sheet1!A1:B2');
    expect(check.renames).toEqual([{ sheetRow: 2, profileId: aurora!.id, from: 'Aurora Robotics', to: 'Aurora Robotics Inc' }]);
    const refused = rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:B2' }]) as { ok: boolean; error: string };
    expect(refused).toEqual({
      ok: false,
      error: expect.stringMatching(/^The profile import would rename 1 profile: row 2: "Aurora Robotics" → "Aurora Robotics Inc"\. Nothing was sent\./),
    });
    expect(await writes()).toEqual([]);
    expect((await profileNamed(aurora!.id)).name).toBe('Aurora Robotics');

    let handle = ok<ImportHandle>(
      rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:B2', renames: check.renames }]),
    );
    for (let i = 0; !handle.report && i < 20; i++) handle = ok<ImportHandle>(rt.callServer('continueImport', [handle.importId]));
    expect(handle.report!.summary).toBe('1 row read: 1 updated.');
    expect(await writes()).toEqual([`PUT /portfolio_company_profiles/${aurora!.id}`]);
    expect((await profileNamed(aurora!.id)).name).toBe('Aurora Robotics Inc');
  });
});

it('compares each update with the server just before writing it: a field a colleague changed since the start is a conflict, not written, and the Pushes sheet keeps what was replaced', async () => {
  const fund = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund && !p.name.startsWith('Cirrus'));
  const [first, second] = fund;
  const rt = stack.runtime();
  const sheet = rt.spreadsheet.getActiveSheet();
  sheet.getRange('A1:C3').setValues([
    ['Name', 'Website', 'Currency'],
    [first!.name, 'https://analyst.example', ''],
    [second!.name, '', second!.currency === 'CHF' ? 'SEK' : 'CHF'],
  ]);
  const started = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:C3' }]));
  expect(started.progress.status).toBe('running');

  // A colleague changes the first profile's website between the start and the step.
  const colleague = await fetch(`${stack.emulator.url}/portfolio_company_profiles/${first!.id}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${stack.emulator.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ portfolio_company_profile: { name: first!.name, company_id: DEMO_IDS.fund, website_url: 'https://colleague.example' } }),
  });
  expect(colleague.status).toBe(200);
  await stack.takeRequests();

  let handle = started;
  for (let i = 0; !handle.report && i < 20; i++) handle = ok<ImportHandle>(rt.callServer('continueImport', [handle.importId]));
  // One paged read of the fund's profiles in the step, right before its writes; then only the write that does not overwrite the colleague.
  expect((await stack.takeRequests()).map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`)).toEqual([
    `GET /portfolio_company_profiles?company_id=${DEMO_IDS.fund}&page=1`,
    `GET /portfolio_company_profiles?company_id=${DEMO_IDS.fund}&page=2`,
    `PUT /portfolio_company_profiles/${second!.id}`,
  ]);
  const after = await stack.emulator.control.state();
  expect(after.portfolio_company_profiles.find((p) => p.id === first!.id)!.website_url).toBe('https://colleague.example');
  const newCurrency = second!.currency === 'CHF' ? 'SEK' : 'CHF';
  expect(after.portfolio_company_profiles.find((p) => p.id === second!.id)!.currency).toBe(newCurrency);
  expect(handle.report!.totals).toMatchObject({ updated: 1, conflict: 1 });
  expect(handle.report!.problems).toEqual([
    {
      sheetRow: 2,
      label: first!.name,
      outcome: 'conflict',
      reason:
        `changed on the server since the import was planned (website: ${JSON.stringify(first!.website_url ?? '')} then, "https://colleague.example" now), so the row was not written and that change is kept: import again to plan it against the server as it is now`.replace(
          '"" then',
          'a blank then',
        ),
    },
  ]);
  expect(sheet.getRange('E2').getValue()).toMatch(/^conflict: changed on the server/);

  const log = rt.spreadsheet
    .getSheetByName('Pushes')!
    .getDataRange()
    .getValues()
    .slice(1)
    .map((row) => row.slice(2, 8));
  expect(log).toEqual([
    [
      'Import profiles',
      `${first!.name} › website`,
      '',
      'https://colleague.example',
      'https://analyst.example',
      expect.stringMatching(/^conflict: changed on the server/),
    ],
    ['Import profiles', `${second!.name} › currency`, '', second!.currency ?? '', newCurrency, 'updated'],
  ]);
});
