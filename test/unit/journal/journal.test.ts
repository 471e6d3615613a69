// The journal of a push and what Undo makes of it (src/core/journal), and a profile import's journal restored
// field by field against a scripted API: pure, no Apps Script.

import { fitValue, CELL_CHARACTERS } from '../../../src/core/jobs/push-log';
import { packEntries, pushJournals, splitText, targetKey, type JournalEntry, type JournalRecord, type PlacedRecord } from '../../../src/core/journal/journal';
import {
  BLANK_BEFORE_REASON,
  CREATED_REASON,
  IMPORT_CREATED_REASON,
  IMPORT_NOT_KEPT_REASON,
  INCOMPLETE_REASON,
  NOT_READ_REASON,
  planUndo,
} from '../../../src/core/journal/undo-plan';
import { prepareProfileUndo, runProfileUndoStep } from '../../../src/core/journal/profile-undo';
import { importEntries } from '../../../src/server/push-journal';
import { ACME, BETA, FUND, harness, profile, sentBodies } from '../directory/directory-fixtures';

const METRIC = '0a000000-0000-4000-8000-0000000000aa';

function point(date: string, written: string, replaced: string | null | undefined, outcome: JournalEntry['outcome'] = 'updated'): JournalEntry {
  return {
    target: { type: 'point', metricId: METRIC, metricName: 'Revenue', date },
    cell: `Sheet1!B${date.slice(-1)}`,
    written,
    ...(replaced !== undefined ? { replaced } : {}),
    outcome,
  };
}

function record(push: string, seq: number, entries: JournalEntry[], extra: Partial<JournalRecord> = {}): JournalRecord {
  return { v: 1, push, kind: 'Export', time: `2025-01-06T09:00:0${seq}Z`, seq, entries, ...extra };
}

const placed = (...records: JournalRecord[]): PlacedRecord[] => records.map((r, i) => ({ record: r, row: i + 2 }));

describe("a push's journal", () => {
  it("puts a push's parts together in order, across another push in between, newest activity first", () => {
    const journals = pushJournals(
      placed(
        record('a', 0, [point('2024-01-01', '11', '10')]),
        record('b', 0, [point('2024-01-02', '30', '21')]),
        record('a', 1, [point('2024-01-03', '31', '30')]),
      ),
    );
    expect(journals.map((j) => [j.push, j.entries.length, j.incomplete])).toEqual([
      ['a', 2, false],
      ['b', 1, false],
    ]);
    expect(journals[0]!.entries.map((e) => e.at)).toEqual([2, 4]);
  });

  it('counts a copied row once, and calls a push with a missing part incomplete: Undo restores nothing of it', () => {
    const first = record('a', 0, [point('2024-01-01', '11', '10')]);
    expect(pushJournals(placed(first, first))[0]!.entries).toHaveLength(1);
    const gap = pushJournals(placed(first, record('a', 2, [point('2024-01-03', '31', '30')])))[0]!;
    expect(gap.incomplete).toBe(true);
    const plan = planUndo(gap, []);
    expect(plan.restore).toEqual([]);
    expect(plan.notUndone.map((v) => v.reason)).toEqual([INCOMPLETE_REASON, INCOMPLETE_REASON]);
  });

  it('packs entries into records of a bounded size and splits text into cells without losing a character', () => {
    const long = 'x'.repeat(120_000);
    const entries = [point('2024-01-01', long, '1'), point('2024-01-02', '2', '1'), point('2024-01-03', '3', '1')];
    const packs = packEntries(entries, 1000);
    expect(packs.map((pack) => pack.length)).toEqual([1, 2]);
    const parts = splitText(JSON.stringify(packs[0]), 49_000);
    expect(parts.every((part) => part.length <= 49_000)).toBe(true);
    expect(JSON.parse(parts.join(''))).toEqual(packs[0]);
  });
});

describe('what Undo of a push restores', () => {
  it('restores replaced values, counts values sent unchanged as nothing to undo, and lists what it cannot undo', () => {
    const [push] = pushJournals(
      placed(
        record('a', 0, [
          point('2024-01-01', '11', '10'),
          point('2024-01-02', '20', '20.0', 'written'),
          point('2024-01-03', '30', undefined, 'created'),
          point('2024-01-04', '40', null),
          point('2024-01-05', '50', undefined, 'written'),
          point('2024-01-06', '60', '1', 'failed'),
        ]),
      ),
    );
    const plan = planUndo(push!, []);
    expect(plan.restore.map((e) => (e.target as { date: string }).date)).toEqual(['2024-01-01']);
    expect(plan).toMatchObject({ nothingToUndo: 1, storedCount: 5, heldBack: [] });
    expect(plan.notUndone.map((v) => [v.period, v.reason])).toEqual([
      ['2024-01-03', CREATED_REASON],
      ['2024-01-04', BLANK_BEFORE_REASON],
      ['2024-01-05', NOT_READ_REASON],
    ]);
  });

  it("holds back a value a later push wrote again, until that push's undo restored it", () => {
    const a = record('a', 0, [point('2024-01-01', '11', '10'), point('2024-01-02', '21', '20')]);
    const b = record('b', 0, [point('2024-01-01', '12', '11')]);
    let journals = pushJournals(placed(a, b));
    let plan = planUndo(
      journals.find((j) => j.push === 'a')!,
      journals.filter((j) => j.push !== 'a'),
    );
    expect(plan.restore).toHaveLength(1);
    expect(plan.heldBack.map(({ entry, by }) => [targetKey(entry.target), by.push])).toEqual([[`point/${METRIC}/2024-01-01`, 'b']]);
    // B undone (its value restored): A's value can be undone again.
    const undoB = record('u', 0, [{ ...point('2024-01-01', '11', '12'), outcome: 'updated' }], { kind: 'Undo', undoes: 'b' });
    journals = pushJournals(placed(a, b, undoB));
    plan = planUndo(
      journals.find((j) => j.push === 'a')!,
      journals.filter((j) => j.push !== 'a'),
    );
    expect(plan.restore).toHaveLength(2);
    expect(plan.heldBack).toEqual([]);
  });
});

