// GET /data_points and PUT /metrics/{metric_id}/data_points.

import { InputError } from '../../errors';
import { readLists, type ListRead, type PageOptions } from '../paginate';
import { fillPath } from '../query';
import type { ApiRequest, Requester, Settled } from '../requester';
import { MAX_UPSERT_ITEMS, type DataPoint, type DataPointInput } from '../types';
import { isIsoDate } from '../../validate/dates';
import { requireUuid } from '../../validate/uuid';
import { DATA_POINTS_PAGE_SIZE, IDS_PER_REQUEST } from '../../pacing';

interface ListDataPointsOptions extends PageOptions {
  startDate?: string;
  endDate?: string;
  excludeBlank?: boolean;
  includeSource?: boolean;
}

export class DataPointsResource {
  constructor(private readonly requester: Requester) {}

  /**
   * Every data point of one or several metrics in the range, at the largest page size.
   * Order is whatever the API sends (the live service answers newest first): callers sort.
   */
  list(metricIds: string | readonly string[], options: ListDataPointsOptions = {}): DataPoint[] {
    const ids = (typeof metricIds === 'string' ? [metricIds] : metricIds).map((id) => requireUuid(id, 'The metric id'));
    if (ids.length === 0) throw new InputError('No metric id was given.');
    for (const [name, value] of [
      ['start date', options.startDate],
      ['end date', options.endDate],
    ] as const) {
      if (value !== undefined && !isIsoDate(value)) throw new InputError(`The ${name} must be a date like 2024-01-31.`);
    }
    const chunks = Array.from({ length: Math.ceil(ids.length / IDS_PER_REQUEST) }, (_, i) => ids.slice(i * IDS_PER_REQUEST, (i + 1) * IDS_PER_REQUEST));
    const lists: ListRead[] = chunks.map((chunk) => ({
      key: 'data_points',
      request: {
        method: 'GET',
        path: '/data_points',
        query: {
          // One id goes plain; several go in the array form, which the server reads Rails-style.
          metric_id: chunk.length === 1 ? chunk[0] : chunk,
          page_size: DATA_POINTS_PAGE_SIZE,
          start_date: options.startDate,
          end_date: options.endDate,
          exclude_blank: options.excludeBlank ? 'true' : undefined,
          include_source: options.includeSource ? 'true' : undefined,
        },
      },
    }));
    return readLists(this.requester, lists, options).flat() as DataPoint[];
  }

  /** Upserts of up to 50 data points of one metric each, matched by date, sent together, each with its own outcome. */
  upsertMany(batches: ReadonlyArray<{ metricId: string; dataPoints: readonly DataPointInput[] }>): Array<Settled<{ data_points: DataPoint[] }>> {
    return this.requester.sendAllSettled<{ data_points: DataPoint[] }>(batches.map((b) => upsertRequest(b.metricId, b.dataPoints)));
  }
}

function upsertRequest(metricId: string, dataPoints: readonly DataPointInput[]): ApiRequest {
  if (dataPoints.length === 0) throw new InputError('An upsert needs at least one data point.');
  if (dataPoints.length > MAX_UPSERT_ITEMS)
    throw new InputError(`An upsert takes at most ${MAX_UPSERT_ITEMS} data points; this batch has ${dataPoints.length}.`);
  return {
    method: 'PUT',
    path: fillPath('/metrics/{metric_id}/data_points', { metric_id: requireUuid(metricId, 'The metric id') }),
    body: { data_points: dataPoints.map(({ date, value }) => ({ date, value })) },
  };
}
