// A cell whose 30 seconds run out before its request can start: no request is started that the cell's time cannot
// cover (UrlFetchApp takes no timeout, so a late one ends as "Exceeded maximum execution time"), and the cell says
// to recalculate. The time runs out on the runtime's virtual clock: the owner's lock is held by another execution
// (a scheduled refresh holds it for its whole run), so each lock the cell takes costs it 5 s of waiting.

import { DEMO_IDS } from '../../emulator/demo-data';
import { OWNER, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

/** What a cell shows when a formula fails: the error's message, or null when it answered. */
function cellError(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

it('starts no request its remaining time cannot cover, says to recalculate, and answers when recalculated', async () => {
  const rt = stack.runtime();
  const HELD_MS = 120_000;
  rt.locks.hold('user', { forMs: HELD_MS, user: OWNER });

  const error = cellError(() => rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue]));
  expect(error).toBe(
    'This cell ran out of its 30 seconds before asking the API, so 1 request to the API was not sent. Recalculate to try again: Extensions › Portfolio Metrics › Refresh data. If it happens again, narrow the date range or split it over several formulas.',
  );
  // The listing (names for the header) went out while there was time; the series request was never started.
  const first = await stack.takeRequests();
  expect(first.filter((r) => r.path === '/data_points')).toHaveLength(0);
  expect(first.filter((r) => r.path === '/metrics').length).toBeGreaterThan(0);
  // The cell ended on its own sentence, not on Apps Script's time limit, having waited for the lock.
  const [run] = rt.executions;
  expect(run!.outcome).toBe('failed');
  expect(run!.error).toBe(error);
  expect(run!.lockWaitMs).toBeGreaterThanOrEqual(15_000);
  expect(rt.logs.map((l) => l.message)).toContainEqual(expect.stringMatching(/^\[support\] not-sent reason=out_of_time requests=1 left-ms=\d+$/));

  // Recalculated once the other execution let go of the lock: what was fetched is cached, the series request goes.
  rt.clock.advance(HELD_MS);
  expect(cellError(() => rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue]))).toBeNull();
  const second = await stack.takeRequests();
  expect(second.map((r) => r.path)).toEqual(['/data_points']);
});
