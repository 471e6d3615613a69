// UrlFetchApp: real, synchronous HTTP with Apps Script's parameters, limits and error messages.

import { types } from 'node:util';
import { Blob, charsetOf, decodeText, fromByteArray, isByteArray, toSignedBytes } from './blob';
import { GasError, notImplemented } from './errors';
import type { Execution } from './execution';
import { MAX_URL_LENGTH } from './limits';
import { assertNotServedByThisThread } from './same-thread-server';
import { signatureError } from './signature';
import type { UrlFetchAllowlist, UrlFetchQuotaCharger } from './url-fetch-limits';
import type { HttpRequestSpec, HttpResult, NetworkFailureKind, SyncHttpClient } from './sync-http';

/** The request options UrlFetchApp reads (URLFetchRequestOptions). */
interface FetchParams {
  method?: unknown;
  headers?: unknown;
  payload?: unknown;
  contentType?: unknown;
  muteHttpExceptions?: unknown;
  followRedirects?: unknown;
  validateHttpsCertificates?: unknown;
  escaping?: unknown;
  useIntranet?: unknown;
}

const METHODS = new Set(['GET', 'DELETE', 'PATCH', 'POST', 'PUT']);
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
/** How much of an error response Apps Script quotes in its exception. */
const TRUNCATED_RESPONSE_CHARS = 100;

interface PreparedRequest {
  /** The URL as the script wrote it: Apps Script's network errors quote it. */
  url: string;
  spec: HttpRequestSpec;
  muteHttpExceptions: boolean;
  contentType: string | null;
  payloadText: string | null;
}

/** The response of one request, with Apps Script's accessors. */
export class HTTPResponse {
  static readonly gasName = 'HTTPResponse';

  constructor(
    readonly _status: number,
    /** Name/value pairs as received, names in the server's casing. */
    readonly _rawHeaders: readonly string[],
    readonly _body: Buffer,
  ) {}

  getResponseCode(): number {
    return this._status;
  }

  getContentText(charset?: string): string {
    return decodeText(this._body, charset ?? charsetOf(this.#header('content-type')));
  }

  getContent(): number[] {
    return toSignedBytes(this._body);
  }

  getBlob(): Blob {
    return new Blob(Buffer.from(this._body), this.#header('content-type') ?? null);
  }

  /** One value per header, names as the server sent them; of repeated headers only the first value is kept. */
  getHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, values] of this.#grouped()) headers[name] = values[0] ?? '';
    return headers;
  }

  /** Every header; a header sent several times (Set-Cookie) maps to an array of its values. */
  getAllHeaders(): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = {};
    for (const [name, values] of this.#grouped()) headers[name] = values.length > 1 ? values : (values[0] ?? '');
    return headers;
  }

  #grouped(): Map<string, string[]> {
    const byLowerName = new Map<string, { name: string; values: string[] }>();
    for (let i = 0; i + 1 < this._rawHeaders.length; i += 2) {
      const name = this._rawHeaders[i] ?? '';
      const value = this._rawHeaders[i + 1] ?? '';
      const entry = byLowerName.get(name.toLowerCase());
      if (entry) entry.values.push(value);
      else byLowerName.set(name.toLowerCase(), { name, values: [value] });
    }
    return new Map([...byLowerName.values()].map((entry) => [entry.name, entry.values]));
  }

  #header(lowerName: string): string | undefined {
    for (let i = 0; i + 1 < this._rawHeaders.length; i += 2) {
      if ((this._rawHeaders[i] ?? '').toLowerCase() === lowerName) return this._rawHeaders[i + 1];
    }
    return undefined;
  }
}

function networkError(kind: NetworkFailureKind, url: string): GasError {
  switch (kind) {
    case 'dns':
      return new GasError(`DNS error: ${url}`);
    case 'timeout':
      return new GasError(`Timeout: ${url}`);
    case 'ssl':
      return new GasError(`SSL Error ${url}`);
    case 'invalid':
      return new GasError(`Invalid argument: ${url}`);
    default:
      return new GasError(`Address unavailable: ${url}`);
  }
}

