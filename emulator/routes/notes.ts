// POST /notes and GET /note_tags.

import { randomUUID } from 'node:crypto';
import { requireCompany } from '../access';
import { attributeInvalid } from '../errors';
import type { RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import type { NoteRecord } from '../records';
import { createdNoteJson, noteTagJson } from '../serializers';
import { byId } from '../store';

/** Registers createNote and listNoteTags. */
export function registerNoteRoutes(register: RegisterOperation): void {
  register('createNote', ({ body, user }, { store, clock }) => {
    const input = body.note;
    const contactIds = [...new Set(input.contact_ids)];
    const contacts = contactIds.map((id) => byId(store.state.contacts, id));
    const missing = contactIds.find((_, index) => contacts[index] === undefined);
    if (missing) throw attributeInvalid('contact_ids', `names no contact: ${missing}`);
    const companyIds = new Set(contacts.map((contact) => contact?.company_id));
    const [companyId] = companyIds;
    if (companyIds.size !== 1 || companyId === undefined) {
      throw attributeInvalid('contact_ids', 'must name contacts of one company');
    }
    requireCompany(store, user, companyId);
    const noteTagId = input.note_tag_id ?? null;
    if (noteTagId !== null && byId(store.state.note_tags, noteTagId)?.company_id !== companyId) {
      throw attributeInvalid('note_tag_id', `names no note tag of the contacts' company: ${noteTagId}`);
    }
    const note: NoteRecord = {
      id: randomUUID(),
      company_id: companyId,
      contact_ids: contactIds,
      note_tag_id: noteTagId,
      content: input.content,
      created_at: clock.isoNow(),
    };
    store.commit((state) => state.notes.push(note));
    return { status: 201, body: { note: createdNoteJson(note) } };
  });

  register('listNoteTags', ({ query, user }, { store }) => {
    requireCompany(store, user, query.company_id);
    const tags = store.state.note_tags.filter((tag) => tag.company_id === query.company_id);
    const { items, meta } = paginate(tags, query.page ?? 1, DEFAULT_PAGE_SIZE);
    return { status: 200, body: { note_tags: items.map(noteTagJson), meta } };
  });
}
