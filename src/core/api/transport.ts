// The wire, as the client sees it: synchronous, because Apps Script's UrlFetchApp is.

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

/** The request never produced a response: refused, reset, timed out or unresolvable. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    message: string,
    readonly url: string,
    /**
     * How many requests failed together: UrlFetchApp.fetchAll throws for the whole wave when one
     * connection drops, so no one knows which request it was. 1 when this request alone failed.
     */
    readonly waveSize = 1,
  ) {
    super(message);
  }
}

/** Why Apps Script would not send a request. */
export type RefusalReason = 'daily_quota' | 'url_too_long' | 'payload_too_large' | 'other';

/**
 * Apps Script refused to send the request (its daily URL-fetch quota, its 2 kB URL limit, a payload too
 * large): nothing reached the server. Never retried, since the same request would be refused again.
 */
export class FetchRefusedError extends Error {
  override readonly name = 'FetchRefusedError';
  constructor(
    message: string,
    readonly url: string,
    readonly reason: RefusalReason,
  ) {
    super(message);
  }
}

export interface Transport {
  /** Sends one request; throws NetworkError when no response came back, FetchRefusedError when it was not sent. */
  fetch(request: HttpRequest): HttpResponse;
  /**
   * Sends the requests concurrently; failures are returned in their slots rather than thrown. When the
   * platform fails the whole call for one lost connection, every slot holds a NetworkError whose
   * `waveSize` says so.
   */
  fetchAll(requests: HttpRequest[]): Array<HttpResponse | NetworkError | FetchRefusedError>;
}

/** Time as the client needs it: Apps Script sleeps synchronously. */
export interface Clock {
  now(): number;
  sleep(ms: number): void;
}
