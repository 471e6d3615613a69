// One page of a list, with the meta every paginated endpoint answers.

/** `{ total, total_pages, page }`, all three always present. */
export interface PaginationMeta {
  total: number;
  total_pages: number;
  page: number;
}

/** Items of other lists per page (the document does not show it; decided 25, like data points' default). */
export const DEFAULT_PAGE_SIZE = 25;

/** Cuts one page; a page beyond the last is empty with the real totals, and an empty list has 0 pages (as Kaminari answers). */
export function paginate<T>(items: T[], page: number, pageSize: number): { items: T[]; meta: PaginationMeta } {
  const start = (page - 1) * pageSize;
  return {
    items: items.slice(start, start + pageSize),
    meta: { total: items.length, total_pages: Math.ceil(items.length / pageSize), page },
  };
}
