// The API client: each resource's requests over one shared requester; the investor product's are in ./resources.

import { InputError } from '../errors';
import { fetchAllPages, ownedList, readLists, withCompanyId, type ListRead, type PageOptions } from './paginate';
import { fillPath } from './query';
import { PortfolioResource } from './resources/portfolio';
import { Requester, type ApiRequest, type RequesterOptions, type Settled } from './requester';
import {
  MAX_UPSERT_ITEMS,
  type Contact,
  type ContactInput,
  type ContactList,
  type DataPoint,
  type DataPointInput,
  type Metric,
  type MetricInput,
  type Note,
  type NoteInput,
  type NoteTag,
} from './types';
import { isIsoDate } from '../validate/dates';
import { requireUuid } from '../validate/uuid';

/** GET /data_points pages hold at most this many points. */
const PAGE_SIZE = 100;
/** Metric ids per request, read together: each costs about 55 characters, and Apps Script refuses URLs over 2 kB. */
const IDS_PER_REQUEST = 20;

interface ListDataPointsOptions extends PageOptions {
  startDate?: string;
  endDate?: string;
  excludeBlank?: boolean;
  includeSource?: boolean;
}

export class ApiClient {
  readonly metrics = {
    /** All pages; with a profile id, only that portfolio company's metrics (investor product). */
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

  readonly dataPoints = {
    /** The metrics' points in the range, in the API's order (the live service sends newest first): callers sort. */
    list: (metricIds: string | readonly string[], options: ListDataPointsOptions = {}): DataPoint[] => {
      const ids = (typeof metricIds === 'string' ? [metricIds] : metricIds).map((id) => requireUuid(id, 'The metric id'));
      if (ids.length === 0) throw new InputError('No metric id was given.');
      for (const [name, value] of [['start date', options.startDate], ['end date', options.endDate]] as const) {
        if (value !== undefined && !isIsoDate(value)) throw new InputError(`The ${name} must be a date like 2024-01-31.`);
      }
      const chunks = Array.from({ length: Math.ceil(ids.length / IDS_PER_REQUEST) }, (_, i) =>
        ids.slice(i * IDS_PER_REQUEST, (i + 1) * IDS_PER_REQUEST),
      );
      const lists: ListRead[] = chunks.map((chunk) => ({
        key: 'data_points',
        request: {
          method: 'GET',
          path: '/data_points',
          query: {
            // One id goes plain; several go in the array form, which the server reads Rails-style.
            metric_id: chunk.length === 1 ? chunk[0] : chunk,
            page_size: PAGE_SIZE,
            start_date: options.startDate,
            end_date: options.endDate,
            exclude_blank: options.excludeBlank ? 'true' : undefined,
            include_source: options.includeSource ? 'true' : undefined,
          },
        },
      }));
      return readLists(this.requester, lists, options).flat() as DataPoint[];
    },
    /** Upserts of up to 50 points of one metric each, matched by date, sent together, each with its own outcome. */
    upsertMany: (batches: ReadonlyArray<{ metricId: string; dataPoints: readonly DataPointInput[] }>): Array<Settled<{ data_points: DataPoint[] }>> =>
      this.requester.sendAllSettled<{ data_points: DataPoint[] }>(batches.map((b) => upsertRequest(b.metricId, b.dataPoints))),
  };

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

function upsertRequest(metricId: string, dataPoints: readonly DataPointInput[]): ApiRequest {
  if (dataPoints.length === 0) throw new InputError('An upsert needs at least one data point.');
  if (dataPoints.length > MAX_UPSERT_ITEMS) throw new InputError(`An upsert takes at most ${MAX_UPSERT_ITEMS} data points; this batch has ${dataPoints.length}.`);
  return {
    method: 'PUT',
    path: fillPath('/metrics/{metric_id}/data_points', { metric_id: requireUuid(metricId, 'The metric id') }),
    body: { data_points: dataPoints.map(({ date, value }) => ({ date, value })) },
  };
}
