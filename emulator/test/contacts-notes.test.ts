// POST /contacts, GET /contact_lists, POST /notes and GET /note_tags, from the spec.

import { DEMO_IDS } from '../demo-data';
import type { RunningEmulator } from '../testing';
import { call, get, startConformanceEmulator } from './helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startConformanceEmulator();
});
afterAll(() => emulator.stop());
// Every test starts from the demo data: jest --randomize runs them in any order.
beforeEach(() => emulator.control.reset());

const fund = DEMO_IDS.fund;
const createContact = (contact: Record<string, unknown>) => call(emulator, 'POST', '/contacts', { body: { contact } });
const createNote = (note: Record<string, unknown>) => call(emulator, 'POST', '/notes', { body: { note } });

describe('POST /contacts', () => {
  it('creates a contact with nulls for the names it was not given', async () => {
    const answer = await createContact({ email: 'new.person@example.com', company_id: fund, contact_list_ids: [DEMO_IDS.contactList(1)] });
    expect(answer.status).toBe(201);
    expect(answer.body.contact).toEqual({
      id: expect.any(String),
      email: 'new.person@example.com',
      company_id: fund,
      first_name: null,
      last_name: null,
      title: null,
      contact_list_ids: [DEMO_IDS.contactList(1)],
    });
  });

  it('defaults contact_list_ids to an empty array', async () => {
    const answer = await createContact({ email: 'no.lists@example.com', company_id: fund, first_name: 'No', last_name: 'Lists', title: 'CEO' });
    expect(answer.body.contact).toEqual(expect.objectContaining({ first_name: 'No', last_name: 'Lists', title: 'CEO', contact_list_ids: [] }));
  });

  it('answers 422 on an invalid email', async () => {
    const answer = await createContact({ email: 'not-an-email', company_id: fund });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'email', message: 'must be an email address' }]);
  });

  it('answers 422 on an email already used in the company, whatever its case', async () => {
    const answer = await createContact({ email: 'Ada.Lovelace@Example.com', company_id: fund });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'email', message: 'has already been taken' }]);
  });

  it('accepts the same email in another company', async () => {
    const answer = await createContact({ email: 'ada.lovelace@example.com', company_id: DEMO_IDS.startup });
    expect(answer.status).toBe(201);
  });

  it('answers 422 for a contact list of another company', async () => {
    const answer = await createContact({ email: 'x1@example.com', company_id: fund, contact_list_ids: [DEMO_IDS.contactList(4)] });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].field).toBe('contact_list_ids');
  });

  it('answers 422 for an unknown attribute', async () => {
    const answer = await createContact({ email: 'x2@example.com', company_id: fund, phone: '123' });
    expect(answer.body.errors).toEqual([{ type: 'attribute_invalid', field: 'phone', message: 'is not a known attribute' }]);
  });
});

describe('GET /contact_lists', () => {
  it('lists the company contact lists with meta', async () => {
    const answer = await get(emulator, '/contact_lists', `company_id=${fund}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      contact_lists: [
        { id: DEMO_IDS.contactList(1), name: 'Limited partners', company_id: fund },
        { id: DEMO_IDS.contactList(2), name: 'Founders', company_id: fund },
        { id: DEMO_IDS.contactList(3), name: 'Board observers', company_id: fund },
      ],
      meta: { total: 3, total_pages: 1, page: 1 },
    });
  });
});

describe('POST /notes', () => {
  it('creates a note and answers content null, as the live service does, while keeping the content', async () => {
    const answer = await createNote({ content: 'Met at **the fair**.', contact_ids: [DEMO_IDS.contact(1)], note_tag_id: DEMO_IDS.noteTag(2) });
    expect(answer.status).toBe(201);
    expect(answer.body.note).toEqual({
      id: expect.any(String),
      contact_ids: [DEMO_IDS.contact(1)],
      note_tag_id: DEMO_IDS.noteTag(2),
      content: null,
      created_at: expect.any(String),
    });
    const state = await emulator.control.state();
    expect(state.notes.find((note) => note.id === answer.body.note.id)?.content).toBe('Met at **the fair**.');
  });

  it('answers 422 for a missing content, unknown contact or a tag of another company', async () => {
    const noContent = await createNote({ contact_ids: [DEMO_IDS.contact(1)] });
    expect(noContent.body.errors).toEqual([{ type: 'attribute_invalid', field: 'content', message: 'is required' }]);
    const unknown = await createNote({ content: 'x', contact_ids: ['99999999-0000-4000-8000-000000000000'] });
    expect(unknown.body.errors[0].field).toBe('contact_ids');
    const foreignTag = await createNote({ content: 'x', contact_ids: [DEMO_IDS.contact(1)], note_tag_id: DEMO_IDS.noteTag(4) });
    expect(foreignTag.status).toBe(422);
    expect(foreignTag.body.errors[0].field).toBe('note_tag_id');
    const empty = await createNote({ content: 'x', contact_ids: [] });
    expect(empty.body.errors[0].field).toBe('contact_ids');
  });

  it('answers 403 for contacts of a company the token cannot access', async () => {
    const answer = await createNote({ content: 'x', contact_ids: [DEMO_IDS.contact(11)] });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ errors: [{ type: 'forbidden' }] });
  });
});

describe('GET /note_tags', () => {
  it('lists the company note tags with meta', async () => {
    const answer = await get(emulator, '/note_tags', `company_id=${fund}`);
    expect(answer.body).toEqual({
      note_tags: [
        { id: DEMO_IDS.noteTag(1), name: 'Meeting', company_id: fund },
        { id: DEMO_IDS.noteTag(2), name: 'Call', company_id: fund },
        { id: DEMO_IDS.noteTag(3), name: 'Due diligence', company_id: fund },
      ],
      meta: { total: 3, total_pages: 1, page: 1 },
    });
  });

  it('requires company_id', async () => {
    expect((await get(emulator, '/note_tags')).status).toBe(400);
  });
});
