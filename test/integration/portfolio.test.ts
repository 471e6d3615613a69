// The portfolio audit, its write-back, profile and contact imports, and notes, against the emulator.

import fc from 'fast-check';
import { PROPERTY_SEED, seeded } from '../support/property-seed';
import { DEMO_IDS, FORMULA_TEXT } from '../../emulator/demo-data';
import { DEFAULT_PAGE_SIZE } from '../../emulator/pagination';
import type { EmulatorState } from '../../emulator/records';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditPushHandle, ImportHandle, UnfinishedPortfolioJobs } from '../../src/shared/rpc';
import { ok, useStack, type Stack } from '../support/stack';

let stack: Stack;
let state: EmulatorState;
useStack((started) => (stack = started));
beforeEach(async () => {
  state = await stack.emulator.control.state();
});

const fundProperties = () => state.portfolio_properties.filter((p) => p.company_id === DEMO_IDS.fund);
const propertyNamed = (name: string) => fundProperties().find((p) => p.name === name)!;
const optionsOf = (propertyId: string) => state.portfolio_property_options.filter((o) => o.portfolio_property_id === propertyId);

/** The audit sheet's grid, as a person sees it, and where each profile and property sits. */
/** Polls until `read` gives a value; gives up (failing the test) after 30 s of real time, a bound no assertion reads. */
async function until<T>(read: () => Promise<T | null>, what: string): Promise<T> {
  const giveUp = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function auditGrid(rt: GasRuntime) {
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const values = sheet.getDataRange().getValues();
  const display = sheet.getDataRange().getDisplayValues();
  const column = (propertyId: string) => values[0]!.indexOf(propertyId) + 1;
  const row = (profileId: string) => values.findIndex((r) => r[0] === profileId) + 1;
  return { sheet, values, display, column, row, cell: (profileId: string, propertyId: string) => sheet.getRange(row(profileId), column(propertyId)) };
}

/** Every page a paginated list of `count` items takes (page 1 even when it is empty). */
const pagesOf = (path: string, query: string, count: number) =>
  Array.from({ length: Math.max(1, Math.ceil(count / DEFAULT_PAGE_SIZE)) }, (_, i) => `GET ${path}?${query}&page=${i + 1}`);

/** What reading the fund's properties and their options asks of the API, one line a request. */
function schemaReads(): string[] {
  const properties = fundProperties();
  return [
    ...pagesOf('/portfolio_properties', `company_id=${DEMO_IDS.fund}`, properties.length),
    ...properties
      .filter((p) => p.data_type === 'select' || p.data_type === 'multiselect')
      .map((p) => `GET /portfolio_property_options?portfolio_property_id=${p.id}`),
  ];
}

/** The requests the emulator saw since the last call, one line each, sorted: the order within a wave is not the add-in's to fix. */
async function requestLines(): Promise<string[]> {
  return (await stack.takeRequests()).map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`).sort();
}

async function push(rt: GasRuntime): Promise<AuditPushHandle> {
  let handle = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
  for (let i = 0; !handle.report && i < 20; i++) handle = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [handle.pushId]));
  return handle;
}

/** 2010-01-10 as Sheets' en_US default date format shows it: 1/10/2010. */
function usDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number);
  return `${month}/${day}/${year}`;
}

describe('the portfolio audit', () => {
  it('shows its dates as the spreadsheet shows dates, and as yyyy-mm-dd where Sheets gives a written date no format', async () => {
    const dated = state.portfolio_property_values.find(
      (v) => fundProperties().some((p) => p.id === v.portfolio_property_id && p.data_type === 'date') && v.value,
    );
    expect(dated).toBeDefined();
    for (const [assumptions, shown, format] of [
      [{}, usDate(dated!.value!), 'M/d/yyyy'],
      [{ writtenDatesGetDateFormat: false }, dated!.value!, 'yyyy-mm-dd'],
    ] as const) {
      const rt = stack.runtime({ assumptions });
      ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
      const grid = auditGrid(rt);
      const cell = grid.cell(dated!.portfolio_company_profile_id, dated!.portfolio_property_id);
      expect([cell.getDisplayValue(), cell.getNumberFormat()]).toEqual([shown, format]);
    }
  });

  it('shows every profile and property with labels, joined lists and completeness as the API holds them', async () => {
    const rt = stack.runtime();
    await stack.takeRequests();
    const built = ok<{ profiles: number; properties: number; overall: { filled: number; total: number } }>(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
    // Each list read once, every page of it, and nothing else.
    expect(await requestLines()).toEqual(
      [
        ...pagesOf('/portfolio_company_profiles', `company_id=${DEMO_IDS.fund}`, profiles.length),
        ...schemaReads(),
        ...profiles.flatMap((profile) =>
          pagesOf(
            '/portfolio_property_values',
            `portfolio_company_profile_id=${profile.id}`,
            state.portfolio_property_values.filter((v) => v.portfolio_company_profile_id === profile.id).length,
          ),
        ),
      ].sort(),
    );
    expect(built.profiles).toBe(profiles.length);
    expect(built.properties).toBe(fundProperties().length);
    const grid = auditGrid(rt);
    expect(grid.sheet.isRowHiddenByUser(1)).toBe(true);
    expect(grid.sheet.isColumnHiddenByUser(1)).toBe(true);
    expect(grid.sheet.getFrozenRows()).toBe(2);
    expect(grid.sheet.getFilter()).not.toBeNull();
    // Auto-calculated properties come last, marked.
    const headers = grid.values[1]!.slice(2, 2 + fundProperties().length) as string[];
    expect(headers.slice(-5).every((h) => h.endsWith(' (auto)'))).toBe(true);

    const custom = fundProperties().filter((p) => !['Total Invested', 'Current Fair Value', 'MOIC', 'Ownership', 'Initial Investment Date'].includes(p.name));
    let filled = 0;
    for (const profile of profiles) {
      for (const property of fundProperties()) {
        const value = state.portfolio_property_values.find((v) => v.portfolio_company_profile_id === profile.id && v.portfolio_property_id === property.id);
        const shown = grid.display[grid.row(profile.id) - 1]![grid.column(property.id) - 1] ?? '';
        // The emulator keeps select choices as option ids and other values as text (see emulator/records.ts).
        const hasValue = Boolean(value && ((value.value !== null && value.value !== '') || value.option_ids.length > 0));
        if (hasValue && custom.includes(property)) filled++;
        if (!hasValue) {
          expect(shown === '' || shown === 'FALSE').toBe(true);
          continue;
        }
        if (property.data_type === 'select') {
          expect(shown).toBe(optionsOf(property.id).find((o) => o.id === value!.option_ids[0])!.label);
        } else if (property.data_type === 'multiselect') {
          expect(shown.split(', ').sort()).toEqual(
            optionsOf(property.id)
              .filter((o) => value!.option_ids.includes(o.id))
              .map((o) => o.label)
              .sort(),
          );
        } else if (property.data_type === 'boolean') {
          expect(shown).toBe(value!.value === 'true' ? 'TRUE' : 'FALSE');
        } else if (property.data_type === 'number') {
          const held = Number(grid.values[grid.row(profile.id) - 1]![grid.column(property.id) - 1]);
          expect(held).toBe(Number(value!.value));
          // Shown with thousands separators and two decimals; the cell holds the number itself.
          expect(grid.cell(profile.id, property.id).getNumberFormat()).toBe('#,##0.00');
          expect(shown).toBe(held.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
        } else if (property.data_type === 'date') {
          // As Sheets shows a date a script writes (en_US in the runtime), the format a formula's dates take.
          expect(shown).toBe(usDate(String(value!.value)));
        } else if (property.data_type === 'rich_text') {
          // The demo's one-paragraph HTML, read as text: its tags dropped.
          expect(shown).toBe(String(value!.value).replace(/<[^>]+>/g, ''));
        } else {
          expect(shown).toBe(String(value!.value));
        }
      }
    }
    expect(built.overall).toMatchObject({ filled, total: profiles.length * custom.length });
    // The fund is named in the sheet's developer metadata, in no cell (its formula bar included); the sheet
    // opens on the first company's name, not on the hidden id row.
    expect(grid.values.flat().filter((cell) => String(cell).includes('portfolio-audit') || String(cell).includes(DEMO_IDS.fund))).toEqual([]);
    expect(grid.sheet.getDeveloperMetadata().map((entry) => [entry.getKey(), entry.getValue()])).toEqual([['portfolio-audit:v1', DEMO_IDS.fund]]);
    expect(rt.spreadsheet.getActiveRange().getA1Notation()).toBe('B3');
    expect(rt.spreadsheet.getActiveRange().getSheet().getName()).toBe('Portfolio audit');
    // Built again, it names the fund once.
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    expect(auditGrid(rt).sheet.getDeveloperMetadata()).toHaveLength(1);
    expect(grid.display.flat()).toContain(FORMULA_TEXT);
    expect(
      grid.sheet
        .getRange(grid.display.findIndex((r) => r.includes(FORMULA_TEXT)) + 1, grid.display.find((r) => r.includes(FORMULA_TEXT))!.indexOf(FORMULA_TEXT) + 1)
        .getFormula(),
    ).toBe('');
  });

  it('pushes only the edited cells, in the form each type demands, and a rebuilt audit shows them', async () => {
    const rt = stack.runtime();
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const grid = auditGrid(rt);
    const profile = DEMO_IDS.profile(4);
    const stage = propertyNamed('Stage');
    const tags = propertyNamed('Tags');
    const employees = propertyNamed('Employees');
    const founded = propertyNamed('Founded');
    const headquarters = propertyNamed('Headquarters');
    const stageLabel = optionsOf(stage.id)[1]!.label;
    const tagLabels = optionsOf(tags.id)
      .slice(0, 2)
      .map((o) => o.label);
    grid.cell(profile, stage.id).setValue(stageLabel.toUpperCase());
    grid.cell(profile, tags.id).setValue(tagLabels.join(', '));
    grid.cell(profile, employees.id).setValue(250);
    grid.cell(profile, founded.id).setValue(new Date('2015-06-01T04:00:00Z')); // midnight in New York
    grid.cell(profile, headquarters.id).setValue('Lisbon');
    await stack.emulator.control.clearRequests();

    const done = await push(rt);
    expect(done.progress.status).toBe('done');
    const requests = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
    expect(requests).toHaveLength(5);
    // The push reads the schema afresh, once; then, before its wave, the server's values of its cells (the
    // profile's values, the options of its selects: conflicts.ts) in one batched read; then one PUT a cell.
    const conflictRead = [
      `GET /portfolio_property_values?portfolio_company_profile_id=${profile}&page=1`,
      `GET /portfolio_property_options?portfolio_property_id=${stage.id}`,
      `GET /portfolio_property_options?portfolio_property_id=${tags.id}`,
    ];
    expect(await requestLines()).toEqual([...schemaReads(), ...conflictRead, ...Array<string>(5).fill('PUT /portfolio_property_values')].sort());
    const bodies = new Map(
      requests.map((r) => {
        const body = (r.body as { portfolio_property_value: Record<string, unknown> }).portfolio_property_value;
        return [body['portfolio_property_id'] as string, body];
      }),
    );
    expect(bodies.get(stage.id)).toEqual({
      portfolio_property_id: stage.id,
      portfolio_company_profile_id: profile,
      portfolio_property_option_id: optionsOf(stage.id)[1]!.id,
    });
    expect(bodies.get(tags.id)).toEqual({
      portfolio_property_id: tags.id,
      portfolio_company_profile_id: profile,
      portfolio_property_option_ids: optionsOf(tags.id)
        .slice(0, 2)
        .map((o) => o.id),
    });
    expect(bodies.get(employees.id)).toEqual({ portfolio_property_id: employees.id, portfolio_company_profile_id: profile, value: '250' });
    expect(bodies.get(founded.id)).toEqual({ portfolio_property_id: founded.id, portfolio_company_profile_id: profile, value: '2015-06-01' });
    expect(bodies.get(headquarters.id)).toEqual({ portfolio_property_id: headquarters.id, portfolio_company_profile_id: profile, value: 'Lisbon' });
    const before = state.portfolio_property_values.filter((v) => v.portfolio_company_profile_id === profile);
    const created = [stage, tags, employees, founded, headquarters].filter((p) => !before.some((v) => v.portfolio_property_id === p.id)).length;
    expect(done.report!.totals).toMatchObject({ created, updated: 5 - created, failed: 0 });
    expect(requests.filter((r) => r.status === 201)).toHaveLength(created);

    // A rebuilt audit shows what was pushed; a second push sends nothing.
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const rebuilt = auditGrid(rt);
    expect(rebuilt.cell(profile, stage.id).getValue()).toBe(stageLabel);
    expect(rebuilt.cell(profile, tags.id).getValue()).toBe(tagLabels.join(', '));
    expect(rebuilt.cell(profile, headquarters.id).getValue()).toBe('Lisbon');
    await stack.emulator.control.clearRequests();
    const again = await push(rt);
    expect(again.report!.totals).toMatchObject({ created: 0, updated: 0, failed: 0 });
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('cancels a push and resumes it with only the cells not confirmed', async () => {
    const rt = stack.runtime();
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const grid = auditGrid(rt);
    const headquarters = propertyNamed('Headquarters');
    const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
    for (const profile of profiles) grid.cell(profile.id, headquarters.id).setValue(`HQ ${profile.name}`);
    await stack.emulator.control.clearRequests();
    const started = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
    const cancelled = ok<AuditPushHandle>(rt.callServer('cancelAuditPush', [started.pushId]));
    expect(cancelled.progress.status).toBe('cancelled');
    expect(cancelled.report!.totals.pending).toBe(profiles.length);
    let handle = ok<AuditPushHandle>(rt.callServer('resumeAuditPush', [started.pushId]));
    for (let i = 0; !handle.report && i < 20; i++) handle = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [handle.pushId]));
    expect(handle.progress.status).toBe('done');
    const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(profiles.length);
  });

  it('records each confirmed cell at once: after a push left midway a fresh push sends only the rest, and a second push nothing', async () => {
    const rt = stack.runtime();
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const grid = auditGrid(rt);
    const employees = propertyNamed('Employees');
    const founded = propertyNamed('Founded');
    const headquarters = propertyNamed('Headquarters');
    const stage = propertyNamed('Stage');
    const profiles = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
    // 3 cells a company (96 for the demo fund's 32): more than one wave of 25, so a step can end with some confirmed and some not.
    const cells = profiles.length * 3;
    const rest = cells - 25;
    const expected = new Map<string, string>();
    profiles.forEach((profile, index) => {
      const day = `2010-0${1 + (index % 9)}-1${index % 10}`;
      grid.cell(profile.id, employees.id).setValue(1000 + index);
      grid.cell(profile.id, founded.id).setValue(new Date(`${day}T05:00:00Z`)); // midnight in New York
      grid.cell(profile.id, headquarters.id).setValue(`Office ${index}`);
      expected.set(`${profile.id}/${employees.id}`, String(1000 + index));
      expected.set(`${profile.id}/${founded.id}`, day);
      expected.set(`${profile.id}/${headquarters.id}`, `Office ${index}`);
    });
    // One answer of the first wave is held while the step's clock moves a minute on (virtual time, as a slow API
    // would spend it), so the step has no time for a second wave, whatever its budget. The wave opens with its
    // read of the server's values (conflicts.ts: its 25 cells are 9 companies'), let through as it comes.
    const started = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
    await stack.emulator.control.clearRequests();
    await stack.emulator.control.faults({ slowNext: { count: 10, delayMs: 600_000 } });
    const stepping = rt.callServerAsync('continueAuditPush', [started.pushId]);
    let released = 0;
    await until(async () => {
      released += await stack.emulator.control.release();
      return released >= 9 ? released : null;
    }, "the first wave's read");
    const firstWave = await until(async () => {
      const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
      return puts.length >= 24 ? puts : null;
    }, 'the first wave but its held answer');
    rt.clock.advance(60_000);
    expect(await stack.emulator.control.release()).toBe(1);
    const first = ok<AuditPushHandle>(await stepping);
    expect(released).toBe(9);
    expect(firstWave).toHaveLength(24);
    expect(first.progress).toMatchObject({ status: 'running', cellsDone: 25, cellsTotal: cells });
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(25);
    const cancelled = ok<AuditPushHandle>(rt.callServer('cancelAuditPush', [started.pushId]));
    expect(cancelled.report!.totals).toMatchObject({ pending: rest });

    // A fresh push (not a resume) sends only the cells not confirmed.
    await stack.emulator.control.clearRequests();
    const fresh = await push(rt);
    expect(fresh.progress).toMatchObject({ status: 'done', cellsTotal: rest });
    const puts = (await stack.emulator.control.requests()).filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(rest);
    const after = await stack.emulator.control.state();
    for (const [key, value] of expected) {
      const [profileId, propertyId] = key.split('/');
      const stored = after.portfolio_property_values.find((v) => v.portfolio_company_profile_id === profileId && v.portfolio_property_id === propertyId);
      expect([key, stored?.value]).toEqual([key, value]);
    }

    // A rebuilt audit shows what was pushed, keeps its formats and dropdowns; a second push sends nothing.
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const rebuilt = auditGrid(rt);
    for (const profile of profiles) {
      expect(rebuilt.display[rebuilt.row(profile.id) - 1]![rebuilt.column(founded.id) - 1]).toBe(usDate(expected.get(`${profile.id}/${founded.id}`)!));
      expect(rebuilt.cell(profile.id, employees.id).getValue()).toBe(Number(expected.get(`${profile.id}/${employees.id}`)));
      expect(rebuilt.cell(profile.id, headquarters.id).getValue()).toBe(expected.get(`${profile.id}/${headquarters.id}`));
    }
    // The format Sheets gives a date written by a script (en_US in the runtime), as a formula's dates show.
    expect(rebuilt.cell(profiles[0]!.id, founded.id).getNumberFormat()).toBe('M/d/yyyy');
    expect(rebuilt.cell(profiles[0]!.id, employees.id).getNumberFormat()).toBe('#,##0.00');
    expect(rebuilt.cell(profiles[0]!.id, headquarters.id).getNumberFormat()).toBe('@');
    expect(rebuilt.cell(profiles[0]!.id, stage.id).getDataValidation()!.getCriteriaValues()[0]).toEqual(optionsOf(stage.id).map((o) => o.label));
    await stack.emulator.control.clearRequests();
    const again = await push(rt);
    expect(again.report!.totals).toMatchObject({ created: 0, updated: 0, failed: 0, pending: 0 });
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
  }, 90_000);

  it('reports an unknown label with the labels that exist, and never writes an auto-calculated property', async () => {
    const rt = stack.runtime();
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const grid = auditGrid(rt);
    const stage = propertyNamed('Stage');
    const moic = propertyNamed('MOIC');
    grid.cell(DEMO_IDS.profile(5), stage.id).setValue('Series Z');
    grid.cell(DEMO_IDS.profile(5), moic.id).setValue(9.9);
    await stack.emulator.control.clearRequests();
    const done = await push(rt);
    const byProperty = new Map(done.report!.problems.map((p) => [p.propertyId, p]));
    expect(byProperty.get(stage.id)!.outcome).toBe('failed');
    for (const option of optionsOf(stage.id)) expect(byProperty.get(stage.id)!.reason).toContain(option.label);
    expect(byProperty.get(moic.id)!.outcome).toBe('skipped');
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
  });
});

describe('imports and notes', () => {
  async function runImport(rt: GasRuntime, kind: 'profiles' | 'contacts', range: string): Promise<ImportHandle> {
    let handle = ok<ImportHandle>(rt.callServer('startImport', [{ kind, companyId: DEMO_IDS.fund, range }]));
    for (let i = 0; !handle.report && i < 20; i++) handle = ok<ImportHandle>(rt.callServer('continueImport', [handle.importId]));
    return handle;
  }

  it('creates and updates profiles, writes their ids back, and reports a duplicate name on its row', async () => {
    const rt = stack.runtime();
    const existing = state.portfolio_company_profiles.filter((p) => p.company_id === DEMO_IDS.fund);
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('A1:E4').setValues([
      ['Name', 'Website', 'Currency', 'Fiscal year end month', 'Profile id'],
      ['Zephyr Labs', 'https://zephyr.example', 'usd', 3, ''],
      [existing[0]!.name, 'https://renamed.example', 'EUR', '', ''],
      [existing[2]!.name, '', '', '', existing[1]!.id],
    ]);
    const done = await runImport(rt, 'profiles', 'Sheet1!A1:E4');
    expect(done.report!.totals).toMatchObject({ created: 1, updated: 1, failed: 1 });
    expect(done.report!.problems[0]).toMatchObject({ sheetRow: 4, outcome: 'failed' });
    expect(done.report!.problems[0]!.reason).toMatch(new RegExp(existing[2]!.name));
    const after = await stack.emulator.control.state();
    const zephyr = after.portfolio_company_profiles.find((p) => p.name === 'Zephyr Labs')!;
    expect(zephyr).toMatchObject({ website_url: 'https://zephyr.example', currency: 'USD', fiscal_year_end_month: 3 });
    expect(sheet.getRange('E2').getValue()).toBe(zephyr.id);
    expect(sheet.getRange('E3').getValue()).toBe(existing[0]!.id);
    expect(after.portfolio_company_profiles.find((p) => p.id === existing[0]!.id)!.website_url).toBe('https://renamed.example');
  });

  it('creates contacts once: a re-run creates nothing twice, and a note reaches the selected contacts', async () => {
    const rt = stack.runtime();
    const list = state.contact_lists.find((l) => l.company_id === DEMO_IDS.fund)!;
    const sheet = rt.spreadsheet.getActiveSheet();
    sheet.getRange('A1:E4').setValues([
      ['Email', 'First name', 'Last name', 'Title', 'Contact lists'],
      ['ada@example.com', 'Ada', 'Lovelace', 'CFO', list.name.toUpperCase()],
      ['not-an-email', 'No', 'Body', '', ''],
      ['grace@example.com', 'Grace', 'Hopper', '', ''],
    ]);
    const first = await runImport(rt, 'contacts', 'Sheet1!A1:E4');
    expect(first.report!.totals).toMatchObject({ created: 2, failed: 1 });
    const ada = (await stack.emulator.control.state()).contacts.find((c) => c.email === 'ada@example.com')!;
    expect(ada.contact_list_ids).toEqual([list.id]);
    expect(sheet.getRange('F1:F2').getValues().flat()).toEqual(['Contact id', ada.id]);

    await stack.emulator.control.clearRequests();
    // The same selection again: the id and status columns the first run added are taken in.
    const second = await runImport(rt, 'contacts', 'Sheet1!A1:E4');
    expect(second.report!.totals).toMatchObject({ created: 0, skipped: 2, failed: 1 });
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'POST')).toHaveLength(0);

    rt.spreadsheet.setActiveRange(sheet.getRange('A2:F4'));
    const tag = state.note_tags.find((t) => t.company_id === DEMO_IDS.fund)!;
    const note = ok<{ outcome: string; contactCount: number }>(
      rt.callServer('addNoteToSelectedContacts', [{ content: '**Met** at the board meeting.', noteTagId: tag.id, skipRowsWithoutId: true }]),
    );
    expect(note).toMatchObject({ outcome: 'created', contactCount: 2 });
    const stored = (await stack.emulator.control.state()).notes.at(-1)!;
    expect(stored).toMatchObject({ content: '**Met** at the board meeting.', note_tag_id: tag.id });
    expect([...stored.contact_ids].sort()).toEqual([ada.id, sheet.getRange('F4').getValue()].sort());
  });

  it('finds the "Contact id" header of a contacts table that starts at row 5, selected with or without its header', async () => {
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getActiveSheet();
    const [ann, bob, cy] = [DEMO_IDS.contact(1), DEMO_IDS.contact(2), DEMO_IDS.contact(3)];
    // The user's own lines above, a blank row 4, then the table at B5:D8.
    sheet.getRange('A1:B2').setValues([
      ['Board contacts', ''],
      ['Id', 'kept by the fund team'],
    ]);
    sheet.getRange('B5:D8').setValues([
      ['Email', 'Name', 'Contact id'],
      ['ann@example.com', 'Ann', ann],
      ['bob@example.com', 'Bob', bob],
      ['cy@example.com', 'Cy', cy],
    ]);
    await stack.emulator.control.clearRequests();
    const notesBefore = (await stack.emulator.control.state()).notes.length;

    rt.spreadsheet.setActiveRange(sheet.getRange('C6:C7'));
    expect(ok(rt.callServer('addNoteToSelectedContacts', [{ content: 'Inside the table.' }]))).toMatchObject({ outcome: 'created', contactCount: 2 });
    rt.spreadsheet.setActiveRange(sheet.getRange('B5:D8'));
    expect(ok(rt.callServer('addNoteToSelectedContacts', [{ content: 'With the header.' }]))).toMatchObject({ outcome: 'created', contactCount: 3 });

    const notes = (await stack.emulator.control.state()).notes.slice(notesBefore);
    expect(notes.map((note) => [note.content, [...note.contact_ids].sort()])).toEqual([
      ['Inside the table.', [ann, bob].sort()],
      ['With the header.', [ann, bob, cy].sort()],
    ]);

    // Row 2's "Id" is above the blank row that ends the table: a table without the column is refused, nothing sent.
    sheet.getRange('D5').setValue('Phone');
    await stack.emulator.control.clearRequests();
    rt.spreadsheet.setActiveRange(sheet.getRange('C6:C7'));
    const refused = rt.callServer('addNoteToSelectedContacts', [{ content: 'Nowhere.' }]) as { ok: boolean; error?: string };
    expect(refused).toEqual({
      ok: false,
      error: expect.stringContaining('There is no "Contact id" column in the first row of the table holding the selection (row 5)'),
    });
    expect((await stack.emulator.control.requests()).filter((r) => r.method === 'POST')).toEqual([]);
  });

  it("reads a company's portfolio notes into cells, keeping formula-like text as text", () => {
    const rt = stack.runtime();
    const note = state.portfolio_notes.find((n) => n.content === FORMULA_TEXT)!;
    rt.spreadsheet.setActiveRange(rt.spreadsheet.getActiveSheet().getRange('B2'));
    const written = ok<{ rows: number }>(rt.callServer('insertPortfolioNotes', [note.portfolio_company_profile_id]));
    expect(written.rows).toBe(state.portfolio_notes.filter((n) => n.portfolio_company_profile_id === note.portfolio_company_profile_id).length);
    const values = rt.spreadsheet.getActiveSheet().getDataRange().getValues();
    const row = values.findIndex((r) => r.includes(FORMULA_TEXT));
    expect(row).toBeGreaterThan(0);
    expect(
      rt.spreadsheet
        .getActiveSheet()
        .getRange(row + 1, values[row]!.indexOf(FORMULA_TEXT) + 1)
        .getFormula(),
    ).toBe('');
    // "Created at" shows its time with the zone it is in.
    const created = rt.spreadsheet.getActiveSheet().getRange(row + 1, 4);
    expect(values[1]![3]).toBe('Created at');
    expect(created.getValue()).toBeInstanceOf(Date);
    expect(created.getDisplayValue()).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} ${rt.spreadsheet.getSpreadsheetTimeZone()}$`));
  });
});

