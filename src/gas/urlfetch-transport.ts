// The Transport over UrlFetchApp: the only place the add-in touches the network.

import { NetworkError, type HttpRequest, type HttpResponse, type Transport } from '../core/api/transport';

type FetchParams = GoogleAppsScript.URL_Fetch.URLFetchRequestOptions;

export function createUrlFetchTransport(): Transport {
  return {
    fetch(request) {
      try {
        return toResponse(UrlFetchApp.fetch(request.url, toParams(request)));
      } catch (error) {
        throw toNetworkError(error, request);
      }
    },
    fetchAll(requests) {
      try {
        return UrlFetchApp.fetchAll(requests.map((request) => ({ url: request.url, ...toParams(request) }))).map(toResponse);
      } catch {
        // fetchAll throws as a whole when any one connection fails. Find out which, one by one;
        // a POST is not sent twice, since the server may already have acted on it.
        return requests.map((request) => {
          if (request.method === 'POST') return new NetworkError('The connection failed during a batch; the request may or may not have been processed.', request.url);
          try {
            return toResponse(UrlFetchApp.fetch(request.url, toParams(request)));
          } catch (error) {
            return toNetworkError(error, request);
          }
        });
      }
    },
  };
}

function toParams(request: HttpRequest): FetchParams {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() !== 'content-type') headers[name] = value;
  }
  const params: FetchParams = {
    method: request.method.toLowerCase() as GoogleAppsScript.URL_Fetch.HttpMethod,
    headers,
    muteHttpExceptions: true,
    // A redirect would carry the Authorization header to wherever it points.
    followRedirects: false,
  };
  if (request.body !== undefined) {
    params.payload = request.body;
    params.contentType = 'application/json';
  }
  return params;
}

function toResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.getAllHeaders() as Record<string, string | string[]>)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return { status: response.getResponseCode(), headers, body: response.getContentText() };
}

function toNetworkError(error: unknown, request: HttpRequest): NetworkError {
  const detail = error instanceof Error ? error.message : String(error);
  return new NetworkError(`Could not reach ${request.url.replace(/\?.*$/, '')}: ${detail}`, request.url);
}
