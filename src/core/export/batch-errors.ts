// What a failed request means for an export: wait, retry later, stop one metric, or stop everything.

import { ApiError, ConfigError, TimeBudgetError, userMessage } from '../api/errors';
import { FetchRefusedError, NetworkError } from '../api/transport';
import { asReason, quote } from './places';
import type { ExportItemState } from './types';

export type Failure =
  /**
   * The rate limit, or (outOfTime) too little of the step's time left for a round trip: the same batch goes
   * again later. Not a failure of the data.
   */
  | { kind: 'wait'; retryAfterMs?: number; message: string; outOfTime?: true }
  /** 5xx, lost connections, or a retry budget spent: the batch stays pending for the next step. */
  | { kind: 'transient'; message: string }
  /** Nothing can proceed until the user acts (token rejected, settings missing): the export pauses. */
  | { kind: 'export'; message: string }
  /** The API refused this metric's request: the metric stops, other metrics go on. */
  | { kind: 'metric'; error: ApiError }
  /** Apps Script refused to send this batch (a quota, a size limit): its items fail with the reason; the others go on. */
  | { kind: 'batch'; reason: string };

/**
 * Sorts a failure. Only a definite refusal (4xx other than 401, 408 and 429) fails items: everything else
 * leaves them pending, because PUT is idempotent and sending a batch again can never duplicate anything.
 */
export function classifyFailure(error: unknown): Failure {
  if (error instanceof TimeBudgetError) {
    // Without seconds to wait it is the execution's time running out, not the rate limit.
    if (error.retryAfterSeconds === undefined) return { kind: 'wait', message: error.message, outOfTime: true };
    return { kind: 'wait', message: error.message, retryAfterMs: error.retryAfterSeconds * 1000 };
  }
  if (error instanceof NetworkError) return { kind: 'transient', message: userMessage(error) };
  if (error instanceof FetchRefusedError) return { kind: 'batch', reason: `not sent: ${asReason(userMessage(error))}` };
  if (error instanceof ApiError) {
    if (error.status === 429) {
      return { kind: 'wait', message: userMessage(error), ...(error.retryAfterSeconds !== undefined ? { retryAfterMs: error.retryAfterSeconds * 1000 } : {}) };
    }
    if (error.status === 401) return { kind: 'export', message: userMessage(error) };
    if (error.status >= 400 && error.status < 500 && error.status !== 408) return { kind: 'metric', error };
    // 5xx, 408, and a 2xx whose body was unreadable (the batch may be stored; sending it again is harmless).
    return { kind: 'transient', message: userMessage(error) };
  }
  if (error instanceof ConfigError) return { kind: 'export', message: error.message };
  return { kind: 'export', message: `The export stopped on an unexpected error: ${userMessage(error)}` };
}

/** Of several failures in one wave, the one that decides what happens next. */
export function worseFailure(a: Failure | undefined, b: Failure): Failure {
  if (!a) return b;
  const rank = { batch: 0, metric: 0, transient: 1, wait: 2, export: 3 } as const;
  if (rank[b.kind] !== rank[a.kind]) return rank[b.kind] > rank[a.kind] ? b : a;
  if (a.kind === 'wait' && b.kind === 'wait') return (b.retryAfterMs ?? 0) > (a.retryAfterMs ?? 0) ? b : a;
  return a;
}

const ITEM_FIELD = /^data_points\[(\d+)\](?:\.(\w+))?$/;

export type Refusal = {
  /** One reason per item of the batch, in batch order. */
  reasons: string[];
  /** Position in the batch of the item that caused the refusal: the first item when the API names none. */
  culprit: number;
};

/**
 * Maps a refused upsert back onto its items. A 422 naming `data_points[3].date` puts the API's message
 * on that item; the upsert is all-or-nothing, so the batch's other items were not stored either and say
 * because of which row. A refusal that names no item (404, 403, 400) goes on every item of the batch.
 */
export function mapRefusal(error: ApiError, items: readonly ExportItemState[], culpritName: (position: number) => string): Refusal {
  const byPosition = new Map<number, string[]>();
  for (const problem of error.errors) {
    const match = ITEM_FIELD.exec(problem.field ?? '');
    const position = match ? Number(match[1]) : NaN;
    const item = items[position];
    if (!match || !item) continue;
    const attribute = match[2] ?? 'data point';
    const shown = attribute === 'date' && item.date !== undefined ? ` ${item.date}` : attribute === 'value' && item.value !== undefined ? ` ${item.value}` : '';
    const list = byPosition.get(position) ?? [];
    list.push(`the API refused the ${attribute}${shown}: ${asReason(problem.message ?? problem.type)}`);
    byPosition.set(position, list);
  }
  if (byPosition.size === 0) {
    const reason = `not stored: ${refusalSentence(error)}`;
    return { reasons: items.map(() => reason), culprit: 0 };
  }
  const culprit = Math.min(...byPosition.keys());
  const others = `not stored: the API refused the whole batch because of ${culpritName(culprit)}`;
  return { reasons: items.map((_, position) => byPosition.get(position)?.join('; ') ?? others), culprit };
}

/** The server's answer to a refused request, in the words of the report. */
export function refusalSentence(error: ApiError): string {
  const detail = error.apiMessage ? asReason(error.apiMessage) : undefined;
  switch (error.status) {
    case 404:
      return `the API has no such metric${detail ? ` (${detail})` : ''}`;
    case 403:
      return 'this API token has no access to the metric';
    default:
      return `the API refused the request (HTTP ${error.status}${error.field ? `, ${quote(error.field)}` : ''}${detail ? `: ${detail}` : ''})`;
  }
}
