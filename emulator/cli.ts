// Command line: `npm run emulator -- --port P --token T --company C`; prints one ready line, stops cleanly on SIGINT/SIGTERM.

import { parseArgs } from 'node:util';
import { buildEmulator, type EmulatorOptions } from './app';
import { DEMO_IDS } from './demo-data';
import type { FaultSettings } from './faults';

const HELP = `Usage: npm run emulator -- [options]

Local emulator of the Metrics, Contacts, Notes and Portfolio Data API (validated by contract/openapi.yaml).

  --port N            port on 127.0.0.1 (default 8787; 0 picks a free port)
  --token T           bearer token of the demo user (default demo-token)
  --company C         id (a UUID) of the demo fund (an investor company holding the demo data)
  --empty             start with only that fund and token, no records
  --data FILE         persist the state to FILE (loaded when it exists; its token and fund then win)
  --rate-limit N      requests per window and token (default 500)
  --rate-window S     window length in seconds (default 300)
  --retry-after       send Retry-After on 429 (the real service promises none)
  --latency MS        add MS milliseconds to every API response
  --fail-rate R       share 0..1 of API requests answered 503
  --drop-rate R       share 0..1 of API requests whose connection is dropped
  --jitter MS         add a random 0..MS milliseconds to every API response
  --force-429 N       answer the next N API requests 429 rate_limit_exceeded
  --force-503 N       answer the next N API requests 503 (plain text, as a proxy would)
  --seed N            seed of the fault generator (default 1)
  --help              this text

Control API (no auth): /__emulator/health, reset, requests, faults, clock, rate-limit, fixtures, state.`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function numberFlag(value: string | undefined, name: string, check: (n: number) => boolean): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || !check(parsed)) throw new Error(`--${name}: invalid value ${value}`);
  return parsed;
}

function main(): void {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      token: { type: 'string' },
      company: { type: 'string' },
      empty: { type: 'boolean' },
      data: { type: 'string' },
      'rate-limit': { type: 'string' },
      'rate-window': { type: 'string' },
      'retry-after': { type: 'boolean' },
      latency: { type: 'string' },
      'fail-rate': { type: 'string' },
      'drop-rate': { type: 'string' },
      seed: { type: 'string' },
      jitter: { type: 'string' },
      'force-429': { type: 'string' },
      'force-503': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }

  const port = numberFlag(values.port, 'port', (n) => Number.isInteger(n) && n >= 0 && n < 65536) ?? 8787;
  const faults: Partial<FaultSettings> = {};
  const latency = numberFlag(values.latency, 'latency', (n) => n >= 0);
  const failRate = numberFlag(values['fail-rate'], 'fail-rate', (n) => n >= 0 && n <= 1);
  const dropRate = numberFlag(values['drop-rate'], 'drop-rate', (n) => n >= 0 && n <= 1);
  const seed = numberFlag(values.seed, 'seed', Number.isInteger);
  if (latency !== undefined) faults.latencyMs = latency;
  if (failRate !== undefined) faults.failRate = failRate;
  if (dropRate !== undefined) faults.dropRate = dropRate;
  if (seed !== undefined) faults.seed = seed;
  const isCount = (n: number): boolean => Number.isInteger(n) && n >= 0;
  const jitter = numberFlag(values.jitter, 'jitter', (n) => n >= 0);
  const force429 = numberFlag(values['force-429'], 'force-429', isCount);
  const force503 = numberFlag(values['force-503'], 'force-503', isCount);
  if (jitter !== undefined) faults.jitterMs = jitter;
  if (force429 !== undefined) faults.next429 = force429;
  if (force503 !== undefined) faults.next5xx = force503;

  // Every route checks company ids as UUIDs, so another id would leave the demo fund unreachable.
  if (values.company !== undefined && !UUID.test(values.company)) {
    throw new Error(`--company must be a UUID (like ${DEMO_IDS.fund}), not "${values.company}"; pass a UUID or leave the flag out for the default.`);
  }

  const options: EmulatorOptions = { faults };
  if (values.token !== undefined) options.token = values.token;
  if (values.company !== undefined) options.companyId = values.company;
  if (values.empty) options.empty = true;
  if (values.data !== undefined) options.dataFile = values.data;
  if (values['retry-after']) options.retryAfter = true;
  const rateLimit = numberFlag(values['rate-limit'], 'rate-limit', (n) => Number.isInteger(n) && n >= 1);
  const rateWindow = numberFlag(values['rate-window'], 'rate-window', (n) => Number.isInteger(n) && n >= 1);
  if (rateLimit !== undefined) options.rateLimit = rateLimit;
  if (rateWindow !== undefined) options.rateWindowSeconds = rateWindow;

  const emulator = buildEmulator(options);
  const stop = (): void => {
    emulator.app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  emulator.app.listen({ port, host: '127.0.0.1' }).then(
    (address) => {
      process.stdout.write(`Emulator listening on ${address} (token: ${emulator.token}, company: ${emulator.companyId})\n`);
    },
    (error: unknown) => {
      process.stderr.write(`Emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

try {
  main();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
