// Helpers for tests: start the emulator as a child process (or in-process for its own suite) and drive its control API.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { SyncHttpClient } from '../gas-runtime/sync-http';
import path from 'node:path';
import { buildEmulator, type EmulatorOptions } from './app';
import type { FaultSettings } from './faults';
import type { FixtureInput, FixtureResult } from './fixtures';
import type { RateLimitSettings } from './rate-limit';
import type { EmulatorState } from './records';
import type { LoggedRequest } from './request-log';

/** The control API, over HTTP. */
export interface EmulatorControl {
  /** Back to the start-up state (demo data unless `empty`), faults, rate counts, clock offset, request log. */
  reset(options?: { empty?: boolean }): Promise<void>;
  /** Merges fault settings; returns those in force. `{ reset: true }` restores the start-up faults. */
  faults(settings: Partial<FaultSettings> | { reset: true }): Promise<FaultSettings>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  /** Ends the delay of every request held now (latency, jitter, slowNext); answers how many there were. */
  release(): Promise<number>;
  /** Moves the emulator's clock (and so its rate window) forward. */
  advanceClock(ms: number): Promise<void>;
  /**
   * Changes the rate limit at run time; counts restart. `freshWindow` also moves the clock to the start
   * of the next window, so a test meets the limit with the whole window ahead of it.
   */
  rateLimit(settings: Partial<RateLimitSettings> & { freshWindow?: boolean }): Promise<RateLimitSettings>;
  fixtures(input: FixtureInput): Promise<FixtureResult>;
  state(): Promise<EmulatorState>;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:54321 (no trailing slash). */
  url: string;
  token: string;
  companyId: string;
  control: EmulatorControl;
  stop(): Promise<void>;
}

/** Options of a child-process emulator: the CLI's flags, typed. */
export interface ProcessOptions {
  token?: string;
  companyId?: string;
  empty?: boolean;
  dataFile?: string;
  rateLimit?: number;
  rateWindowSeconds?: number;
  retryAfter?: boolean;
  latencyMs?: number;
  failRate?: number;
  dropRate?: number;
  seed?: number;
  /** Up to this many random milliseconds more per response (`--jitter`). */
  jitterMs?: number;
  /** The next N API requests answer 429 (`--force-429`). */
  force429?: number;
  /** The next N API requests answer 503 (`--force-503`). */
  force503?: number;
  /** How long to wait for the ready line (default 45 s). */
  startTimeoutMs?: number;
}

const REPO_ROOT = path.resolve(__dirname, '..');
const CLI = path.join(__dirname, 'cli.ts');
const READY_LINE = /^Emulator listening on (http:\/\/\S+) \(token: (\S+), company: (\S+)\)$/m;

/**
 * The command line's script: the bundle a jest run built (test/support/server-bundles.js names it in
 * EMULATOR_BUNDLE), which plain node starts without compiling anything; otherwise cli.ts through tsx.
 */
export function cliArgs(): string[] {
  const bundle = process.env.EMULATOR_BUNDLE;
  return bundle && existsSync(bundle) ? [bundle] : ['--import', 'tsx', CLI];
}

/**
 * Spawns `node --import tsx emulator/cli.ts --port 0 ...` (or its bundle, see cliArgs) and resolves when it
 * prints its ready line. A separate process, because the Node runtime for Apps Script blocks its thread
 * during synchronous fetches.
 */
export function startEmulatorProcess(options: ProcessOptions = {}): Promise<RunningEmulator> {
  const args = [...cliArgs(), '--port', '0', ...flagsOf(options)];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    // Generous: on a busy 2-core machine several suites start processes at once,
    // well inside jest's 60 s hook timeout.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`emulator did not start in time.\nstdout: ${output}\nstderr: ${errors}`));
    }, options.startTimeoutMs ?? 45_000);
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY_LINE.exec(output);
      if (!match?.[1] || !match[2] || !match[3]) return;
      clearTimeout(timer);
      resolve(running(match[1], match[2], match[3], () => stopChild(child)));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with code ${String(code)} before it was ready.\nstderr: ${errors}`));
    });
  });
}

/** Starts an emulator in this process on a free loopback port (for the emulator's own conformance tests). */
export async function startEmulatorInProcess(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emulator = buildEmulator(options);
  const address = await emulator.app.listen({ port: 0, host: '127.0.0.1' });
  return running(address, emulator.token, emulator.companyId, () => emulator.app.close());
}

function flagsOf(options: ProcessOptions): string[] {
  const flags: string[] = [];
  const add = (name: string, value: string | number | undefined): void => {
    if (value !== undefined) flags.push(`--${name}`, String(value));
  };
  add('token', options.token);
  add('company', options.companyId);
  add('data', options.dataFile);
  add('rate-limit', options.rateLimit);
  add('rate-window', options.rateWindowSeconds);
  add('latency', options.latencyMs);
  add('fail-rate', options.failRate);
  add('drop-rate', options.dropRate);
  add('seed', options.seed);
  add('jitter', options.jitterMs);
  add('force-429', options.force429);
  add('force-503', options.force503);
  if (options.empty) flags.push('--empty');
  if (options.retryAfter) flags.push('--retry-after');
  return flags;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Moves the emulator's clock from synchronous code: the runtime's sleeps are virtual, and moving the
 * emulator's clock with them keeps its rate window in step (for a runtime's `onSleep`).
 */
export function emulatorClockMover(url: string): { advance(ms: number): void; close(): Promise<void> } {
  const client = new SyncHttpClient();
  const advance = (ms: number): void => {
    client.sendAll([
      {
        url: `${url}/__emulator/clock`,
        method: 'POST',
        headers: [['content-type', 'application/json']],
        body: new TextEncoder().encode(JSON.stringify({ advanceMs: ms })),
        followRedirects: false,
        rejectUnauthorized: true,
        timeoutMs: 5000,
      },
    ]);
  };
  return { advance, close: () => client.close() };
}

/**
 * One control call on a connection of its own. Not fetch: its pooled keep-alive socket may sit idle while a
 * test or bench blocks the event loop with synchronous fetches for over a minute, and the server closes it;
 * reusing it then failed with "fetch failed" (control calls such as clock moves must not be retried blindly).
 */
function controlRequest(method: string, url: string, body?: unknown): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, agent: false, headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

function running(url: string, token: string, companyId: string, stop: () => Promise<unknown>): RunningEmulator {
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const { status, text } = await controlRequest(method, `${url}/__emulator/${route}`, body);
    if (status < 200 || status > 299) throw new Error(`control ${method} ${route} answered ${status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    url,
    token,
    companyId,
    control: {
      reset: async (options = {}) => {
        await call('POST', 'reset', options);
      },
      faults: (settings) => call<FaultSettings>('POST', 'faults', settings),
      requests: async () => (await call<{ requests: LoggedRequest[] }>('GET', 'requests')).requests,
      clearRequests: async () => {
        await call('DELETE', 'requests');
      },
      release: async () => (await call<{ released: number }>('POST', 'release')).released,
      advanceClock: async (ms) => {
        await call('POST', 'clock', { advanceMs: ms });
      },
      rateLimit: (settings) => call<RateLimitSettings>('POST', 'rate-limit', settings),
      fixtures: async (input) => (await call<{ created: FixtureResult }>('POST', 'fixtures', input)).created,
      state: () => call<EmulatorState>('GET', 'state'),
    },
    stop: async () => {
      await stop();
    },
  };
}
