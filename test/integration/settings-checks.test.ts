// Settings that say what is wrong, soon: an address where nothing answers fails in seconds naming it, and a
// base URL whose path is wrong is not sent looking for an id.

import { DEMO_IDS } from '../../emulator/demo-data';
import { OWNER, startStack, type Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.stop());

/** A loopback port nothing listens on (the discard port): Apps Script answers "Address unavailable". */
const NOWHERE = 'http://127.0.0.1:9';

function withBaseUrl(baseUrl: string) {
  const rt = stack.runtime();
  rt.properties.user(OWNER).setProperty('METRICS_API_BASE_URL', baseUrl);
  return rt;
}

it('fails the connection test within 5 seconds when nothing answers at the base URL, naming the address', () => {
  const rt = withBaseUrl(NOWHERE);
  const answer = rt.callServer('testConnection', [DEMO_IDS.fund]) as { ok: boolean; value: { ok: boolean; message: string } };
  const execution = rt.executions.at(-1)!;
  expect(answer.value.ok).toBe(false);
  expect(answer.value.message).toBe(`Nothing answered at ${NOWHERE}: the base URL's address is wrong, or its server is down. Check the base URL in Extensions › Portfolio Metrics › Open sidebar › Settings.`);
  // The runtime's clock: one retry after a short wait, not half a minute of backing off.
  expect(execution.durationMs).toBeLessThan(5_000);
  expect(execution.urlFetchCount).toBe(2);
});

it('fails a formula within 10 seconds when nothing answers at the base URL, saying so in the cell', () => {
  const rt = withBaseUrl(NOWHERE);
  let message = '';
  try {
    rt.runCustomFunction('METRIC_VALUE', [DEMO_IDS.metrics.monthlyRecurringRevenue, '2024-06']);
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(/^Nothing answered at http:\/\/127\.0\.0\.1:9: /);
  expect(rt.executions.at(-1)!.durationMs).toBeLessThan(10_000);
});

it('says the base URL\'s path is wrong, not "check the id", when the API has nothing at a path without an id', () => {
  const rt = withBaseUrl(`${stack.emulator.url}/wrong-path`);
  const answer = rt.callServer('testConnection', [DEMO_IDS.fund]) as { ok: boolean; value: { ok: boolean; message: string } };
  expect(answer.value.ok).toBe(false);
  expect(answer.value.message).toMatch(/has nothing at \/wrong-path\/metrics.*the base URL's path is likely wrong/);
  expect(answer.value.message).not.toMatch(/Check the id/);
});
