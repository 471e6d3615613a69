// A recalculation's first fetch takes the sheet's other metrics along: which ids, how they are stored,
// and what happens when fetching them together fails.

import { ChunkedCache } from '../../../src/core/cache/chunked-cache';
import { SeriesCache, wholeSeriesKey, MAX_COMPANIONS } from '../../../src/core/series/series-cache';
import { SingleFlight } from '../../../src/core/series/single-flight';
import { metricIdsReadWhole } from '../../../src/core/formulas/reads-metrics';
import type { DataPoint } from '../../../src/core/api/types';
import { MAX_PREFETCH_PAGES, metricValue } from '../../../src/core/formulas/metric-formulas';
import { scriptedFormulaContext } from '../../support/formula-context';
import type { Step } from '../../support/scripted-transport';
import { MemoryCache } from '../../support/memory-cache';
import { FakeClock } from '../../support/scripted-transport';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const point = (metric: string, date: string, value: string): DataPoint => ({ id: '', metric_id: metric, date, value });

function setUp() {
  const clock = new FakeClock(0);
  const cache = new MemoryCache(clock);
  let n = 0;
  const chunked = new ChunkedCache(cache, () => `c${n++}`);
  const flight = new SingleFlight(cache, clock, 25_000);
  return { cache, series: new SeriesCache(chunked, 'g', flight) };
}

