// The Transport over UrlFetchApp: the only place the add-in touches the network.

import { dailyQuotaOf, FetchRefusedError, NetworkError, PermissionMissingError, type RefusalReason } from '../core/errors';
import { AUTHORIZATION_REQUIRED, refusalSentence, refusedScopes, SCOPE } from '../core/settings/permissions';
import type { HttpRequest, HttpResponse, Transport } from '../core/api/transport';
import { countQuotaUse } from './quota-usage';

/** "URL Fetch URL length: 2 kB / URL": UrlFetchApp throws on a longer one without sending it. */
const MAX_URL_LENGTH = 2 * 1024;

/** Apps Script's words when it refuses to send, rather than failing to connect. */
const REFUSALS: ReadonlyArray<[RegExp, RefusalReason]> = [
  [/URL ?Length/i, 'url_too_long'],
  [/payload.*(too large|size)|too large|exceeds the maximum size/i, 'payload_too_large'],
  [/Limit Exceeded|Service invoked too many times/i, 'other'],
];

export function createUrlFetchTransport(): Transport {
  return {
    fetch(request) {
      const tooLong = refuseLongUrl(request);
      if (tooLong) throw tooLong;
      try {
        const response = UrlFetchApp.fetch(request.url, toParams(request));
        countQuotaUse({ urlFetch: 1 });
        return toResponse(response);
      } catch (error) {
        // Not granted (granular consent): nothing was sent, and every request would be refused alike.
        const permission = permissionRefusalOf(error);
        if (permission) throw permission;
        const refused = refusalOf(error, request);
        // A request that failed to connect was sent, and counts; one Apps Script refused was not.
        if (!refused) countQuotaUse({ urlFetch: 1 });
        throw refused ?? toNetworkError(error, request);
      }
    },
    fetchAll(requests) {
      // A URL over the limit would make fetchAll throw for the whole wave: it alone is refused.
      const refused = requests.map(refuseLongUrl);
      const sendable = requests.filter((_, i) => !refused[i]);
      const answers = sendable.length > 0 ? sendAll(sendable) : [];
      let next = 0;
      return refused.map((refusal) => refusal ?? answers[next++]!);
    },
  };
}

function sendAll(requests: HttpRequest[]): Array<HttpResponse | NetworkError | FetchRefusedError> {
  try {
    const responses = UrlFetchApp.fetchAll(requests.map((request) => ({ url: request.url, ...toParams(request) })));
    countQuotaUse({ urlFetch: requests.length });
    return responses.map(toResponse);
  } catch (thrown) {
    const permission = permissionRefusalOf(thrown);
    if (permission) throw permission;
    const refused = refusalOf(thrown, requests[0]!);
    // Refused as a whole (a quota): nothing of the wave was sent.
    if (refused) return requests.map((request) => new FetchRefusedError(refused.message, request.url, refused.reason));
    countQuotaUse({ urlFetch: requests.length });
    // fetchAll throws as a whole when any one connection fails, withholding the others' answers: each may
    // or may not have been processed. The requester decides what goes again (smaller waves, never a POST).
    const cause = toNetworkError(thrown, requests[0]!).message;
    return requests.map(
      (request) =>
        new NetworkError(
          `A connection failed during a batch of ${requests.length} requests (${cause}); this request may or may not have been processed.`,
          request.url,
          requests.length,
        ),
    );
  }
}

/**
 * Apps Script's refusal of UrlFetchApp for want of the "Connect to an external service" permission, as the sentence
 * that says how to grant it. Recognised by its words here, where the call is made, because custom functions cannot
 * ask ScriptApp first (the custom functions guide does not list it among the services they may call).
 */
function permissionRefusalOf(error: unknown): PermissionMissingError | null {
  const message = error instanceof Error ? error.message : String(error);
  const refused = refusedScopes(message);
  if (refused) return new PermissionMissingError(refusalSentence(refused.call, refused.scopes), refused.scopes);
  // Words that name no scope (docs/platform.md, §13): UrlFetchApp needs only this one.
  if (AUTHORIZATION_REQUIRED.test(message))
    return new PermissionMissingError(refusalSentence('UrlFetchApp.fetch', [SCOPE.externalRequest]), [SCOPE.externalRequest]);
  return null;
}

function refuseLongUrl(request: HttpRequest): FetchRefusedError | undefined {
  if (request.url.length <= MAX_URL_LENGTH) return undefined;
  return new FetchRefusedError(`Limit Exceeded: URLFetch URL Length (${request.url.length} characters).`, request.url, 'url_too_long');
}

function refusalOf(error: unknown, request: HttpRequest): FetchRefusedError | undefined {
  const detail = detailOf(error);
  if (dailyQuotaOf(detail) === 'urlfetch') return new FetchRefusedError(detail, request.url, 'daily_quota');
  const match = REFUSALS.find(([pattern]) => pattern.test(detail));
  return match ? new FetchRefusedError(detail, request.url, match[1]) : undefined;
}

/** Apps Script's messages may quote the URL; its query names ids, which no message needs. */
function detailOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/(https?:\/\/[^\s?]*)\?\S*/g, '$1');
}

function toParams(request: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequestOptions {
  return {
    method: request.method.toLowerCase() as GoogleAppsScript.URL_Fetch.HttpMethod,
    headers: Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'content-type')),
    muteHttpExceptions: true,
    // A redirect would carry the Authorization header to wherever it points.
    followRedirects: false,
    ...(request.body === undefined ? {} : { payload: request.body, contentType: 'application/json' }),
  };
}

function toResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  const headers = Object.entries(response.getAllHeaders() as Record<string, string | string[]>).map(([name, value]) => [
    name.toLowerCase(),
    Array.isArray(value) ? value.join(', ') : String(value),
  ]);
  return { status: response.getResponseCode(), headers: Object.fromEntries(headers), body: response.getContentText() };
}

/** Apps Script's words when nothing answers at the address, as opposed to a connection lost on the way. */
const UNREACHABLE = /^(Exception: )?(Address unavailable|DNS error)/i;

function toNetworkError(error: unknown, request: HttpRequest): NetworkError {
  const detail = detailOf(error);
  return new NetworkError(`Could not reach ${request.url.replace(/\?.*$/, '')}: ${detail}`, request.url, 1, UNREACHABLE.test(detail));
}
