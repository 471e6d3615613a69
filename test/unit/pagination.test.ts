import { createApiClient } from '../../src/core/api/client';
import { fetchAllPages } from '../../src/core/api/paginate';
import { Requester } from '../../src/core/api/requester';
import { FakeClock, ScriptedTransport, type Step } from '../support/scripted-transport';

function page(items: number[], page: number, totalPages: number, total: number) {
  return { status: 200, body: { things: items, meta: { page, total_pages: totalPages, total } } };
}

function run(steps: Step[]) {
  const transport = new ScriptedTransport(steps);
  const requester = new Requester({ baseUrl: 'https://api.test', token: 't0ken-value', transport, clock: new FakeClock() });
  const items = fetchAllPages<number>(requester, { request: { method: 'GET', path: '/things', query: { page_size: 100 } }, key: 'things' });
  transport.assertDone();
  return { items, transport };
}

describe('fetchAllPages', () => {
  it('reads a single page with one request', () => {
    const { items, transport } = run([{ match: 'GET /things?page_size=100&page=1', reply: page([1, 2], 1, 1, 2) }]);
    expect(items).toEqual([1, 2]);
    expect(transport.sent).toHaveLength(1);
  });

  it('reads an empty list (total_pages 0) with one request', () => {
    const { items } = run([{ match: 'GET /things?page_size=100&page=1', reply: page([], 1, 0, 0) }]);
    expect(items).toEqual([]);
  });

  it('fetches pages 2..N together in one fetchAll after page 1, in page order', () => {
    const { items, transport } = run([
      { match: 'GET /things?page_size=100&page=1', reply: page([1], 1, 4, 4) },
      { match: 'GET /things?page_size=100&page=2', reply: page([2], 2, 4, 4) },
      { match: 'GET /things?page_size=100&page=3', reply: page([3], 3, 4, 4) },
      { match: 'GET /things?page_size=100&page=4', reply: page([4], 4, 4, 4) },
    ]);
    expect(items).toEqual([1, 2, 3, 4]);
    expect(transport.waves).toEqual([3]);
  });

  it('refuses a body without the list or its meta', () => {
    expect(() => run([{ match: 'GET /things?page_size=100&page=1', reply: { status: 200, body: { other: [] } } }])).toThrow(/no "things" array/);
  });
});

describe('a list that changes between its pages', () => {
  const q = (n: number) => `GET /things?page_size=100&page=${n}`;

  it('starts again when a later page counts more items than page 1 did (a point stored meanwhile, newest first)', () => {
    const { items, transport } = run([
      { match: q(1), reply: page([30, 29], 1, 2, 3) },
      // 31 was stored after page 1 was read: the list shifted by one, and 28 moved to a page 3 page 1 did not announce.
      { match: q(2), reply: page([29], 2, 3, 4) },
      { match: q(1), reply: page([31, 30], 1, 2, 4) },
      { match: q(2), reply: page([29, 28], 2, 2, 4) },
    ]);
    expect(items).toEqual([31, 30, 29, 28]);
    expect(transport.sent).toHaveLength(4);
  });

  it('starts again when a later page counts fewer (one deleted meanwhile would leave a gap)', () => {
    const { items } = run([
      { match: q(1), reply: page([4, 3], 1, 2, 4) },
      { match: q(2), reply: page([1], 2, 2, 3) },
      { match: q(1), reply: page([4, 2], 1, 2, 3) },
      { match: q(2), reply: page([1], 2, 2, 3) },
    ]);
    expect(items).toEqual([4, 2, 1]);
  });

  it('refuses, rather than answering with a gap, when the list changes on every read', () => {
    const steps: Step[] = [];
    for (let read = 0; read < 3; read++) steps.push({ match: q(1), reply: page([read], 1, 2, 2 + read) }, { match: q(2), reply: page([read], 2, 2, 3 + read) });
    expect(() => run(steps)).toThrow('The data changed on the API while the add-in read it, 3 times: nothing was kept. Try again in a moment.');
  });
});

describe('a list owned by a record', () => {
  it('checks the owner id before sending, naming it in the words of its field', () => {
    const transport = new ScriptedTransport([]);
    const client = createApiClient({ baseUrl: 'https://api.test', token: 't0ken-value', transport, clock: new FakeClock() });
    expect(() => client.notes.listTags('x')).toThrow('The company id must be an id like');
    expect(() => client.portfolio.listNotes('x')).toThrow('The portfolio company profile id must be an id like');
    expect(() => client.portfolio.listOptions('x')).toThrow('The portfolio property id must be an id like');
    transport.assertDone();
  });
});