function formEncode(fields: Record<string, unknown>): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value instanceof Blob) throw notImplemented('multipart payloads (a Blob inside a payload object)');
    form.append(name, String(value));
  }
  return form.toString();
}

export interface UrlFetchOptions {
  /** Gives up on a request after this long (Apps Script: about 60 s). */
  timeoutMs: number;
  scriptId: string;
  /** The daily quota, shared by every execution of the runtime (in a worker thread, counted on the host). */
  quota: UrlFetchQuotaCharger;
  /** The manifest's urlFetchWhitelist; null when it has none (every URL may be fetched). */
  allowlist: UrlFetchAllowlist | null;
  /** The runtime's `networkLatency` option (synchronous executions only). */
  latency?: NetworkLatency;
}

/** Virtual ms a request's answer takes on top of its real time (GasRuntimeOptions.networkLatency). */
export type NetworkLatency = (request: { method: string; url: string }) => number;

/** UrlFetchApp as one execution sees it: each request counts toward the execution's fetch count and its time. */
export class UrlFetchAppStandIn {
  static readonly gasName = 'UrlFetchApp';

  constructor(
    readonly _http: () => SyncHttpClient,
    readonly _execution: Execution,
    readonly _options: UrlFetchOptions,
  ) {}

  fetch(url: string, params?: FetchParams): HTTPResponse {
    if (typeof url !== 'string') throw signatureError('UrlFetchApp.fetch', [url, params]);
    const [response] = this.#send([this.#prepare(url, params ?? {})]);
    if (!response) throw new GasError(`Address unavailable: ${url}`);
    return response;
  }

  /** Sends every request at once and waits for all; any failure fails the whole call, as in Apps Script. */
  fetchAll(requests: Array<string | (FetchParams & { url?: unknown })>): HTTPResponse[] {
    if (!Array.isArray(requests)) throw signatureError('UrlFetchApp.fetchAll', [requests]);
    const prepared = requests.map((request) => {
      if (typeof request === 'string') return this.#prepare(request, {});
      if (typeof request !== 'object' || request === null || typeof request.url !== 'string') throw new GasError('Invalid argument: url');
      return this.#prepare(request.url, request);
    });
    return this.#send(prepared);
  }

  /** The request fetch() would send, without sending it. */
  getRequest(url: string, params?: FetchParams): Record<string, unknown> {
    const prepared = this.#prepare(url, params ?? {});
    const headers = Object.fromEntries(prepared.spec.headers.filter(([name]) => !/^content-type$/i.test(name)));
    return {
      url: prepared.url,
      method: prepared.spec.method.toLowerCase(),
      headers,
      payload: prepared.payloadText ?? '',
      contentType: prepared.contentType,
      followRedirects: prepared.spec.followRedirects,
      validateHttpsCertificates: prepared.spec.rejectUnauthorized,
      muteHttpExceptions: prepared.muteHttpExceptions,
      useIntranet: false,
    };
  }

