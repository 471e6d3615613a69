// What a failed request means for a job that writes (an export, an audit push, an import), in four
// kinds: retry later (wait), refused, unknown whether stored, stop.

import {
  ApiError,
  ConfigError,
  dailyQuotaOf,
  FetchRefusedError,
  InputError,
  ListChangedError,
  NetworkError,
  OutOfTimeError,
  PermissionMissingError,
  RateLimitedError,
  shortReason,
  userSentence,
  type ReasonSubject,
} from '../errors';
import type { WaveFailureEffect } from './wave-step';

/** `build`: the audit build's reads (GETs), which, like a PUT, are safe to send again. */
export type JobKind = 'export' | 'push' | 'import' | 'build';

export type Failure =
  /** The rate limit, or too little of the step's time left: the server did not act; the same request goes again later. */
  | Extract<WaveFailureEffect, { kind: 'wait' }>
  /** A 4xx other than 401, 408 and 429 (with the ApiError), or Apps Script's refusal to send: nothing was stored. */
  | { kind: 'refused'; reason: string; error?: ApiError }
  /** The server may have acted (a lost connection, a 5xx, a 408): a PUT may be sent again, a POST not blindly. */
  | { kind: 'unknown'; message: string }
  /** Nothing can go on until the user acts (token rejected, settings missing). */
  | { kind: 'stop'; message: string };

const SUBJECT: Record<JobKind, ReasonSubject> = { export: 'metric', push: 'property value', import: 'record', build: 'record' };

/** Sorts a failure. The requester has already retried what is safe, so what arrives here is final for this step. */
export function classifyFailure(error: unknown, job: JobKind): Failure {
  if (error instanceof OutOfTimeError) return { kind: 'wait', message: error.message, outOfTime: true };
  if (error instanceof RateLimitedError) return { kind: 'wait', message: error.message, retryAfterMs: error.retryAfterSeconds * 1000 };
  if (error instanceof NetworkError) return { kind: 'unknown', message: userSentence(error) };
  // A list read while another writer changed it: nothing was kept, and the read goes again in a moment.
  if (error instanceof ListChangedError) return { kind: 'wait', message: error.message, retryAfterMs: 5_000 };
  // Apps Script did not send it (a quota, a size limit): this item fails with that reason, the others go on.
  if (error instanceof FetchRefusedError) return { kind: 'refused', reason: shortReason(error) };
  if (error instanceof ApiError) {
    if (error.status === 429) {
      return { kind: 'wait', message: userSentence(error), ...(error.retryAfterSeconds !== undefined ? { retryAfterMs: error.retryAfterSeconds * 1000 } : {}) };
    }
    if (error.status === 401) return { kind: 'stop', message: userSentence(error) };
    if (error.status >= 400 && error.status < 500 && error.status !== 408) return { kind: 'refused', reason: shortReason(error, SUBJECT[job]), error };
    return { kind: 'unknown', message: userSentence(error) };
  }
  if (error instanceof ConfigError) return { kind: 'stop', message: error.message };
  // A permission not granted: nothing was sent, and nothing will be until the person grants it.
  if (error instanceof PermissionMissingError) return { kind: 'stop', message: error.message };
  // The client's own checks of an import's ids, raised before anything is sent.
  if (error instanceof InputError && job === 'import') return { kind: 'refused', reason: shortReason(error) };
  // A daily quota of Apps Script (a property read or write of the job's own bookkeeping) is expected, and says which.
  const message = dailyQuotaOf(error) ? userSentence(error) : `The ${job} stopped on an unexpected error: ${userSentence(error)}`;
  // An error of no known kind may have come after a POST went out; a PUT job stops rather than loop on a bug.
  return job === 'import' ? { kind: 'unknown', message } : { kind: 'stop', message };
}

/** Of several failures in one wave, the one that decides what happens next. */
export function worseFailure(a: Failure | undefined, b: Failure): Failure {
  if (!a) return b;
  const rank = { refused: 0, unknown: 1, wait: 2, stop: 3 } as const;
  if (rank[b.kind] !== rank[a.kind]) return rank[b.kind] > rank[a.kind] ? b : a;
  if (a.kind === 'wait' && b.kind === 'wait') return (b.retryAfterMs ?? 0) > (a.retryAfterMs ?? 0) ? b : a;
  return a;
}

/** A wave's failure for a PUT job, whose unknown outcomes are safe to send again next step. */
export function waveEffect(failure: Failure): WaveFailureEffect {
  switch (failure.kind) {
    case 'stop':
      return { kind: 'pause', message: failure.message };
    case 'refused':
      return { kind: 'none' };
    case 'unknown':
      return { kind: 'transient', message: failure.message };
    case 'wait':
      return failure;
  }
}
