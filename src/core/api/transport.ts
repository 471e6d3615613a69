// The wire, as the client sees it: synchronous, because Apps Script's UrlFetchApp is.

import type { FetchRefusedError, NetworkError } from '../errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  /** JSON text, for POST and PUT. */
  body?: string;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

export interface Transport {
  /** Sends one request; throws NetworkError when no response came back, FetchRefusedError when it was not sent. */
  fetch(request: HttpRequest): HttpResponse;
  /** Sends concurrently, failures in their slots; when a lost connection fails the call, each says so (`waveSize`). */
  fetchAll(requests: HttpRequest[]): Array<HttpResponse | NetworkError | FetchRefusedError>;
}

/** Time as the client needs it: Apps Script sleeps synchronously. */
export interface Clock {
  now(): number;
  sleep(ms: number): void;
}