describe('pushes and imports left unfinished', () => {
  const unfinished = (rt: GasRuntime) => ok<UnfinishedPortfolioJobs>(rt.callServer('findUnfinishedPortfolioJobs', []));

  it('offers a cancelled push and an import left when the sidebar closed, until they finish, and for six hours', async () => {
    const rt = stack.runtime();
    expect(unfinished(rt)).toEqual({ pushes: [], imports: [], builds: [], undos: [] });
    ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
    const grid = auditGrid(rt);
    const headquarters = propertyNamed('Headquarters');
    grid.cell(DEMO_IDS.profile(2), headquarters.id).setValue('Oslo');
    grid.cell(DEMO_IDS.profile(3), headquarters.id).setValue('Porto');
    const pushed = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
    ok(rt.callServer('cancelAuditPush', [pushed.pushId]));
    const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('A1:B3').setValues([
      ['Name', 'Currency'],
      ['Orion Labs', 'EUR'],
      ['Vega Systems', 'chf'],
    ]);
    // Started, then the sidebar closed before its first step.
    const imported = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!A1:B3' }]));

    const offered = unfinished(rt);
    expect(offered.pushes.map((h) => [h.pushId, h.progress.status, h.progress.cellsDone, h.progress.cellsTotal])).toEqual([[pushed.pushId, 'cancelled', 0, 2]]);
    expect(offered.imports.map((h) => [h.importId, h.kind, h.progress.status, h.progress.rowsDone, h.progress.rowsTotal])).toEqual([
      [imported.importId, 'profiles', 'running', 0, 2],
    ]);

    // Resumed from the offer, each runs to its end and is offered no more.
    let push = ok<AuditPushHandle>(rt.callServer('resumeAuditPush', [offered.pushes[0]!.pushId]));
    for (let i = 0; !push.report && i < 20; i++) push = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [push.pushId]));
    expect(push.report!.totals).toMatchObject({ failed: 0, pending: 0 });
    let job = ok<ImportHandle>(rt.callServer('resumeImport', [offered.imports[0]!.importId]));
    for (let i = 0; !job.report && i < 20; i++) job = ok<ImportHandle>(rt.callServer('continueImport', [job.importId]));
    expect(job.report!.totals).toMatchObject({ created: 2, failed: 0 });
    expect(unfinished(rt)).toEqual({ pushes: [], imports: [], builds: [], undos: [] });
    const after = await stack.emulator.control.state();
    expect(
      after.portfolio_company_profiles
        .filter((p) => ['Orion Labs', 'Vega Systems'].includes(p.name))
        .map((p) => p.currency)
        .sort(),
    ).toEqual(['CHF', 'EUR']);

    // Cancelled again, an unfinished job is offered for six hours and then no more.
    grid.cell(DEMO_IDS.profile(2), headquarters.id).setValue('Bergen');
    const later = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
    ok(rt.callServer('cancelAuditPush', [later.pushId]));
    rt.clock.advance(5 * 60 * 60 * 1000);
    expect(unfinished(rt).pushes.map((h) => h.pushId)).toEqual([later.pushId]);
    rt.clock.advance(60 * 60 * 1000 + 1000);
    expect(unfinished(rt)).toEqual({ pushes: [], imports: [], builds: [], undos: [] });
  });

  it('refuses a profile currency that is not an ISO 4217 code in use before sending, naming the cell', async () => {
    const rt = stack.runtime();
    const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
    sheet.getRange('B2:C4').setValues([
      ['Name', 'Currency'],
      ['Orion Labs', 'EUR'],
      ['Vega Systems', 'USS'],
    ]);
    await stack.emulator.control.clearRequests();
    let job = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: DEMO_IDS.fund, range: 'Sheet1!B2:C4' }]));
    for (let i = 0; !job.report && i < 20; i++) job = ok<ImportHandle>(rt.callServer('continueImport', [job.importId]));
    expect(job.report!.totals).toMatchObject({ created: 1, failed: 1 });
    expect(job.report!.problems).toEqual([
      expect.objectContaining({
        sheetRow: 4,
        outcome: 'failed',
        reason: 'the currency "USS" in C4 is not an ISO 4217 code in use: correct it to a current code, like USD, EUR or GBP',
      }),
    ]);
    const posts = (await stack.emulator.control.requests()).filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect((posts[0]!.body as { portfolio_company_profile: { name: string } }).portfolio_company_profile.name).toBe('Orion Labs');
  });
});

