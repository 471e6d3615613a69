// A custom function's context for unit tests of the core: the real client, caches and formulas over a scripted
// API, so a test sees every request a formula makes.

import { createApiClient, type ApiClient } from '../../src/core/api/client';
import { ChunkedCache } from '../../src/core/cache/chunked-cache';
import type { FormulaContext } from '../../src/core/formulas/formula-context';
import { RecordsCache } from '../../src/core/series/records-cache';
import { SeriesCache } from '../../src/core/series/series-cache';
import { intlDateFormatter } from '../../src/core/validate/dates';
import { MemoryCache } from './memory-cache';
import { FakeClock, ScriptedTransport, type Step } from './scripted-transport';

export interface ScriptedContextOptions {
  steps: Step[];
  timeZone: string;
  defaultCompanyId: string | null;
  /** The owner's formula-access list. */
  allowedCompanyIds: string[];
  cache?: MemoryCache;
}

export function scriptedFormulaContext(options: ScriptedContextOptions): { ctx: FormulaContext; transport: ScriptedTransport; cache: MemoryCache } {
  const cache = options.cache ?? new MemoryCache();
  const transport = new ScriptedTransport(options.steps);
  const clock = new FakeClock(Date.UTC(2024, 6, 15, 12));
  let client: ApiClient | undefined;
  let n = 0;
  const chunked = new ChunkedCache(cache, () => `g${++n}`);
  const ctx: FormulaContext = {
    timeZone: options.timeZone,
    formatDate: intlDateFormatter,
    client: () => (client ??= createApiClient({ baseUrl: 'https://api.test', token: 'token-123456', transport, clock })),
    series: new SeriesCache(chunked, '0'),
    records: new RecordsCache(chunked, '0'),
    defaultCompanyId: options.defaultCompanyId,
    allowedCompanyIds: options.allowedCompanyIds,
    now: () => clock.now(),
  };
  return { ctx, transport, cache };
}
