// One pagination helper for every list: page 1 reveals total_pages, the rest come together.

import { ApiError } from './errors';
import type { ApiRequest, Requester } from './requester';

export interface PageOptions {
  /**
   * Called once page 1 has revealed the size of the list, with how long that page took: a caller
   * with a deadline throws here, before spending requests on a list it cannot finish in time.
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
  const started = requester.now();
  const first = requester.send<Record<string, unknown>>(withPage(request, 1));
  const { items, meta } = readPage<T>(first.data, key, request);
  if (meta.total_pages <= 1) return items;
  options.beforeRemainingPages?.(meta, requester.now() - started);
  const rest: ApiRequest[] = [];
  for (let page = 2; page <= meta.total_pages; page++) rest.push(withPage(request, page));
  const pages = requester.sendAll<Record<string, unknown>>(rest);
  return items.concat(...pages.map((page) => readPage<T>(page.data, key, request).items));
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
