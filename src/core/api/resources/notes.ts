// POST /notes and GET /note_tags.

import { fetchAllPages, ownedList } from '../paginate';
import type { Requester } from '../requester';
import type { Note, NoteInput, NoteTag } from '../types';
import { requireUuid } from '../../validate/uuid';

export class NotesResource {
  constructor(private readonly requester: Requester) {}

  /** Creates a note on contacts. The response's `content` may be null right after creation, as the live service does. */
  create(input: NoteInput): Note {
    return this.requester.sendRecord('POST', '/notes', 'note', {
      ...input,
      contact_ids: input.contact_ids.map((id) => requireUuid(id, 'A contact id')),
      note_tag_id: input.note_tag_id === undefined ? undefined : requireUuid(input.note_tag_id, 'The note tag id'),
    });
  }

  listTags(companyId: string): NoteTag[] {
    return fetchAllPages(this.requester, ownedList('note_tags', 'company_id', companyId));
  }
}
