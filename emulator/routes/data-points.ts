// GET /data_points and PUT /metrics/{metric_id}/data_points.

import { randomUUID } from 'node:crypto';
import { canAccess, requireCompany } from '../access';
import { attributesInvalid, parameterInvalid, recordMissing } from '../errors';
import type { RegisterOperation } from '../operation';
import { paginate } from '../pagination';
import { periodStartProblem } from '../periods';
import type { DataPointRecord, MetricRecord } from '../records';
import { dataPointJson } from '../serializers';
import { byId } from '../store';

/** Where the web application would show a data point (the real field carries the operator's brand). */
export function dataPointAppUrl(metric: MetricRecord, pointId: string): string {
  return `https://app.example.com/companies/${metric.company_id}/metrics/${metric.id}/data_points/${pointId}`;
}

/** Registers listDataPoints and upsertDataPoints. */
export function registerDataPointRoutes(register: RegisterOperation): void {
  register('listDataPoints', ({ query, user }, { store }) => {
    const metricIds = [...new Set(Array.isArray(query.metric_id) ? query.metric_id : [query.metric_id])];
    for (const metricId of metricIds) {
      const metric = byId(store.state.metrics, metricId);
      // 404 is not listed for this operation: an unknown or hidden metric is a bad parameter.
      if (!metric || !canAccess(user, metric.company_id)) {
        throw parameterInvalid('metric_id', `names no metric this token can see: ${metricId}`);
      }
    }
    const position = new Map(metricIds.map((id, index) => [id, index]));
    const excludeBlank = query.exclude_blank === 'true';
    const points = store.state.data_points.filter(
      (point) =>
        position.has(point.metric_id) &&
        (query.start_date === undefined || point.date >= query.start_date) &&
        (query.end_date === undefined || point.date <= query.end_date) &&
        (!excludeBlank || point.value !== null),
    );
    points.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0) || (position.get(a.metric_id) ?? 0) - (position.get(b.metric_id) ?? 0));
    const { items, meta } = paginate(points, query.page ?? 1, query.page_size ?? 25);
    const withSource = query.include_source === 'true';
    return { status: 200, body: { data_points: items.map((point) => dataPointJson(point, withSource)), meta } };
  });

  register('upsertDataPoints', ({ path, body, user }, { store }) => {
    const metric = byId(store.state.metrics, path.metric_id);
    if (!metric) throw recordMissing(`Metric not found: ${path.metric_id}`);
    requireCompany(store, user, metric.company_id);

    const problems: Array<{ field: string; message: string }> = [];
    const firstIndexOfDate = new Map<string, number>();
    body.data_points.forEach((item, index) => {
      const field = `data_points[${index}].date`;
      const problem = periodStartProblem(metric.frequency, item.date);
      const earlier = firstIndexOfDate.get(item.date);
      if (problem) problems.push({ field, message: problem });
      else if (earlier !== undefined) problems.push({ field, message: `repeats the date of data_points[${earlier}]` });
      else firstIndexOfDate.set(item.date, index);
    });
    // All or nothing: a half-applied batch would leave the sheet and the service disagreeing.
    if (problems.length > 0) throw attributesInvalid(problems);

    const stored = store.commit((state) => {
      // The metric's points by date, in one pass: a find per item scanned every point of every metric 50 times a
      // batch (a 10,000-point export's 200 batches and its undo's 200 took seconds of the emulator's CPU).
      const byDate = new Map<string, DataPointRecord>();
      for (const point of state.data_points) if (point.metric_id === metric.id && !byDate.has(point.date)) byDate.set(point.date, point);
      return body.data_points.map((item) => {
        const existing = byDate.get(item.date);
        const point: DataPointRecord = existing ?? {
          id: randomUUID(),
          metric_id: metric.id,
          date: item.date,
          value: null,
          source: { source_type: 'unknown', label: '', app_url: null },
        };
        point.value = item.value;
        point.source = { source_type: 'user_provided', label: 'Provided via API', app_url: dataPointAppUrl(metric, point.id) };
        if (!existing) state.data_points.push(point);
        return point;
      });
    });
    return { status: 200, body: { data_points: stored.map((point) => dataPointJson(point, true)) } };
  });
}
