// Id checks on what the resources send, apart from pagination: a bad id is refused before any request.

import { requireUuid } from '../../validate/uuid';

/** The input with its company id checked. */
export function withCompanyId<T extends { company_id: string }>(input: T): T {
  return { ...input, company_id: requireUuid(input.company_id, 'The company id') };
}
