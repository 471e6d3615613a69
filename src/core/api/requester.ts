// The one layer every API call goes through: URL and auth, the request budget, retries, error parsing.

import { ApiError, FetchRefusedError, NetworkError, OutOfTimeError, RateLimitedError, serverRateLimitSentence, type ErrorItem } from '../errors';
import { NO_SUPPORT_LOG, type RequestOutcome, type SupportLog } from '../log/support-log';
import { missingCredential, type CredentialsOf } from '../settings/credential-sentences';
import { encodeQuery, type Query } from './query';
import type { RequestBudget } from './rate-budget';
import { DEFAULT_RETRY_POLICY, MAX_RETRY_AFTER_MS, decideRetry, parseRetryAfter, type Outcome, type RetryPolicy } from './retry-policy';
import type { Clock, HttpMethod, HttpRequest, HttpResponse, Transport } from './transport';
import { MAX_WAVE } from '../pacing';
export { MAX_WAVE };

export interface ApiRequest {
  method: HttpMethod;
  /** Already filled and encoded, see fillPath. */
  path: string;
  query?: Query;
  body?: unknown;
}

export interface ApiResult<T> {
  status: number;
  data: T;
}

export type Settled<T> = { ok: true; result: ApiResult<T> } | { ok: false; error: Error };

export interface RequesterOptions {
  baseUrl: string;
  token: string;
  /** Whose settings the token came from, for the sentence when it is missing (default the caller's). */
  credentialsOf?: CredentialsOf;
  transport: Transport;
  clock: Clock;
  /** Shared pacing under the rate limit; without it requests are sent as fast as asked. */
  budget?: RequestBudget;
  retry?: Partial<RetryPolicy>;
  /** When (ms since epoch) every call must have finished: a custom function has 30 s. */
  deadline?: number;
  /** Told of every wait, so long work can show "waiting for the rate limit". */
  onWait?: (event: WaitEvent) => void;
  /** Where each request's method, path, status and time, each wait and each give-up go, for support (core/log). */
  log?: SupportLog;
}

export interface WaitEvent {
  reason: 'rate_limit' | 'retry';
  ms: number;
}

/** No wave starts with less time left: Apps Script ends an execution mid-request (30 s, 6 min), losing the answers. */
const MIN_ROUND_TRIP_MS = 2000;

interface Pending {
  index: number;
  request: HttpRequest;
  /** The collection the path starts with (/portfolio_notes/{id}). */
  about: string;
  attempt: number;
}

export class Requester {
  private readonly policy: RetryPolicy;
  private readonly baseUrl: string;
  private readonly log: SupportLog;
  /** The slowest wave so far: the next may take as long. */
  private longestRoundTripMs = 0;

  constructor(private readonly options: RequesterOptions) {
    if (!options.token) throw missingCredential('token', options.credentialsOf ?? 'caller');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.log = options.log ?? NO_SUPPORT_LOG;
  }

  now(): number {
    return this.options.clock.now();
  }

  /** Time left before the deadline this requester was given (Infinity without one). */
  remainingMs(): number {
    return (this.options.deadline ?? Number.POSITIVE_INFINITY) - this.now();
  }

  send<T>(request: ApiRequest): ApiResult<T> {
    return this.sendAll<T>([request])[0]!;
  }

  /** Sends `{ [key]: record }` and returns the record the API answers under the same key. */
  sendRecord<T>(method: HttpMethod, path: string, key: string, record: unknown): T {
    return this.send<Record<string, T>>({ method, path, body: { [key]: record } }).data[key] as T;
  }

  /** Sends concurrently and throws the first failure, for reads that are all-or-nothing. */
  sendAll<T>(requests: readonly ApiRequest[]): Array<ApiResult<T>> {
    return this.sendAllSettled<T>(requests).map((settled) => {
      if (!settled.ok) throw settled.error;
      return settled.result;
    });
  }

