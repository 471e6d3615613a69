// POST /notes and GET /note_tags.

import { fetchAllPages } from '../paginate';
import type { Requester } from '../requester';
import type { Note, NoteInput, NoteTag } from '../types';
import { requireUuid } from '../../validate/uuid';

export class NotesResource {
  constructor(private readonly requester: Requester) {}

  /** Creates a note on contacts. The response's `content` may be null right after creation, as the live service does. */
  create(input: NoteInput): Note {
    const note = {
      ...input,
      contact_ids: input.contact_ids.map((id) => requireUuid(id, 'A contact id')),
      note_tag_id: input.note_tag_id === undefined ? undefined : requireUuid(input.note_tag_id, 'The note tag id'),
    };
    return this.requester.send<{ note: Note }>({ method: 'POST', path: '/notes', body: { note } }).data.note;
  }

  listTags(companyId: string): NoteTag[] {
    return fetchAllPages<NoteTag>(this.requester, {
      method: 'GET',
      path: '/note_tags',
      query: { company_id: requireUuid(companyId, 'The company id') },
    }, 'note_tags');
  }
}
