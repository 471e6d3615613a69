// POST /contacts and GET /contact_lists.

import { randomUUID } from 'node:crypto';
import { requireCompany } from '../access';
import { attributeInvalid } from '../errors';
import type { RegisterOperation } from '../operation';
import { DEFAULT_PAGE_SIZE, paginate } from '../pagination';
import type { ContactRecord } from '../records';
import { contactJson, contactListJson } from '../serializers';

/** Registers createContact and listContactLists. */
export function registerContactRoutes(register: RegisterOperation): void {
  register('createContact', ({ body, user }, { store }) => {
    const input = body.contact;
    requireCompany(store, user, input.company_id);
    const email = input.email.toLowerCase();
    const taken = store.state.contacts.some((contact) => contact.company_id === input.company_id && contact.email.toLowerCase() === email);
    if (taken) throw attributeInvalid('email', 'has already been taken');
    const listIds = [...new Set(input.contact_list_ids ?? [])];
    const unknownList = listIds.find((id) => !store.state.contact_lists.some((list) => list.id === id && list.company_id === input.company_id));
    if (unknownList) throw attributeInvalid('contact_list_ids', `names no contact list of this company: ${unknownList}`);

    const contact: ContactRecord = {
      id: randomUUID(),
      company_id: input.company_id,
      email: input.email,
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      title: input.title ?? null,
      contact_list_ids: listIds,
    };
    store.commit((state) => state.contacts.push(contact));
    return { status: 201, body: { contact: contactJson(contact) } };
  });

  register('listContactLists', ({ query, user }, { store }) => {
    requireCompany(store, user, query.company_id);
    const lists = store.state.contact_lists.filter((list) => list.company_id === query.company_id);
    const { items, meta } = paginate(lists, query.page ?? 1, DEFAULT_PAGE_SIZE);
    return { status: 200, body: { contact_lists: items.map(contactListJson), meta } };
  });
}
