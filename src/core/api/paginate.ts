// One pagination helper for every list: page 1 reveals total_pages, the rest come together.

import { ApiError, ListChangedError } from '../errors';
import { requireUuid } from '../validate/uuid';
import type { Query } from './query';
import type { ApiRequest, Requester } from './requester';
import type { PaginationMeta } from './types';

export interface PageOptions {
  /** Told the total size and page 1's time, so a caller can throw rather than start pages it cannot finish. */
  beforeRemainingPages?: (meta: PaginationMeta, firstPageMs: number) => void;
}

/** A list to read: its request without a page, and the key its items come under. */
export interface ListRead {
  request: ApiRequest;
  key: string;
  /** The API sends this list whole, without `page` or `meta` (the options of a property). */
  whole?: boolean;
}

/** The list at `/{key}` of what one record owns; the words of `owner` name its id in the sentence if it is not one. */
export function ownedList(key: string, owner: 'company_id' | 'portfolio_company_profile_id' | 'portfolio_property_id', id: string, more: Query = {}): ListRead {
  const query = { [owner]: requireUuid(id, `The ${owner.replace(/_/g, ' ')}`), ...more };
  return { key, request: { method: 'GET', path: `/${key}`, query } };
}

/** Reads every page of one list; see readLists. */
export function fetchAllPages<T>(requester: Requester, list: ListRead): T[] {
  return (readLists(requester, [list])[0] ?? []) as T[];
}

/** Reads of a list that changed between its pages before the add-in gives up on it. */
const MAX_READS = 3;

/**
 * All pages of several lists, one result each, in two round trips: every page 1 (with `total_pages`), then others.
 * A list whose later pages count other than its page 1 changed meanwhile (the API answers newest first, so a point
 * stored between pages shifts the rest, and one deleted leaves a gap): it is read again from page 1, never kept
 * with a gap or a repeat.
 */
export function readLists(requester: Requester, lists: readonly ListRead[], options: PageOptions = {}): unknown[][] {
  const results: unknown[][] = lists.map(() => []);
  let pending = lists.map((_, i) => i);
  for (let read = 1; pending.length > 0; read++) {
    if (read > MAX_READS) throw new ListChangedError(MAX_READS);
    pending = readOnce(
      requester,
      pending.map((i) => lists[i]!),
      options,
    ).flatMap((items, j) => {
      if (items === null) return [pending[j]!];
      results[pending[j]!] = items;
      return [];
    });
  }
  return results;
}

/** One read of every page of each list; null for a list whose count changed between its pages. */
function readOnce(requester: Requester, lists: readonly ListRead[], options: PageOptions): Array<unknown[] | null> {
  if (lists.length === 0) return [];
  const started = requester.now();
  const firsts = requester.sendAll<Record<string, unknown>>(lists.map((list) => pageRequest(list, 1)));
  const pages = firsts.map((first, i) => readPage(first.data, lists[i]!));
  const items: Array<unknown[] | null> = pages.map((page) => page.items);
  const rest = pages.flatMap(({ meta }, owner) =>
    Array.from({ length: Math.max(0, meta.total_pages - 1) }, (_, i) => ({ owner, request: pageRequest(lists[owner]!, i + 2) })),
  );
  if (rest.length === 0) return items;
  const total = pages.reduce((sum, { meta }) => sum + (Number(meta.total) || 0), 0);
  options.beforeRemainingPages?.({ total, total_pages: rest.length + 1, page: 1 }, requester.now() - started);
  requester.sendAll<Record<string, unknown>>(rest.map(({ request }) => request)).forEach((body, j) => {
    const { owner } = rest[j]!;
    const page = readPage(body.data, lists[owner]!);
    const first = pages[owner]!.meta;
    if (page.meta.total_pages !== first.total_pages || page.meta.total !== first.total) items[owner] = null;
    items[owner]?.push(...page.items);
  });
  return items;
}

/** A list's request for one page; a whole list has no pages and is asked for as it is. */
export function pageRequest({ request, whole }: ListRead, page: number): ApiRequest {
  return whole ? request : { ...request, query: { ...request.query, page } };
}

export function readPage(body: Record<string, unknown>, { key, whole, request }: ListRead): { items: unknown[]; meta: PaginationMeta } {
  const items = body[key];
  const meta = whole && Array.isArray(items) ? { total: items.length, total_pages: 1, page: 1 } : (body['meta'] as Partial<PaginationMeta> | undefined);
  if (!Array.isArray(items) || !meta || typeof meta.total_pages !== 'number') {
    const problem = whole ? `the answer had no "${key}" array` : `the list had no "${key}" array or no meta.total_pages`;
    throw new ApiError(200, [{ type: 'unexpected_response', message: problem }], request.method, request.path);
  }
  return { items: [...items] as unknown[], meta: meta as PaginationMeta };
}
