// POST /contacts and GET /contact_lists.

import { fetchAllPages, ownedList } from '../paginate';
import { withCompanyId } from './ids';
import type { Requester } from '../requester';
import type { Contact, ContactInput, ContactList } from '../types';

export class ContactsResource {
  constructor(private readonly requester: Requester) {}

  /** Creates a contact. A POST is never retried after a lost answer: it could create the contact twice. */
  create(input: ContactInput): Contact {
    return this.requester.sendRecord('POST', '/contacts', 'contact', withCompanyId(input));
  }

  listLists(companyId: string): ContactList[] {
    return fetchAllPages(this.requester, ownedList('contact_lists', 'company_id', companyId));
  }
}