describe("fetching the sheet's metrics along", () => {
  it('finds the ids METRIC_VALUE and METRIC_LATEST read whole, written or referenced, once each, in sheet order', () => {
    const grid = [
      ['', `=METRIC_VALUE("${A.toUpperCase()}", "2024-03")`, `=METRIC_LATEST(A2)`],
      [B, `=METRIC_VALUE($A$2, C$1) + METRIC_VALUE("${A}", "2024-04")`, `=METRIC_VALUES("${C}")`],
      ['', `=SUM(A1:A2)`, `=METRIC_VALUE(A1:A2, "2024-03")`],
    ];
    const values = [
      ['', 1, 2],
      [B, 3, 4],
      ['', 5, 6],
    ];
    // METRIC_VALUES reads a dated range, not the whole series, and a range reference is not followed.
    expect(metricIdsReadWhole(grid, (row, column) => values[row - 1]?.[column - 1])).toEqual([A, B]);
  });

  it('loads the metric with its companions in one call and stores each series apart', () => {
    const { series } = setUp();
    const calls: string[][] = [];
    const loaded = series.getOrLoadWhole(
      A,
      (ids) => {
        calls.push([...ids]);
        return [point(A, '2024-01-01', '1'), point(B.toUpperCase(), '2024-01-01', '2')];
      },
      () => [A, B, C],
    );
    expect(calls).toEqual([[A, B, C]]);
    expect(loaded).toEqual([point(A, '2024-01-01', '1')]);
    expect(series.get(wholeSeriesKey(B), [B])).toEqual([point(B.toUpperCase(), '2024-01-01', '2')]);
    // A companion with no points has an empty series, as a fetch of it alone would give.
    expect(series.get(wholeSeriesKey(C), [C])).toEqual([]);
    // Every cell of A, B or C now reads the cache: no second call.
    expect(
      series.getOrLoadWhole(
        C,
        () => {
          throw new Error('must not fetch');
        },
        () => [A, B, C],
      ),
    ).toEqual([]);
  });

  it('leaves out companions already cached, and takes at most 19 along (one request of 20 ids)', () => {
    const { series } = setUp();
    series.put(wholeSeriesKey(B), [point(B, '2024-01-01', '2')], [B]);
    const many = Array.from({ length: 30 }, (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`);
    const calls: string[][] = [];
    series.getOrLoadWhole(
      A,
      (ids) => {
        calls.push([...ids]);
        return [];
      },
      () => [B, ...many],
    );
    // B cached does not take a place: 19 others fill the request.
    expect(calls[0]).toEqual([A, ...many.slice(0, MAX_COMPANIONS)]);
  });

  it('claims its 19 among the ids neither cached nor being loaded by another execution', () => {
    const { series, cache } = setUp();
    const many = Array.from({ length: 49 }, (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`);
    // A fund model's first fetch took the first 19 along, and is still loading them…
    const first: string[][] = [];
    const second: string[][] = [];
    series.getOrLoadWhole(
      many[0]!,
      (ids) => {
        first.push([...ids]);
        // …when a cell of another company fetches: it takes the next 19, not the 19 already claimed.
        series.getOrLoadWhole(
          many[30]!,
          (more) => {
            second.push([...more]);
            return [];
          },
          () => many,
        );
        return [];
      },
      () => many,
    );
    expect(first).toEqual([many.slice(0, 20)]);
    expect(second).toEqual([[many[30], ...many.slice(20, 30), ...many.slice(31, 40)]]);
    // What is left (40..48) comes in one more request of 9, whichever cell asks.
    const third: string[][] = [];
    series.getOrLoadWhole(
      many[45]!,
      (ids) => {
        third.push([...ids]);
        return [];
      },
      () => many,
    );
    expect(third).toEqual([[many[45], ...many.slice(40, 45), ...many.slice(46)]]);
    expect([...cache.store.keys()].filter((key) => key.startsWith('load:'))).toEqual([]);
  });

  it('falls back to the metric alone when fetching together fails, and frees the companions for their own cells', () => {
    const { series, cache } = setUp();
    const calls: string[][] = [];
    const loaded = series.getOrLoadWhole(
      A,
      (ids) => {
        calls.push([...ids]);
        if (ids.length > 1) throw new Error('too many pages');
        return [point(A, '2024-01-01', '1')];
      },
      () => [B],
    );
    expect(loaded).toEqual([point(A, '2024-01-01', '1')]);
    expect(calls).toEqual([[A, B], [A]]);
    expect(series.get(wholeSeriesKey(B), [B])).toBeNull();
    expect([...cache.store.keys()].filter((key) => key.startsWith('load:'))).toEqual([]);
  });
});

describe('METRIC_VALUE fetching along', () => {
  const COMPANY = 'c0000000-0000-4000-8000-000000000001';
  const listing = {
    status: 200,
    body: {
      metrics: [A, B].map((id) => ({ id, name: id, frequency: 'monthly', unit: 'USD', company_id: COMPANY, portfolio_company_profile_id: null })),
      meta: { page: 1, total_pages: 1, total: 2 },
    },
  };
  function withFlight(steps: Step[], sheetIds: string[]) {
    const { ctx, transport, cache } = scriptedFormulaContext({ steps, timeZone: 'UTC', defaultCompanyId: COMPANY, allowedCompanyIds: [COMPANY] });
    const clock = new FakeClock(0);
    let n = 0;
    ctx.series = new SeriesCache(new ChunkedCache(cache, () => `s${n++}`), '0', new SingleFlight(cache, clock, Number.MAX_SAFE_INTEGER));
    ctx.recalculationMetricIds = () => sheetIds;
    return { ctx, transport };
  }

  it(`gives up fetching along past ${MAX_PREFETCH_PAGES} pages and fetches its own metric alone; a metric not in an allowed listing never goes along`, () => {
    const { ctx, transport } = withFlight(
      [
        { match: 'GET /metrics?company_id=', prefix: true, reply: listing },
        {
          match: `GET /data_points?metric_id[]=${A}&metric_id[]=${B}&page_size=100&page=1`,
          reply: { status: 200, body: { data_points: [], meta: { page: 1, total_pages: MAX_PREFETCH_PAGES + 1, total: 3100 } } },
        },
        {
          match: `GET /data_points?metric_id=${A}&page_size=100&page=1`,
          reply: { status: 200, body: { data_points: [point(A, '2024-03-01', '7')], meta: { page: 1, total_pages: 1, total: 1 } } },
        },
      ],
      [A, C, B],
    );
    expect(metricValue(ctx, A, '2024-03')).toBe(7);
    expect(transport.sent.map((r) => r.url.replace('https://api.test', ''))).toHaveLength(3);
    expect(transport.sent.some((r) => r.url.includes(C))).toBe(false);
  });
});
