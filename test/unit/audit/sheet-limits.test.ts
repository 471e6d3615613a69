// Sheets' limits in the audit: dropdowns over 500 labels read a range, values over 50,000 characters are cut, marked, reported and never pushed.

import { buildAuditPushReport } from '../../../src/core/audit/push-report';
import { buildAuditModel } from '../../../src/core/audit/build-audit';
import { CELL_MAX_CHARACTERS, fitCell, isCutText } from '../../../src/core/audit/sheet-limits';
import { parseSnapshot, serializeSnapshot } from '../../../src/core/audit/snapshot';
import type { AuditData } from '../../../src/core/audit/types';
import { CUT_VALUE_REASON } from '../../../src/core/audit/write-back';
import { edit, fundData, fundSchema, preparePush, PROFILE, PROPERTY, readBack, TZ } from './audit-fixtures';

function withOptions(count: number): AuditData {
  const data = fundData();
  data.options[PROPERTY.sector] = Array.from({ length: count }, (_, i) => ({
    id: `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
    label: `Sector ${i}`,
  }));
  return data;
}

function withMemoOf(length: number): AuditData {
  const data = fundData();
  // Non-ASCII text with a pair of surrogates right at the cut, so the cut must step back one unit.
  const text = `${'é'.repeat(length - 2)}😀`;
  data.values[PROFILE.aurora]![PROPERTY.memo] = { value: text, optionIds: [] };
  return data;
}

describe('select properties with many options', () => {
  it.each([
    [500, 'list'],
    [501, 'listFromRange'],
    [600, 'listFromRange'],
  ])('with %i labels get a %s rule holding every label', (count, kind) => {
    const model = buildAuditModel(withOptions(count), { timeZone: TZ });
    const rule = model.summary.formatting.validations.find((v) => v.kind !== 'checkbox' && v.propertyId === PROPERTY.sector)!;
    expect(rule.kind).toBe(kind);
    expect(rule.kind !== 'checkbox' && rule.labels).toEqual(Array.from({ length: count }, (_, i) => `Sector ${i}`));
  });
});

describe('values longer than a cell holds', () => {
  it('fit 50,000 characters exactly, unchanged', () => {
    expect(fitCell('x'.repeat(CELL_MAX_CHARACTERS))).toEqual({ text: 'x'.repeat(CELL_MAX_CHARACTERS), cut: false });
  });

  it.each([0, 1])('never leave half a surrogate pair at the cut (text offset by %i)', (offset) => {
    const { text, cut } = fitCell(`${'a'.repeat(offset)}${'😀'.repeat(30_000)}`);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(CELL_MAX_CHARACTERS);
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('are cut to 50,000 characters at most with a mark naming the full length, never inside a surrogate pair', () => {
    const model = buildAuditModel(withMemoOf(60_000), { timeZone: TZ });
    const row = model.values.findIndex((line) => line[0] === PROFILE.aurora);
    const column = model.values[0]!.indexOf(PROPERTY.memo);
    const shown = model.values[row]![column] as string;
    expect(shown.length).toBeLessThanOrEqual(CELL_MAX_CHARACTERS);
    expect(shown).toMatch(/^é+… \[cut: 60000 characters in all; edit this value in the app\]$/);
    expect(isCutText(shown)).toBe(true);
    expect(model.summary.cut).toEqual([
      {
        profileId: PROFILE.aurora,
        name: 'Aurora Robotics',
        propertyId: PROPERTY.memo,
        propertyName: 'Investment memo',
        row: row + 1,
        column: column + 1,
        length: 60_000,
      },
    ]);
    expect(parseSnapshot(serializeSnapshot(model.snapshot)).cut).toEqual([`${PROFILE.aurora}/${PROPERTY.memo}`]);
  });

  it('are not pushed: unchanged they are unchanged, edited (with or without the mark) they are skipped with the reason', () => {
    const model = buildAuditModel(withMemoOf(60_000), { timeZone: TZ });
    const schema = fundSchema();
    expect(preparePush(readBack(model.values), model, schema).items).toEqual([]);

    for (const typed of ['Shorter text… [cut: 60000 characters in all; edit this value in the app]', 'the mark removed']) {
      const sheet = readBack(model.values);
      edit(sheet, PROFILE.aurora, PROPERTY.memo, typed);
      edit(sheet, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
      const state = preparePush(sheet, model, schema);
      const report = buildAuditPushReport(state);
      expect(report.items.map((item) => [item.propertyName, item.outcome, item.outcome === 'skipped' ? item.reason : null])).toEqual([
        ['Headquarters', 'pending', null],
        ['Investment memo', 'skipped', CUT_VALUE_REASON],
      ]);
    }
  });

  it('pasted elsewhere with the mark are not pushed either', () => {
    const model = buildAuditModel(withMemoOf(60_000), { timeZone: TZ });
    const sheet = readBack(model.values);
    const shown = sheet.find((line) => line[0] === PROFILE.aurora)![sheet[0]!.indexOf(PROPERTY.memo)];
    edit(sheet, PROFILE.bluebird, PROPERTY.memo, shown);
    const report = buildAuditPushReport(preparePush(sheet, model, fundSchema()));
    expect(report.items.map((item) => [item.outcome, item.reason])).toEqual([['skipped', CUT_VALUE_REASON]]);
  });
});
