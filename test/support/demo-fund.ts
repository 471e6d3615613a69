// What the demo fund's size costs a client: its metric listing fills several pages of 25 (the grown fund of
// 32 companies), and the access check, the names and the export's frequencies read every page of it.

import { buildDemoState, DEMO_IDS } from '../../emulator/demo-data';

/** The emulator's page size for listings other than data points (emulator/pagination.ts). */
const LISTING_PAGE_SIZE = 25;

/** Pages of the demo fund's metric listing. */
export const DEMO_FUND_LISTING_PAGES = Math.ceil(buildDemoState().metrics.filter((m) => m.company_id === DEMO_IDS.fund).length / LISTING_PAGE_SIZE);

/** The request log's paths of one read of that listing. */
export const DEMO_FUND_LISTING: string[] = Array<string>(DEMO_FUND_LISTING_PAGES).fill('/metrics');

/** Its requests as `path?query`, pages in order. */
export function demoFundListingQueries(fundId: string = DEMO_IDS.fund): string[] {
  return Array.from({ length: DEMO_FUND_LISTING_PAGES }, (_, i) => `/metrics?company_id=${fundId}&page=${i + 1}`);
}
