// Step-driven jobs (imports, audit pushes) wait between steps in the user's cache, for six hours.

import { ChunkedCache } from '../core/cache/chunked-cache';
import { userCache } from './cache-and-lock';

const SIX_HOURS = 6 * 60 * 60;

function cache(): ChunkedCache {
  return new ChunkedCache(userCache(), () => Utilities.getUuid().slice(0, 8));
}

export function newJobId(): string {
  return Utilities.getUuid();
}

export function loadJob<T>(kind: string, id: string): T | null {
  const text = cache().get(`${kind}:${id}`);
  return text ? (JSON.parse(text) as T) : null;
}

export function saveJob<T>(kind: string, id: string, job: T): void {
  cache().put(`${kind}:${id}`, JSON.stringify(job), SIX_HOURS);
}

/** A cancel pressed while a step runs is seen by that step before its next row. */
export function requestJobCancel(kind: string, id: string): void {
  userCache().put(`${kind}-cancel:${id}`, '1', SIX_HOURS);
}

export function jobCancelRequested(kind: string, id: string): boolean {
  return userCache().get(`${kind}-cancel:${id}`) === '1';
}

export function clearJobCancel(kind: string, id: string): void {
  userCache().remove(`${kind}-cancel:${id}`);
}
