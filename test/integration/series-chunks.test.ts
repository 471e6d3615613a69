// Many metrics in one series read: ids go 20 to a request (Apps Script refuses URLs over 2 kB), and
// the requests are read together, every page 1 in one wave, every other page in a second.

import { NetworkError } from '../../src/core/errors';
import { DEMO_IDS } from '../../emulator/demo-data';
import { createApiClient } from '../../src/core/api/client';
import type { HttpRequest, HttpResponse, Transport } from '../../src/core/api/transport';
import { SyncHttpClient } from '../../gas-runtime/sync-http';
import { startStack, type Stack } from '../support/stack';

/** Apps Script's URL limit ("URL Fetch URL length: 2 kB / URL"). */
const MAX_URL_LENGTH = 2 * 1024;

let stack: Stack;
const http = new SyncHttpClient();
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await http.close();
  await stack.stop();
});
beforeEach(async () => {
  await stack.emulator.control.reset();
});

/** Real HTTP to the emulator, recording each concurrent send as one wave. */
class LoopbackTransport implements Transport {
  readonly waves: string[][] = [];
  fetch(request: HttpRequest): HttpResponse {
    const [response] = this.fetchAll([request]);
    if (!response || response instanceof NetworkError) throw response ?? new NetworkError('no response', request.url);
    return response;
  }
  fetchAll(requests: HttpRequest[]): Array<HttpResponse | NetworkError> {
    this.waves.push(requests.map((request) => request.url));
    const results = http.sendAll(
      requests.map((request) => ({
        url: request.url,
        method: request.method,
        headers: Object.entries(request.headers),
        body: request.body === undefined ? null : new TextEncoder().encode(request.body),
        followRedirects: false,
        rejectUnauthorized: true,
        timeoutMs: 10_000,
      })),
    );
    return results.map((result, i) => {
      if (!result.ok) return new NetworkError(result.message, requests[i]!.url);
      const headers: Record<string, string> = {};
      for (let h = 0; h + 1 < result.rawHeaders.length; h += 2) headers[result.rawHeaders[h]!.toLowerCase()] = result.rawHeaders[h + 1]!;
      return { status: result.status, headers, body: new TextDecoder().decode(result.body) };
    });
  }
}

/** 45 metrics of ten monthly points each: chunks of 20 metrics hold 200 points (2 pages), the last 50 (1 page). */
async function fortyFiveMetrics(): Promise<{ ids: string[]; points: Array<[string, string, number]> }> {
  const { metrics } = await stack.emulator.control.fixtures({
    metrics: Array.from({ length: 45 }, (_, i) => ({
      company_id: DEMO_IDS.fund,
      name: `Chunked ${String(i).padStart(2, '0')}`,
      frequency: 'monthly',
      unit: 'number',
    })),
  });
  const ids = metrics.map((m) => m.id);
  const points = ids.flatMap((id, m) =>
    Array.from({ length: 10 }, (_, month) => [id, `2023-${String(month + 1).padStart(2, '0')}-01`, m * 100 + month] as [string, string, number]),
  );
  await stack.emulator.control.fixtures({ data_points: points.map(([metric_id, date, value]) => ({ metric_id, date, value: String(value) })) });
  await stack.emulator.control.clearRequests();
  return { ids, points };
}

describe('a series of 45 metrics', () => {
  it('goes in requests of 20 ids, every URL under 2 kB, in two waves', async () => {
    const { ids, points } = await fortyFiveMetrics();
    const transport = new LoopbackTransport();
    const client = createApiClient({
      baseUrl: stack.emulator.url,
      token: stack.emulator.token,
      transport,
      clock: { now: () => Date.now(), sleep: () => undefined },
    });
    const read = client.dataPoints.list(ids);
    expect(read.map((p) => [p.metric_id, p.date, Number(p.value)]).sort()).toEqual([...points].sort());
    // Wave 1: page 1 of each of the three requests; wave 2: page 2 of the two full ones.
    expect(transport.waves.map((wave) => wave.length)).toEqual([3, 2]);
    const urls = transport.waves.flat();
    for (const url of urls) expect(url.length).toBeLessThan(MAX_URL_LENGTH);
    const idsPerRequest = transport.waves[0]!.map((url) => (url.match(/metric_id%5B%5D=/g) ?? []).length);
    expect(idsPerRequest).toEqual([20, 20, 5]);
  });

  it('fills one METRIC_VALUES table from the built add-in, with no URL Apps Script would refuse', async () => {
    const { ids, points } = await fortyFiveMetrics();
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [ids.map((id) => [id]), '2023-01-01', '2023-12-31']) as unknown[][];
    expect(rows[0]).toEqual(['Date', ...ids.map((_, i) => `Chunked ${String(i).padStart(2, '0')}`)]);
    expect(rows).toHaveLength(11);
    rows.slice(1).forEach((row, month) => expect(row.slice(1)).toEqual(ids.map((_, m) => m * 100 + month)));
    expect(points).toHaveLength(450);
    const series = (await stack.emulator.control.requests()).filter((r) => r.path === '/data_points');
    expect(series).toHaveLength(5);
    for (const request of series) expect(`${stack.emulator.url}${request.path}?${request.query ?? ''}`.length).toBeLessThan(MAX_URL_LENGTH);
  });
});