  /** Sends in waves no larger than the budget grants, retries by the policy, and returns each outcome in order. */
  sendAllSettled<T>(requests: readonly ApiRequest[]): Array<Settled<T>> {
    const results: Array<Settled<T> | undefined> = new Array(requests.length);
    let queue: Pending[] = requests.map((request, index) => ({ index, request: this.toHttp(request), about: request.path.split('/')[1] ?? '', attempt: 0 }));
    let waitedMs = 0;
    const deadline = this.options.deadline ?? Number.POSITIVE_INFINITY;
    // After a 429 without Retry-After the window is unknown: one request probes it, rather than a wave
    // meeting as many refusals (each of which the server counts).
    let probe = false;
    // Halved each time one lost connection fails a whole fetchAll, so a flaky link ends in waves small enough
    // to pass; a wave of one fails alone and spends its own retries.
    let waveCap = MAX_WAVE;
    const fail = (pendings: readonly Pending[], error: Error): void => {
      for (const pending of pendings) results[pending.index] = { ok: false, error };
    };

    /** Fails what is left when too little time is left for a round trip: UrlFetchApp cannot cut a request short. */
    const outOfTime = (): boolean => {
      const tooLate = this.refuseWithoutTime(queue.length);
      if (!tooLate) return false;
      this.log.write({ kind: 'not-sent', reason: 'out_of_time', requests: queue.length, leftMs: this.remainingMs() });
      fail(queue, tooLate);
      return true;
    };

    while (queue.length > 0) {
      if (outOfTime()) break;
      const wanted = probe ? 1 : Math.min(queue.length, waveCap);
      let granted: number;
      try {
        // The budget sleeps while the user's window is full (or another execution met a 429).
        const onBudgetWait = (ms: number): void => this.log.write({ kind: 'wait', reason: 'budget', ms });
        // A wait for the budget that ends with no time for the round trip would start a request UrlFetchApp cannot
        // cut short (it takes no timeout): a cell would die at 30 s with "Exceeded maximum execution time".
        granted = this.options.budget ? this.options.budget.take(wanted, deadline - this.roundTripMs(), onBudgetWait) : wanted;
      } catch (error) {
        // The rate limit outlasts the execution: what was answered stays so, the rest is told why.
        if (!(error instanceof RateLimitedError)) throw error;
        this.log.write({ kind: 'not-sent', reason: 'budget', requests: queue.length, waitMs: error.retryAfterSeconds * 1000 });
        fail(queue, error);
        break;
      }
      // Again at the moment of sending: taking the budget may have waited for the user's lock (5 s each time while
      // another execution, such as a scheduled refresh, holds it), which a cell's 30 s cannot afford twice. The
      // slots it granted stay counted: the budget is cautious for one window, never short.
      if (outOfTime()) break;
      const wave = queue.slice(0, granted);
      const rest = queue.slice(granted);
      const sentAt = this.now();
      const responses = wave.length === 1 ? [this.fetchOne(wave[0]!.request)] : this.options.transport.fetchAll(wave.map((p) => p.request));
      const roundTripMs = this.now() - sentAt;
      this.longestRoundTripMs = Math.max(this.longestRoundTripMs, roundTripMs);
      const logAnswer = (pending: Pending, outcome: RequestOutcome): void =>
        this.log.write({
          kind: 'request',
          method: pending.request.method,
          url: pending.request.url,
          outcome,
          ms: roundTripMs,
          attempt: pending.attempt,
          wave: wave.length,
        });

      const again: Pending[] = [];
      let waitMs = 0;
      let rateLimited = false;
      /** The longest wait a 429's Retry-After asked for: all this execution may hold the user's others back for. */
      let serverAskedMs = 0;
      probe = false;
      let lastError: Error | undefined;
      let waveDropped = false;
      wave.forEach((pending, i) => {
        const response = responses[i] ?? new NetworkError('No response in fetchAll result.', pending.request.url);
        if (response instanceof FetchRefusedError) {
          logAnswer(pending, { notSent: response.reason });
          // Apps Script did not send it, and would refuse the same request again: never retried.
          results[pending.index] = { ok: false, error: response };
          return;
        }
        const network = response instanceof NetworkError;
        if (!network && response.status < 300) {
          logAnswer(pending, { status: response.status });
          results[pending.index] = parseBody<T>(response, pending.request);
          return;
        }
        const outcome: Outcome = network
          ? { kind: 'network', unreachable: response.unreachable }
          : { kind: 'status', status: response.status, retryAfter: response.headers['retry-after'] };
        const error = network ? response : toApiError(response, pending, this.now());
        logAnswer(pending, error instanceof ApiError ? { status: error.status, code: error.code } : { network: error.unreachable ? 'unreachable' : 'dropped' });
        const decision = decideRetry(this.policy, pending.request.method, outcome, pending.attempt, this.now());
        if (!decision.retry) {
          results[pending.index] = { ok: false, error };
          return;
        }
        if (outcome.kind === 'status' && outcome.status === 429) {
          rateLimited = true;
          if (!decision.fromServer) probe = true;
          else serverAskedMs = Math.max(serverAskedMs, decision.delayMs);
        }
        waitMs = Math.max(waitMs, decision.delayMs);
        lastError = error;
        // One lost connection failed the whole wave: none is known at fault, so none spends a retry (the
        // smaller waves that follow bound how often that happens).
        const shared = network && response.waveSize > 1;
        if (shared) waveDropped = true;
        again.push({ ...pending, attempt: shared ? pending.attempt : pending.attempt + 1 });
      });

      if (waveDropped) waveCap = Math.max(1, Math.floor(wave.length / 2));
      if (again.length > 0) {
        const now = this.now();
        // A wait that leaves no time for the round trip after it is as useless as one past the deadline.
        const tooLong = waitMs > MAX_RETRY_AFTER_MS || waitedMs + waitMs > this.policy.maxTotalWaitMs || now + waitMs + this.roundTripMs() > deadline;
        // The user's other executions hold back too: while this one waits to try again, as long as it waits;
        // when it gives up, only as long as the server asked (a Retry-After), never for its own backoff's guess
        // or because its own deadline is near (otherwise other cells were refused for a limit not reached).
        const holdOthersMs = tooLong ? serverAskedMs : waitMs;
        if (rateLimited && holdOthersMs > 0) this.options.budget?.blockUntil(now + holdOthersMs);
        if (tooLong) {
          const seconds = Math.ceil(waitMs / 1000);
          const giveUp = rateLimited ? new RateLimitedError(serverRateLimitSentence(seconds), seconds) : (lastError ?? new Error('Retry budget exhausted.'));
          this.log.write({ kind: 'not-sent', reason: rateLimited ? 'rate_limit' : 'retry', requests: again.length + (rateLimited ? rest.length : 0), waitMs });
          fail(again, giveUp);
          // Given up on a 429: the rest of this call would meet the same refusal, so none of it is sent (the
          // user's other executions are not held back past what the server asked, but this one stops here).
          if (rateLimited) {
            fail(rest, giveUp);
            queue = [];
          } else queue = rest;
          continue;
        }
        this.options.onWait?.({ reason: rateLimited ? 'rate_limit' : 'retry', ms: waitMs });
        this.log.write({ kind: 'wait', reason: rateLimited ? 'rate_limit' : 'retry', ms: waitMs });
        this.options.clock.sleep(waitMs);
        waitedMs += waitMs;
      }
      queue = [...again, ...rest];
    }
    return results.map((r) => r ?? { ok: false, error: new Error('A request was left without an outcome.') });
  }

