'use strict';
// Sends UrlFetchApp's requests for the runtime's thread, which blocks in Atomics.wait until the answer is posted.
// Plain CommonJS so the worker needs no TypeScript loader. Every request of a batch runs concurrently.

const { workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
const zlib = require('node:zlib');

const { port, signal } = workerData;
const flag = new Int32Array(signal);
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Network error codes, grouped by the Apps Script message they map to (see url-fetch.ts). */
function classify(error) {
  const code = error?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA') return 'dns';
  if (
    typeof code === 'string' &&
    (code.startsWith('ERR_TLS') ||
      code.startsWith('CERT_') ||
      code.includes('SELF_SIGNED') ||
      code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
      code === 'ERR_SSL_WRONG_VERSION_NUMBER')
  )
    return 'ssl';
  return 'unavailable';
}

function decode(body, encoding, done) {
  const name = String(encoding || '')
    .trim()
    .toLowerCase();
  if (name === 'gzip' || name === 'x-gzip') return zlib.gunzip(body, done);
  if (name === 'deflate') return zlib.inflate(body, (error, data) => (error ? zlib.inflateRaw(body, done) : done(null, data)));
  if (name === 'br') return zlib.brotliDecompress(body, done);
  return done(null, body);
}

function send(request) {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let current = null;
    const finish = (result, destroy) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (destroy && current) current.destroy();
      resolve(Object.assign(result, { durationMs: performance.now() - started }));
    };
    const timer = setTimeout(() => finish({ ok: false, kind: 'timeout', message: `no response within ${request.timeoutMs} ms` }, true), request.timeoutMs);

    const attempt = (url, method, body, hops) => {
      let target;
      try {
        target = new URL(url);
      } catch {
        return finish({ ok: false, kind: 'invalid', message: `invalid URL ${url}` }, false);
      }
      const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : null;
      if (!client) return finish({ ok: false, kind: 'invalid', message: `unsupported protocol ${target.protocol}` }, false);
      const headers = {};
      for (const [name, value] of request.headers) {
        // A redirect that turns the request into a GET drops the body and what described it.
        if (!body && /^content-(type|length)$/i.test(name)) continue;
        headers[name] = value;
      }
      if (body) headers['Content-Length'] = String(body.length);
      const outgoing = client.request(target, { method, headers, agent: false, rejectUnauthorized: request.rejectUnauthorized }, (response) => {
        const status = response.statusCode || 0;
        const location = response.headers.location;
        if (request.followRedirects && REDIRECT_STATUSES.has(status) && location && hops < MAX_REDIRECTS) {
          response.resume();
          const keepMethod = status === 307 || status === 308;
          return attempt(new URL(location, target).toString(), keepMethod ? method : 'GET', keepMethod ? body : null, hops + 1);
        }
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', (error) => finish({ ok: false, kind: classify(error), message: error.message }, true));
        response.on('end', () => {
          if (!response.complete) return finish({ ok: false, kind: 'unavailable', message: 'the connection closed before the response was complete' }, true);
          decode(Buffer.concat(chunks), response.headers['content-encoding'], (error, data) => {
            if (error) return finish({ ok: false, kind: 'unavailable', message: `could not decode the response: ${error.message}` }, true);
            finish({ ok: true, status, rawHeaders: response.rawHeaders, body: data, url: target.toString() }, false);
          });
        });
      });
      current = outgoing;
      outgoing.on('error', (error) => finish({ ok: false, kind: classify(error), message: error.message }, true));
      outgoing.end(body || undefined);
    };

    attempt(request.url, request.method, request.body ? Buffer.from(request.body) : null, 0);
  });
}

port.on('message', async (message) => {
  let reply;
  try {
    reply = { id: message.id, results: await Promise.all(message.requests.map(send)) };
  } catch (error) {
    reply = { id: message.id, failure: String(error?.stack || error) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, message.id);
  Atomics.notify(flag, 0);
});

// Tell the waiting thread the worker is up; -1 is never a request id.
Atomics.store(flag, 0, -1);
Atomics.notify(flag, 0);
