// POST /contacts and GET /contact_lists.

import { fetchAllPages } from '../paginate';
import type { Requester } from '../requester';
import type { Contact, ContactInput, ContactList } from '../types';
import { requireUuid } from '../../validate/uuid';

export class ContactsResource {
  constructor(private readonly requester: Requester) {}

  /** Creates a contact. A POST is never retried after a lost answer: it could create the contact twice. */
  create(input: ContactInput): Contact {
    const contact = { ...input, company_id: requireUuid(input.company_id, 'The company id') };
    return this.requester.send<{ contact: Contact }>({ method: 'POST', path: '/contacts', body: { contact } }).data.contact;
  }

  listLists(companyId: string): ContactList[] {
    return fetchAllPages<ContactList>(this.requester, {
      method: 'GET',
      path: '/contact_lists',
      query: { company_id: requireUuid(companyId, 'The company id') },
    }, 'contact_lists');
  }
}