describe('ids from the page', () => {
  /** Anything JSON can carry where an id belongs, biased toward near-misses of a UUID and path tricks. */
  const notAnId = fc
    .oneof(
      fc.jsonValue(),
      fc.string(),
      fc.uuid().map((id) => `${id}x`),
      fc.uuid().map((id) => id.slice(1)),
      fc.uuid().map((id) => `${id}/../../companies`),
      fc.uuid().map((id) => `${id}?company_id=${DEMO_IDS.otherFund}`),
      fc.constantFrom('', ' ', '../', '%2e%2e%2f', 'null', '00000000-0000-0000-0000-00000000000g'),
    )
    .filter((value) => typeof value !== 'string' || !/^\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\s*$/i.test(value));

  it(`refuses every id that is not a UUID with a sentence, before any request reaches the API (seed ${PROPERTY_SEED})`, async () => {
    const rt = stack.runtime();
    rt.spreadsheet
      .getSheetByName('Sheet1')!
      .getRange('A1:B2')
      .setValues([
        ['Name', 'Currency'],
        ['Fuzz Co', 'EUR'],
      ]);
    await stack.emulator.control.clearRequests();
    const calls: Array<(id: unknown) => [string, unknown[]]> = [
      (id) => ['buildAudit', [id]],
      (id) => ['insertPortfolioNotes', [id]],
      (id) => ['listNoteTags', [id]],
      (id) => ['startImport', [{ kind: 'profiles', companyId: id, range: 'Sheet1!A1:B2' }]],
      (id) => ['continueAuditPush', [id]],
      (id) => ['cancelAuditPush', [id]],
      (id) => ['resumeImport', [id]],
      (id) => ['continueExport', [id]],
      (id) => ['cancelExport', [id]],
      (id) => ['resumeExport', [id]],
      (id) => ['continueImport', [id]],
      (id) => ['cancelImport', [id]],
      (id) => ['resumeAuditPush', [id]],
    ];
    fc.assert(
      fc.property(notAnId, fc.nat({ max: calls.length - 1 }), (id, which) => {
        const [name, args] = calls[which]!(id);
        const answer = rt.callServer(name, args) as { ok: boolean; error?: string };
        expect(answer.ok).toBe(false);
        // One or more sentences ending in a full stop, with nothing of the machinery in them.
        expect(answer.error).toMatch(/^[A-Z][^\n]*\.$/);
        expect(answer.error).not.toMatch(/TypeError|undefined|stack|at Object\./);
      }),
      // Counterexamples found earlier: a 300-character job id (CI, seed 1391949899, and this seed) reached a cache key
      // ("Argument too large: key"); an object whose toString is not a function threw.
      seeded<[unknown, number]>(120, [
        ['a'.repeat(300), 5],
        ['a'.repeat(300), 8],
        ['a'.repeat(300), 11],
        [[{ toString: '' }], 0],
      ]),
    );
    expect(await stack.emulator.control.requests()).toEqual([]);
  });
});
