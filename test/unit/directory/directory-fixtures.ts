// Shared set-up for the directory's tests: a fund, its profiles and lists, and a client over the scripted transport.

import { createApiClient, type ApiClient } from '../../../src/core/api/client';
import type { ContactList, PortfolioCompanyProfile } from '../../../src/core/api/types';
import type { RowWrite } from '../../../src/core/directory/types';
import { FakeClock, ScriptedTransport, type Step } from '../../support/scripted-transport';

export const FUND = '0f000000-0000-4000-8000-000000000001';
export const ACME = '0a000000-0000-4000-8000-000000000001';
export const BETA = '0a000000-0000-4000-8000-000000000002';
export const JANE = '0c000000-0000-4000-8000-000000000001';
export const INVESTORS = '0d000000-0000-4000-8000-000000000001';
export const BOARD = '0d000000-0000-4000-8000-000000000002';
export const NEWSLETTER = '0d000000-0000-4000-8000-000000000003';
export const TAG = '0e000000-0000-4000-8000-000000000001';

/** Ids the scripted API hands out, in order. */
export const NEW_IDS = Array.from({ length: 9 }, (_, i) => `0b000000-0000-4000-8000-00000000000${i + 1}`);

export function profile(overrides: Partial<PortfolioCompanyProfile> & Pick<PortfolioCompanyProfile, 'id' | 'name'>): PortfolioCompanyProfile {
  return {
    website_url: null,
    currency: null,
    primary_contact_id: null,
    fiscal_year_end_month: null,
    company_id: FUND,
    created_at: '2024-01-01T00:00:00Z',
    ...overrides,
  };
}

export const EXISTING: PortfolioCompanyProfile[] = [
  profile({ id: ACME, name: 'Acme Robotics', website_url: 'https://acme.example', currency: 'USD', fiscal_year_end_month: 12 }),
  profile({ id: BETA, name: 'Beta Bio', currency: 'EUR', primary_contact_id: JANE }),
];

export const LISTS: ContactList[] = [
  { id: INVESTORS, name: 'Investors', company_id: FUND },
  { id: BOARD, name: 'Board', company_id: FUND },
  { id: NEWSLETTER, name: 'Newsletter', company_id: FUND },
];

export const STEP_MS = 270_000;

export type Harness = {
  client: ApiClient;
  transport: ScriptedTransport;
  clock: FakeClock;
  deadline: number;
};

/** A client for one step, as the server builds one per execution: the same deadline for the client and the step. */
/** The margin the import steps here run with: rows stop this long before the deadline. */
export const ROW_MARGIN_MS = 15_000;

export function harness(steps: Step[], options: { clock?: FakeClock; stepMs?: number; transport?: ScriptedTransport } = {}): Harness {
  const clock = options.clock ?? new FakeClock(Date.UTC(2025, 0, 6, 9));
  const transport = options.transport ?? new ScriptedTransport(steps);
  const deadline = clock.now() + (options.stepMs ?? STEP_MS);
  const client = createApiClient({ baseUrl: 'https://api.test', token: 'token-123456', transport, clock, deadline, retry: { random: () => 0.5 } });
  return { client, transport, clock, deadline };
}

/** The bodies of every request sent with this method, parsed, in order. */
export function sentBodies(transport: ScriptedTransport, method: 'POST' | 'PUT'): Array<{ path: string; body: Record<string, unknown> }> {
  return transport.sent
    .filter((request) => request.method === method)
    .map((request) => ({ path: request.url.replace('https://api.test', ''), body: JSON.parse(request.body ?? '{}') as Record<string, unknown> }));
}

/** Collects what onCheckpoint hands the server, as the server would write it. */
export class CheckpointLog<State> {
  readonly saved: State[] = [];
  readonly writes: RowWrite[] = [];
  readonly onCheckpoint = (state: State, written: RowWrite | null): void => {
    this.saved.push(JSON.parse(JSON.stringify(state)) as State);
    if (written) this.writes.push(written);
  };
}

export { errorReply, SlowTransport } from '../../support/scripted-transport';
