// A note for the contacts selected in a sheet: one POST /notes, content null in the answer is no failure.

import { findContactHeader, findContactIdColumn, planContactNote, sendContactNote, type ContactIdCell } from '../../../src/core/directory/contact-notes';
import type { Reply, Step } from '../../support/scripted-transport';
import { errorReply, harness, NEW_IDS, TAG } from './directory-fixtures';

const [ANN, BOB, CY] = [NEW_IDS[0]!, NEW_IDS[1]!, NEW_IDS[2]!];
const NOTE_ID = '0f100000-0000-4000-8000-000000000001';

function cells(...values: unknown[]): ContactIdCell[] {
  return values.map((cell, i) => ({ sheetRow: 4 + i, cell }));
}

/** The live service answers a new note with content null. */
const createdNote = (contactIds: string[]): Reply => ({
  status: 201,
  body: { note: { id: NOTE_ID, contact_ids: contactIds, note_tag_id: TAG, content: null, created_at: '2025-01-06T09:00:00Z' } },
});
const postNote = (reply: Reply): Step => ({ match: 'POST /notes', reply });

describe('a note to selected contacts', () => {
  it('sends one POST with the content as typed, the contacts once each, and the tag, and counts a null content in the answer as created', () => {
    const content = '## Q3 call\n\n- renewed *term sheet*\n';
    const plan = planContactNote({ content, noteTagId: TAG.toUpperCase() }, cells(ANN, ` ${BOB.toUpperCase()} `, ANN, CY));
    expect(plan.problems).toEqual([]);
    expect(plan.rows.map((row) => [row.sheetRow, row.outcome, row.reason])).toEqual([
      [4, 'included', null],
      [5, 'included', null],
      [6, 'duplicate', 'same contact as row 4'],
      [7, 'included', null],
    ]);
    expect(plan.summary).toBe('The note goes to 3 contacts.');

    const { client, transport } = harness([postNote(createdNote([ANN, BOB, CY]))]);
    const report = sendContactNote(plan, client);
    transport.assertDone();
    expect(JSON.parse(transport.sent[0]!.body ?? '')).toEqual({ note: { content, contact_ids: [ANN, BOB, CY], note_tag_id: TAG } });
    expect(report).toMatchObject({ outcome: 'created', noteId: NOTE_ID, contactCount: 3, reason: null, summary: 'Note added to 3 contacts.' });
  });

  it('leaves the tag out when none is chosen', () => {
    const plan = planContactNote({ content: 'Met at the AGM.', noteTagId: '' }, cells(ANN));
    expect(plan.body).toEqual({ content: 'Met at the AGM.', contact_ids: [ANN] });
  });

  it('refuses empty content and a tag that is not an id, and sends nothing', () => {
    const plan = planContactNote({ content: '  \n ', noteTagId: 'urgent' }, cells(ANN));
    expect(plan.body).toBeNull();
    expect(plan.problems).toEqual(['The note is empty: write its content.', 'The note tag "urgent" is not a note tag id: choose a tag in the list, or none.']);
    const { client, transport } = harness([]);
    expect(sendContactNote(plan, client)).toMatchObject({ outcome: 'not_sent', noteId: null });
    expect(transport.sent).toHaveLength(0);
  });

  it('refuses rows without a usable contact id, with reasons, unless told to send to the others only', () => {
    const selected = cells(ANN, '', 'check: may have been created', 'Ann Lee');
    const strict = planContactNote({ content: 'Hello' }, selected);
    expect(strict.body).toBeNull();
    expect(strict.rows.map((row) => row.reason)).toEqual([
      null,
      'no contact id in this row: create the contact first (the contact import writes its id)',
      'the id cell says "check: may have been created": look the contact up in the app and paste its id first',
      'the id cell holds "Ann Lee", which is not a contact id',
    ]);
    expect(strict.problems).toEqual(['3 selected rows have no usable contact id (rows 5, 6 and 7): fix them, or send the note to the other 1 contact only.']);

    const lenient = planContactNote({ content: 'Hello', skipRowsWithoutId: true }, selected);
    expect(lenient.body).toEqual({ content: 'Hello', contact_ids: [ANN] });
    expect(lenient.summary).toBe('The note goes to 1 contact (3 selected rows are skipped: no contact id).');
  });

  it('refuses a selection with no contact id at all', () => {
    expect(planContactNote({ content: 'Hello', skipRowsWithoutId: true }, cells('', '')).problems).toEqual([
      'None of the selected rows has a contact id (rows 4 and 5).',
    ]);
    expect(planContactNote({ content: 'Hello' }, []).problems).toEqual(['No rows are selected: select the rows of the contacts the note is for.']);
  });

  it("reports the API's refusal in its words", () => {
    const { client } = harness([postNote(errorReply(422, 'attribute_invalid', 'contact_ids', 'must name contacts of one company'))]);
    const report = sendContactNote(planContactNote({ content: 'Hello' }, cells(ANN)), client);
    expect(report).toMatchObject({ outcome: 'failed', reason: 'the API refused it: contact_ids must name contacts of one company (HTTP 422)' });
  });

  it('never repeats a POST that lost its connection, and says the note may exist', () => {
    const { client, transport } = harness([postNote('network-error')]);
    const report = sendContactNote(planContactNote({ content: 'Hello' }, cells(ANN, BOB)), client);
    expect(transport.sent).toHaveLength(1);
    expect(report.outcome).toBe('unknown');
    expect(report.summary).toBe(
      "Could not reach the API at api.test. Check the base URL in the add-in's settings and try again. The note may have been added: look at one of the contacts in the app before sending it again.",
    );
  });

  it('finds the contact id column of a sheet by its header', () => {
    expect(findContactIdColumn(['Email', 'First name', 'Contact id', 'Import status'])).toBe(3);
    expect(findContactIdColumn(['ID', 'Email'])).toBe(1);
    expect(findContactIdColumn(['Email'])).toBeNull();
  });

  describe('the header row of the selected contacts', () => {
    // A contacts table pasted at row 5 (B5:D8), below notes of the user's own and a blank row 4.
    const sheet: unknown[][] = [
      ['Board contacts', '', '', ''],
      ['Id', 'owned by the fund team', '', ''],
      ['', 'updated weekly', '', ''],
      ['', '', '', ''],
      ['', 'Email', 'Name', 'Contact id'],
      ['', 'ann@example.com', 'Ann', ANN],
      ['', 'bob@example.com', 'Bob', BOB],
      ['', 'cy@example.com', 'Cy', CY],
    ];
    const upTo = (row: number) => sheet.slice(0, row);

    it("is the selection's first row when it is the header", () => {
      expect(findContactHeader(upTo(5))).toEqual({ headerRow: 5, column: 4 });
    });

    it('is the header row of the table holding the selection, wherever it starts', () => {
      expect(findContactHeader(upTo(7))).toEqual({ headerRow: 5, column: 4 });
      expect(findContactHeader(upTo(6))).toEqual({ headerRow: 5, column: 4 });
    });

    it('is never a header above the empty row that ends the table, and the error says where the table starts', () => {
      // The same sheet with no "Contact id" in the table: row 2's "Id" belongs to the notes above row 4.
      const withoutIds = sheet.map((row, i) => (i === 4 ? ['', 'Email', 'Name', 'Phone'] : row));
      expect(() => findContactHeader(withoutIds.slice(0, 7))).toThrow(
        'There is no "Contact id" column in the first row of the table holding the selection (row 5): select rows of a contacts table whose header row has "Contact id" (the contact import adds it), or add the column.',
      );
      expect(() => findContactHeader(withoutIds.slice(0, 5))).toThrow('There is no "Contact id" column in the selection\'s first row (row 5)');
      expect(() => findContactHeader([['Email'], ['ann@example.com']])).toThrow('in the first row of the table holding the selection (row 1)');
      expect(() => findContactHeader(upTo(4))).toThrow('Row 4, where the selection starts, is empty');
    });
  });
});
