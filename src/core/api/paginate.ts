// One pagination helper for every list: page 1 reveals total_pages, the rest come together.

import { ApiError } from '../errors';
import type { ApiRequest, Requester } from './requester';

export interface PageOptions {
  /**
   * Called once page 1 has revealed the size of the list, with how long that page took: a caller
   * with a deadline throws here, before spending requests on a list it cannot finish in time.
   * For several lists read together, `meta` adds them up: `total_pages - 1` is the pages still to fetch.
   */
  beforeRemainingPages?: (meta: PageMeta, firstPageMs: number) => void;
}

export interface PageMeta {
  total: number;
  total_pages: number;
  page: number;
}

/**
 * Reads every page of a list. Page 1 is fetched alone because only it reveals `total_pages`;
 * pages 2..N then go in one sendAll, which the requester splits into concurrent waves the
 * rate budget allows. Two round trips at most, whatever the length of the list.
 */
export function fetchAllPages<T>(requester: Requester, request: ApiRequest, key: string, options: PageOptions = {}): T[] {
  return fetchAllPagesOfEach<T>(requester, [request], key, options)[0] ?? [];
}

/**
 * Reads every page of several lists at once, one result per request in order: the page 1 of every list
 * go together, then every remaining page of every list together. Still two waves, however many lists.
 */
export function fetchAllPagesOfEach<T>(requester: Requester, requests: readonly ApiRequest[], key: string, options: PageOptions = {}): T[][] {
  if (requests.length === 0) return [];
  const started = requester.now();
  const firsts = requester.sendAll<Record<string, unknown>>(requests.map((request) => withPage(request, 1)));
  const lists = firsts.map((first, i) => readPage<T>(first.data, key, requests[i]!));
  const items = lists.map((list) => list.items);
  const rest: ApiRequest[] = [];
  const owners: number[] = [];
  lists.forEach(({ meta }, i) => {
    for (let page = 2; page <= meta.total_pages; page++) {
      rest.push(withPage(requests[i]!, page));
      owners.push(i);
    }
  });
  if (rest.length === 0) return items;
  const total = lists.reduce((sum, { meta }) => sum + (Number(meta.total) || 0), 0);
  options.beforeRemainingPages?.({ total, total_pages: rest.length + 1, page: 1 }, requester.now() - started);
  const pages = requester.sendAll<Record<string, unknown>>(rest);
  pages.forEach((page, j) => {
    const owner = owners[j]!;
    items[owner]!.push(...readPage<T>(page.data, key, requests[owner]!).items);
  });
  return items;
}

function withPage(request: ApiRequest, page: number): ApiRequest {
  return { ...request, query: { ...request.query, page } };
}

function readPage<T>(body: Record<string, unknown>, key: string, request: ApiRequest): { items: T[]; meta: PageMeta } {
  const items = body[key];
  const meta = body['meta'] as Partial<PageMeta> | undefined;
  if (!Array.isArray(items) || !meta || typeof meta.total_pages !== 'number') {
    throw new ApiError(200, [{ type: 'unexpected_response', message: `the list had no "${key}" array or no meta.total_pages` }], request.method, request.path);
  }
  return { items: items as T[], meta: meta as PageMeta };
}
