// The API client over one shared requester: metrics, contacts and notes (a create and a list each) here, the
// data points and the investor product's endpoints in ./resources.

import { fetchAllPages, ownedList, withCompanyId } from './paginate';
import { DataPointsResource } from './resources/data-points';
import { PortfolioResource } from './resources/portfolio';
import { Requester, type RequesterOptions } from './requester';
import type { Contact, ContactInput, ContactList, Metric, MetricInput, Note, NoteInput, NoteTag } from './types';
import { requireUuid } from '../validate/uuid';

export class ApiClient {
  readonly metrics = {
    /** Every metric of a company or fund, all pages; with a profile id, only that portfolio company's (investor product). */
    list: (companyId: string, { portfolioCompanyProfileId: profileId }: { portfolioCompanyProfileId?: string } = {}): Metric[] => {
      const query = {
        company_id: requireUuid(companyId, 'The company id'),
        filter: profileId ? { portfolio_company_profile_id: requireUuid(profileId, 'The portfolio company profile id') } : undefined,
      };
      return fetchAllPages(this.requester, { key: 'metrics', request: { method: 'GET', path: '/metrics', query } });
    },
    /** Never retried blindly: a lost answer must not create the metric twice. */
    create: (input: MetricInput): Metric => this.requester.sendRecord('POST', '/metrics', 'metric', withCompanyId(input)),
  };

  readonly contacts = {
    /** A POST is never retried after a lost answer: it could create the contact twice. */
    create: (input: ContactInput): Contact => this.requester.sendRecord('POST', '/contacts', 'contact', withCompanyId(input)),
    listLists: (companyId: string): ContactList[] => fetchAllPages(this.requester, ownedList('contact_lists', 'company_id', companyId)),
  };

  readonly notes = {
    /** A note on contacts. The response's `content` may be null right after creation, as the live service does. */
    create: (input: NoteInput): Note =>
      this.requester.sendRecord('POST', '/notes', 'note', {
        ...input,
        contact_ids: input.contact_ids.map((id) => requireUuid(id, 'A contact id')),
        note_tag_id: input.note_tag_id === undefined ? undefined : requireUuid(input.note_tag_id, 'The note tag id'),
      }),
    listTags: (companyId: string): NoteTag[] => fetchAllPages(this.requester, ownedList('note_tags', 'company_id', companyId)),
  };

  readonly dataPoints = new DataPointsResource(this.requester);
  readonly portfolio = new PortfolioResource(this.requester);

  constructor(private readonly requester: Requester) {}

  /** The clock the client waits on (virtual in tests), so steps and their deadlines agree with it. */
  now(): number {
    return this.requester.now();
  }

  /** Time left before the deadline the client was created with (Infinity without one). */
  remainingMs(): number {
    return this.requester.remainingMs();
  }
}

export function createApiClient(options: RequesterOptions): ApiClient {
  return new ApiClient(new Requester(options));
}