  #prepare(url: string, params: FetchParams): PreparedRequest {
    const text = String(url);
    if (text.length > MAX_URL_LENGTH) throw new GasError('Limit Exceeded: URLFetch URL Length.');
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      throw new GasError(`Invalid argument: ${text}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new GasError(`Invalid argument: ${text}`);
    const method = String(params.method ?? 'get').toUpperCase();
    if (!METHODS.has(method)) throw new GasError(`Invalid argument: method`);

    const headers: Array<[string, string]> = [];
    if (params.headers !== undefined && params.headers !== null) {
      if (typeof params.headers !== 'object') throw new GasError('Invalid argument: headers');
      for (const [name, value] of Object.entries(params.headers)) headers.push([name, String(value)]);
    }
    if (!headers.some(([name]) => name.toLowerCase() === 'user-agent')) {
      headers.push(['User-Agent', `Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: ${this._options.scriptId})`]);
    }

    let body: Buffer | null = null;
    let defaultContentType = FORM_CONTENT_TYPE;
    const payload = params.payload;
    // The reference: "Certain HTTP methods (for example, GET) do not accept a payload."
    if (payload !== undefined && payload !== null && method !== 'GET') {
      if (typeof payload === 'string') body = Buffer.from(payload, 'utf8');
      else if (payload instanceof Blob) {
        body = Buffer.from(payload._buffer());
        defaultContentType = payload.getContentType() ?? FORM_CONTENT_TYPE;
      } else if (isByteArray(payload)) body = fromByteArray(payload);
      else if (typeof payload === 'object' && !Array.isArray(payload) && !types.isDate(payload))
        body = Buffer.from(formEncode(payload as Record<string, unknown>), 'utf8');
      else body = Buffer.from(String(payload), 'utf8');
    }
    let contentType: string | null = null;
    if (body) {
      const fromHeaders = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      contentType = params.contentType !== undefined && params.contentType !== null ? String(params.contentType) : (fromHeaders ?? defaultContentType);
      const others = headers.filter(([name]) => name.toLowerCase() !== 'content-type');
      headers.length = 0;
      headers.push(...others, ['Content-Type', contentType]);
    }

    return {
      url: text,
      muteHttpExceptions: params.muteHttpExceptions === true,
      contentType,
      payloadText: body ? body.toString('utf8') : null,
      spec: {
        url: parsed.toString(),
        method,
        headers,
        body,
        followRedirects: params.followRedirects !== false,
        // Honoured rather than ignored: a self-signed test server needs it off, as it would in Apps Script.
        rejectUnauthorized: params.validateHttpsCertificates !== false,
        timeoutMs: this._options.timeoutMs,
      },
    };
  }

  /**
   * A slow network on the virtual clock: the requests went out together, so the execution waits for the slowest
   * one's latency, and a request slower than its timeout failed as a timeout does, at the timeout.
   */
  #addLatency(requests: PreparedRequest[], results: HttpResult[], timeoutMs: number): void {
    const latency = this._options.latency;
    if (!latency) return;
    let waitMs = 0;
    requests.forEach((request, index) => {
      const ms = Math.max(0, latency({ method: request.spec.method, url: request.spec.url }));
      const result = results[index] as HttpResult;
      if (ms >= timeoutMs) results[index] = { ok: false, kind: 'timeout', message: `latency ${ms} ms`, durationMs: result.durationMs + timeoutMs };
      waitMs = Math.max(waitMs, Math.min(ms, timeoutMs));
    });
    if (waitMs > 0) this._execution.wait(waitMs);
  }

  #send(requests: PreparedRequest[]): HTTPResponse[] {
    if (requests.length === 0) return [];
    const execution = this._execution;
    // Refused before anything is sent, so a refused request costs no quota.
    for (const request of requests) this._options.allowlist?.check(request.url);
    // Custom functions count against the owner, as their user stores do (*unverified*; the stricter reading).
    this._options.quota.charge(execution.storeUser, requests.length);
    for (const request of requests) assertNotServedByThisThread(new URL(request.spec.url));
    execution.urlFetchCount += requests.length;
    // Apps Script ends the execution at its limit even mid-request, so no request may outlive it.
    const timeoutMs = Math.max(1, Math.min(this._options.timeoutMs, execution.remainingMs() + 1));
    const results: HttpResult[] = this._http().sendAll(requests.map((request) => ({ ...request.spec, timeoutMs })));
    this.#addLatency(requests, results, timeoutMs);
    execution.checkTime();
    return results.map((result, index) => {
      const request = requests[index] as PreparedRequest;
      if (!result.ok) throw networkError(result.kind, request.url);
      const response = new HTTPResponse(result.status, result.rawHeaders, Buffer.from(result.body));
      if (result.status >= 400 && !request.muteHttpExceptions) {
        const text = response.getContentText();
        const truncated = text.length > TRUNCATED_RESPONSE_CHARS ? `${text.slice(0, TRUNCATED_RESPONSE_CHARS)}...` : text;
        throw new GasError(
          `Request failed for ${new URL(request.spec.url).origin} returned code ${result.status}. Truncated server response: ${truncated} (use muteHttpExceptions option to examine full response)`,
        );
      }
      return response;
    });
  }
}
