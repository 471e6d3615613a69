// A fake transport that refuses the unexpected: every request must match the next scripted step.

import { FetchRefusedError, NetworkError, type RefusalReason } from '../../src/core/errors';
import type { Clock, HttpRequest, HttpResponse, Transport } from '../../src/core/api/transport';

export type Reply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | 'network-error'
  /** This connection drops inside a fetchAll, which then fails the whole wave, as UrlFetchApp does. */
  | 'drop-wave'
  /** Apps Script refuses to send it (a quota, a size limit), with its message. */
  | { refused: RefusalReason; message: string };

export interface Step {
  /** e.g. 'GET /data_points?metric_id=…&page=1', matched exactly against method + path + decoded query. */
  match: string | RegExp;
  /** Match a string as a prefix instead, for requests whose query the test does not spell out. */
  prefix?: boolean;
  reply: Reply;
}

export class ScriptedTransport implements Transport {
  readonly sent: HttpRequest[] = [];
  /** Sizes of each fetchAll call, to assert concurrency waves. */
  readonly waves: number[] = [];
  private readonly steps: Step[];

  /**
   * `fallback`: the answer to a request no scripted step matches (undefined: refused as unexpected), for
   * requests a test does not script one by one (the exporter's compare reads before each wave).
   */
  constructor(
    steps: Step[],
    private readonly fallback?: (line: string) => Reply | undefined,
  ) {
    this.steps = [...steps];
  }

  fetch(request: HttpRequest): HttpResponse {
    const reply = this.take(request);
    if (reply === 'network-error' || reply === 'drop-wave') throw new NetworkError('connection reset', request.url);
    if (reply instanceof FetchRefusedError) throw reply;
    return reply;
  }

  fetchAll(requests: HttpRequest[]): Array<HttpResponse | NetworkError | FetchRefusedError> {
    this.waves.push(requests.length);
    const replies = requests.map((request) => this.take(request));
    if (replies.includes('drop-wave')) return requests.map((request) => new NetworkError('connection reset during fetchAll', request.url, requests.length));
    return replies.map((reply, i) => (reply === 'network-error' || reply === 'drop-wave' ? new NetworkError('connection reset', requests[i]!.url) : reply));
  }

  /** Fails the test if scripted steps were never used. */
  assertDone(): void {
    if (this.steps.length) throw new Error(`Unused scripted steps: ${this.steps.map((s) => String(s.match)).join(', ')}`);
  }

  private take(request: HttpRequest): HttpResponse | FetchRefusedError | 'network-error' | 'drop-wave' {
    this.sent.push(request);
    const line = `${request.method} ${decodeURIComponent(request.url.replace(/^https?:\/\/[^/]+/, ''))}`;
    const index = this.steps.findIndex((step) =>
      typeof step.match === 'string' ? line === step.match || (step.prefix === true && line.startsWith(step.match)) : step.match.test(line),
    );
    const fallback = index < 0 ? this.fallback?.(line) : undefined;
    if (index < 0 && !fallback) throw new Error(`Unexpected request: ${line}`);
    const reply = fallback ?? this.steps.splice(index, 1)[0]!.reply;
    if (reply === 'network-error' || reply === 'drop-wave') return reply;
    if ('refused' in reply) return new FetchRefusedError(reply.message, request.url, reply.refused);
    return {
      status: reply.status,
      headers: reply.headers ?? {},
      body: reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body),
    };
  }
}

/** A clock whose sleeps only move time forward, and which records every sleep. */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(private time = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.time;
  }
  sleep(ms: number): void {
    this.sleeps.push(ms);
    this.time += ms;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/** A transport whose every request (or concurrent batch) takes `ms` of the fake clock, to run into deadlines. */
export class SlowTransport extends ScriptedTransport {
  constructor(
    steps: Step[],
    private readonly clock: FakeClock,
    private readonly ms: number,
    fallback?: (line: string) => Reply | undefined,
  ) {
    super(steps, fallback);
  }
  override fetch(request: HttpRequest): HttpResponse {
    this.clock.advance(this.ms);
    return super.fetch(request);
  }
  override fetchAll(requests: HttpRequest[]): Array<HttpResponse | NetworkError | FetchRefusedError> {
    this.clock.advance(this.ms);
    return super.fetchAll(requests);
  }
}

/** An error answer in the API's shape. */
export const errorReply = (status: number, type: string, field?: string, message?: string): { status: number; body: unknown } => ({
  status,
  body: { errors: [{ type, ...(field ? { field } : {}), ...(message ? { message } : {}) }] },
});