  private roundTripMs(): number {
    return Math.max(MIN_ROUND_TRIP_MS, this.longestRoundTripMs);
  }

  private refuseWithoutTime(unsent: number): OutOfTimeError | undefined {
    const needMs = this.roundTripMs();
    const leftMs = this.remainingMs();
    if (leftMs >= needMs) return undefined;
    const requests = unsent === 1 ? '1 request was' : `${unsent} requests were`;
    return new OutOfTimeError(
      `This run is close to Apps Script's time limit (${Math.max(0, Math.floor(leftMs / 1000))} s left, and an answer can take ${Math.ceil(needMs / 1000)} s), so ${requests} not sent. Run it again to finish; for a formula, narrow the date range or split it over several formulas.`,
      unsent,
    );
  }

  private fetchOne(request: HttpRequest): HttpResponse | NetworkError | FetchRefusedError {
    try {
      return this.options.transport.fetch(request);
    } catch (error) {
      if (error instanceof NetworkError || error instanceof FetchRefusedError) return error;
      throw error;
    }
  }

  private toHttp(request: ApiRequest): HttpRequest {
    const query = encodeQuery(request.query ?? {});
    const http: HttpRequest = {
      method: request.method,
      url: `${this.baseUrl}${request.path}${query ? `?${query}` : ''}`,
      headers: { Authorization: `Bearer ${this.options.token}`, Accept: 'application/json' },
    };
    if (request.body !== undefined) {
      http.headers['Content-Type'] = 'application/json';
      http.body = JSON.stringify(request.body);
    }
    return http;
  }
}

function pathOf(request: HttpRequest): string {
  const match = /^[a-z]+:\/\/[^/]+([^?#]*)/i.exec(request.url);
  return match?.[1] ?? request.url;
}

function parseBody<T>(response: HttpResponse, request: HttpRequest): Settled<T> {
  try {
    return { ok: true, result: { status: response.status, data: JSON.parse(response.body) as T } };
  } catch {
    const error = new ApiError(response.status, [{ type: 'unexpected_response', message: 'the response was not JSON' }], request.method, pathOf(request));
    return { ok: false, error };
  }
}

function toApiError(response: HttpResponse, { request, about }: Pending, nowMs: number): ApiError {
  let errors: unknown;
  try {
    errors = (JSON.parse(response.body) as { errors?: unknown }).errors;
  } catch {
    // Proxies and load balancers answer 5xx with HTML; the status alone says what happened.
  }
  const items = Array.isArray(errors)
    ? errors.filter((e): e is ErrorItem => typeof e === 'object' && e !== null && typeof (e as ErrorItem).type === 'string')
    : [];
  const retryAfterMs = parseRetryAfter(response.headers['retry-after'], nowMs);
  const seconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  return new ApiError(response.status, items, request.method, pathOf(request), seconds, about);
}
