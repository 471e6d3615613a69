// What a push plans: only changed cells, each in the form its property's type demands, or refused with a reason before anything is sent.

import { buildAuditPushReport } from '../../../src/core/audit/push-report';
import { readAuditSheet } from '../../../src/core/audit/read-sheet';
import type { AuditPushState } from '../../../src/core/audit/types';
import { AUTO_CALCULATED_REASON, NOT_IN_AUDIT_REASON, prepareAuditPush } from '../../../src/core/audit/write-back';
import { midnightIn } from '../../../src/core/sheets/time-zone';
import { edit, FUND, fundModel, fundSchema, OPTION, preparePush, PROFILE, PROPERTY, readBack, TZ } from './audit-fixtures';

const model = fundModel();
const schema = fundSchema();

function sheet(): unknown[][] {
  return readBack(model.values);
}

/** Each changed cell as [cell, outcome, write or reason]. */
function plan(state: AuditPushState): Array<[string, string, unknown]> {
  return buildAuditPushReport(state).items.map((item, index) => [item.cell, item.outcome, state.items[index]!.write ?? item.reason]);
}

describe('planning a push', () => {
  it('finds nothing to send in a sheet read back as it was written, even sorted', () => {
    const values = sheet();
    const sorted = [...values.slice(0, 2), ...values.slice(2, 5).reverse(), ...values.slice(5)];
    for (const read of [values, sorted]) {
      const state = preparePush(read, model, schema);
      expect(state).toMatchObject({ status: 'done', cellsCompared: 30, unchanged: 30, items: [] });
      expect(buildAuditPushReport(state).summary).toBe('30 cells compared: nothing changed, so nothing was sent.');
    }
  });

  it('puts every edited cell in the form its property type demands', () => {
    const values = sheet();
    edit(values, PROFILE.aurora, PROPERTY.sector, 'healthcare');
    edit(values, PROFILE.aurora, PROPERTY.tags, 'ai, Hardware, IoT , b2b');
    edit(values, PROFILE.aurora, PROPERTY.headquarters, 'Munich');
    edit(values, PROFILE.bluebird, PROPERTY.employees, 1250.5);
    edit(values, PROFILE.bluebird, PROPERTY.pitchDeck, ' https://bluebird.example.com/deck ');
    edit(values, PROFILE.bluebird, PROPERTY.memo, 'Second fund: follow-on.');
    edit(values, PROFILE.cobalt, PROPERTY.founded, midnightIn('2016-07-04', TZ));
    edit(values, PROFILE.cobalt, PROPERTY.boardSeat, true);
    edit(values, PROFILE.cobalt, PROPERTY.employees, '12345678901234567890.25');

    expect(plan(preparePush(values, model, schema))).toEqual([
      ['C3', 'pending', { portfolio_property_option_id: OPTION.healthcare }],
      // Labels are matched in any case, the longest first, so a label with a comma stays whole; ids go in option order.
      ['D3', 'pending', { portfolio_property_option_ids: [OPTION.b2b, OPTION.hardwareIot, OPTION.ai] }],
      ['H3', 'pending', { value: 'Munich' }],
      ['E4', 'pending', { value: '1250.5' }],
      ['I4', 'pending', { value: 'https://bluebird.example.com/deck' }],
      ['J4', 'pending', { value: 'Second fund: follow-on.' }],
      // Text a double cannot hold is sent exactly as written.
      ['E5', 'pending', { value: '12345678901234567890.25' }],
      // A date cell is the day it shows in the spreadsheet's time zone.
      ['F5', 'pending', { value: '2016-07-04' }],
      ['G5', 'pending', { value: 'true' }],
    ]);
  });

  it('clears a value when its cell is made blank: "" for values, null for a select, [] for a multiselect', () => {
    const values = sheet();
    edit(values, PROFILE.aurora, PROPERTY.sector, '');
    edit(values, PROFILE.aurora, PROPERTY.tags, '');
    edit(values, PROFILE.aurora, PROPERTY.employees, '');
    edit(values, PROFILE.aurora, PROPERTY.founded, '   ');
    edit(values, PROFILE.bluebird, PROPERTY.boardSeat, '');
    expect(plan(preparePush(values, model, schema))).toEqual([
      ['C3', 'pending', { portfolio_property_option_id: null }],
      ['D3', 'pending', { portfolio_property_option_ids: [] }],
      ['E3', 'pending', { value: '' }],
      ['F3', 'pending', { value: '' }],
      ['G4', 'pending', { value: '' }],
    ]);
  });

  it('reports an unknown label with the labels that exist', () => {
    const values = sheet();
    edit(values, PROFILE.cobalt, PROPERTY.sector, 'Fintec');
    edit(values, PROFILE.cobalt, PROPERTY.tags, 'B2B, Robots, Hardware, IoT, Drones');
    expect(plan(preparePush(values, model, schema))).toEqual([
      ['C5', 'failed', 'unknown label "Fintec": the labels of Sector are "Fintech", "Healthcare" and "Energy"'],
      ['D5', 'failed', 'unknown labels "Robots" and "Drones": the labels of Tags are "B2B", "SaaS", "Hardware, IoT", "Hardware" and "AI"'],
    ]);
  });

  it('skips an edit of an auto-calculated property, with the reason', () => {
    const values = sheet();
    edit(values, PROFILE.aurora, PROPERTY.moic, 3);
    edit(values, PROFILE.bluebird, PROPERTY.initialInvestment, midnightIn('2020-01-01', TZ));
    const state = preparePush(values, model, schema);
    expect(plan(state)).toEqual([
      ['K3', 'skipped', AUTO_CALCULATED_REASON],
      ['L4', 'skipped', AUTO_CALCULATED_REASON],
    ]);
    expect(state.status).toBe('done');
  });

  it('refuses invalid numbers, dates, booleans and URLs before anything is sent', () => {
    const values = sheet();
    edit(values, PROFILE.aurora, PROPERTY.employees, '1,234');
    edit(values, PROFILE.aurora, PROPERTY.founded, 'next week');
    edit(values, PROFILE.aurora, PROPERTY.boardSeat, 'yes');
    edit(values, PROFILE.aurora, PROPERTY.pitchDeck, 'bluebird.com/deck');
    edit(values, PROFILE.bluebird, PROPERTY.employees, '#N/A');
    const state = preparePush(values, model, schema);
    expect(plan(state)).toEqual([
      ['E3', 'failed', 'the cell must be a number or decimal text like 1234.5, but it is "1,234"'],
      ['F3', 'failed', 'the cell must be a date cell or text like 2024-01-31, but it is "next week"'],
      ['G3', 'failed', 'the cell must be a checkbox (TRUE or FALSE), but it is "yes"'],
      ['I3', 'failed', 'the cell must be a web address starting with http:// or https://, but it is "bluebird.com/deck"'],
      ['E4', 'failed', 'the cell shows the error #N/A'],
    ]);
    expect(state.status).toBe('done');
  });

  it('never sends what a text cell shows while a formula errs or calculates', () => {
    const values = sheet();
    edit(values, PROFILE.aurora, PROPERTY.headquarters, '#REF!');
    edit(values, PROFILE.aurora, PROPERTY.memo, 'Loading…');
    const state = preparePush(values, model, schema);
    expect(plan(state)).toEqual([
      ['H3', 'failed', 'the cell shows the error #REF!'],
      ['J3', 'failed', 'the cell shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again'],
    ]);
  });

  it('counts a cell written another way but storing the same thing as unchanged', () => {
    const values = sheet();
    edit(values, PROFILE.aurora, PROPERTY.sector, ' FINTECH ');
    edit(values, PROFILE.aurora, PROPERTY.tags, 'saas,b2b');
    edit(values, PROFILE.aurora, PROPERTY.employees, '120.00');
    edit(values, PROFILE.aurora, PROPERTY.founded, '2015-03-01');
    edit(values, PROFILE.aurora, PROPERTY.boardSeat, 'TRUE');
    const state = preparePush(values, model, schema);
    expect(state).toMatchObject({ cellsCompared: 30, unchanged: 30, items: [] });
  });

  it('fails copies of one company that disagree, and ignores rows without a profile id', () => {
    const values = sheet();
    const copy = [...values[2]!];
    copy[2] = 'Energy';
    const newCompany = values[2]!.map((cell, i) => (i === 0 ? '' : cell));
    const withCopies = [...values.slice(0, 5), copy, newCompany, ...values.slice(5)];
    const state = preparePush(withCopies, model, schema);
    expect(plan(state)).toEqual([['C3', 'failed', 'the same company and property appear in C3 and C6 with different values: keep one']]);
    expect(state.cellsCompared).toBe(30);
    const report = buildAuditPushReport(state);
    expect(report.notes).toEqual(['Row 7 has no profile id, so it was not compared: the audit updates existing companies and does not create profiles.']);
  });

  it('skips a company the audit did not have when it was built', () => {
    const values = sheet();
    const stranger = values[2]!.map((cell, i) => (i === 0 ? 'b0000000-0000-4000-8000-000000000099' : cell));
    stranger[3] = '';
    const state = preparePush([...values.slice(0, 5), stranger, ...values.slice(5)], model, schema);
    expect(plan(state).map(([cell, outcome, reason]) => [cell, outcome, reason])).toContainEqual(['C6', 'skipped', NOT_IN_AUDIT_REASON]);
    // Its blank cells are not edits.
    expect(state.items.some((item) => item.row === 6 && item.column === 4)).toBe(false);
  });

  it('refuses to compare the audit of one fund with the snapshot of another', () => {
    const other = { ...model.snapshot, companyId: 'c0000000-0000-4000-8000-000000000003' };
    expect(() => prepareAuditPush({ read: readAuditSheet(sheet(), FUND), snapshot: other, schema, timeZone: TZ })).toThrow('belongs to another fund');
    expect(model.snapshot.companyId).toBe(FUND);
  });
});
