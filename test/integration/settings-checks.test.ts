// Settings that say what is wrong, soon: an address where nothing answers fails in seconds naming it, and a
// base URL whose path is wrong is not sent looking for an id, and is neither passed by the installation check nor saved.

import { DEMO_IDS } from '../../emulator/demo-data';
import { CHECK, noApiSentence } from '../../src/core/settings/installation-verdicts';
import type { InstallationReport } from '../../src/shared/rpc';
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
  expect(answer.value.message).toBe(
    `Nothing answered at ${NOWHERE}: the base URL's address is wrong, or its server is down. Check the base URL in Extensions › Portfolio Metrics › Open sidebar › Settings.`,
  );
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

describe('a base URL whose path holds no API (every request answers 404), with no default company', () => {
  type Rpc<T> = { ok: true; value: T } | { ok: false; error: string };
  const wrong = () => `${stack.emulator.url}/wrong-path`;
  /** The saved settings; the cache generation a save moves (and its undoing moves again) only drops cached answers. */
  const settingsOf = (props: { getProperties(): Record<string, string> }) => {
    const { METRICS_CACHE_SETTINGS_GENERATION: _generation, ...settings } = props.getProperties();
    return settings;
  };

  function noCompany(baseUrl: string) {
    const rt = stack.runtime({ defaultCompany: null });
    rt.properties.user(OWNER).setProperty('METRICS_API_BASE_URL', baseUrl);
    return rt;
  }

  it('fails the installation check\'s API line naming the URL and what it expects, and the summary is not "all passed"', async () => {
    const rt = noCompany(wrong());
    await stack.takeRequests();
    const answer = (await rt.callServerAsync('checkInstallation', [], { recalculateWrittenFormulas: true })) as Rpc<InstallationReport>;
    if (!answer.ok) throw new Error(answer.error);
    const api = answer.value.checks.find((c) => c.name === CHECK.api)!;
    expect(api.status).toBe('fail');
    expect(api.detail).toBe(noApiSentence(wrong(), `GET ${wrong()}/metrics`));
    expect(api.detail).toContain(`so that ${wrong()}/metrics lists metrics`);
    expect(answer.value.summary).not.toMatch(/^All/);
    // What was asked: one listing under the wrong path, answered 404 by the emulator's unknown-route handler.
    const requests = await stack.takeRequests();
    expect(requests.map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/wrong-path/metrics', 404]]);
  });

  it('refuses Save of such an address, naming it, and keeps the address saved before', async () => {
    const rt = noCompany(stack.emulator.url);
    const props = rt.properties.user(OWNER);
    const before = settingsOf(props);
    await stack.takeRequests();
    const answer = rt.callServer('saveSettings', [{ baseUrl: wrong() }]) as Rpc<unknown>;
    expect(answer).toEqual({
      ok: false,
      error: `${noApiSentence(wrong(), `GET ${wrong()}/metrics`)} The address was not saved; the address saved before (${stack.emulator.url}) is kept.`,
    });
    expect(settingsOf(props)).toEqual(before);
    expect((await stack.takeRequests()).map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/wrong-path/metrics', 404]]);
  });

  it('refuses Save of a new token with such an address, keeping neither', async () => {
    const rt = noCompany(stack.emulator.url);
    const props = rt.properties.user(OWNER);
    const before = settingsOf(props);
    const answer = rt.callServer('saveSettings', [{ token: 'tok_live_new_0123456789', baseUrl: wrong() }]) as Rpc<unknown>;
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.error).toContain('The address and the token were not saved');
    expect(settingsOf(props)).toEqual(before);
  });
});