describe("a profile import's journal", () => {
  const rows = (outcomes: Array<Record<string, unknown>>) => ({
    kind: 'profiles' as const,
    request: { companyId: FUND },
    sheetName: 'Sheet1',
    state: { origin: { row: 1, column: 1 }, rows: outcomes as never },
  });

  it('keeps each field an update replaced, and a created profile as created (never "delete" a profile that existed)', () => {
    const before = rows([
      { row: 2, name: 'Acme Robotics', outcome: 'pending', profileId: ACME },
      { row: 3, name: 'Beta Bio', outcome: 'pending', profileId: BETA, body: { name: 'Beta Bio', company_id: FUND, currency: 'CHF' } },
      { row: 4, name: 'New Co', outcome: 'pending' },
    ]);
    const after = rows([
      {
        row: 2,
        name: 'Acme Robotics',
        outcome: 'updated',
        profileId: ACME,
        replaced: { website_url: 'https://acme.example', currency: 'USD' },
        written: { website_url: 'https://new.example', currency: 'GBP' },
      },
      // An import that did not keep the values it replaced: said so, not restored.
      { row: 3, name: 'Beta Bio', outcome: 'updated', profileId: BETA },
      { row: 4, name: 'New Co', outcome: 'created', profileId: '0b000000-0000-4000-8000-000000000001' },
    ]);
    const entries = importEntries(before, after);
    const [push] = pushJournals(placed(record('i', 0, entries, { kind: 'Import profiles', companyId: FUND })));
    const plan = planUndo(push!, []);
    expect(plan.restore.map((e) => [(e.target as { field: string }).field, e.writtenField, e.replacedField])).toEqual([
      ['website_url', 'https://new.example', 'https://acme.example'],
      ['currency', 'GBP', 'USD'],
    ]);
    expect(plan.notUndone.map((v) => [v.what, v.reason])).toEqual([
      ['Beta Bio › ', IMPORT_NOT_KEPT_REASON],
      ['New Co', IMPORT_CREATED_REASON],
    ]);
    expect(IMPORT_NOT_KEPT_REASON).toMatch(/do not delete it/);
  });

  it('restores the fields with one PUT per profile, read first: a field changed since is a conflict, kept', () => {
    const state = prepareProfileUndo(FUND, [
      { profileId: ACME, profileName: 'Acme Robotics', field: 'website_url', cell: 'Sheet1!A2', written: 'https://new.example', value: 'https://acme.example' },
      { profileId: ACME, profileName: 'Acme Robotics', field: 'currency', cell: 'Sheet1!A2', written: 'GBP', value: 'USD' },
    ]);
    const now = profile({ id: ACME, name: 'Acme Robotics', website_url: 'https://new.example', currency: 'JPY' });
    const { client, transport, deadline } = harness([
      {
        match: 'GET /portfolio_company_profiles',
        prefix: true,
        reply: { status: 200, body: { portfolio_company_profiles: [now], meta: { current_page: 1, total_pages: 1, total_count: 1, per_page: 100 } } },
      },
      {
        match: `PUT /portfolio_company_profiles/${ACME}`,
        reply: { status: 200, body: { portfolio_company_profile: { ...now, website_url: 'https://acme.example' } } },
      },
    ]);
    const { state: after } = runProfileUndoStep(state, client, { deadline, marginMs: 1000 });
    expect(after.items.map((item) => [item.field, item.outcome, item.server ?? null])).toEqual([
      ['website_url', 'updated', null],
      ['currency', 'conflict', 'JPY'],
    ]);
    expect(after.status).toBe('done');
    expect(sentBodies(transport, 'PUT')).toEqual([
      {
        path: `/portfolio_company_profiles/${ACME}`,
        body: { portfolio_company_profile: { name: 'Acme Robotics', company_id: FUND, website_url: 'https://acme.example' } },
      },
    ]);
  });
});

it('shows a value longer than a cell holds by its beginning, and says the journal has it whole', () => {
  expect(fitValue('short', 'p', 'J')).toBe('short');
  const shown = fitValue('y'.repeat(70_000), '1234', 'Portfolio Metrics journal')!;
  expect(shown.length).toBeLessThanOrEqual(CELL_CHARACTERS);
  expect(shown).toMatch(
    /^y+ … \[70,000 characters in all: longer than a cell holds\. The whole value is in the journal of Push 1234, the hidden sheet "Portfolio Metrics journal"\.\]$/,
  );
});
