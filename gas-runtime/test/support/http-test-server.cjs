'use strict';
// A small HTTP server for the runtime's tests, run in a worker thread: UrlFetchApp blocks the test's
// thread, so a server there could never answer. Routes are fixed; the test reads counters by message.

const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const zlib = require('node:zlib');

let inFlight = 0;
let maxInFlight = 0;
let requests = 0;
const hanging = new Set();

function send(response, status, headers, body) {
  response.writeHead(status, headers);
  response.end(body);
}

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    requests++;
    const url = new URL(request.url, 'http://localhost');
    const body = Buffer.concat(chunks).toString('utf8');
    const path = url.pathname;

    if (path.startsWith('/status/')) {
      const status = Number(path.slice('/status/'.length));
      const text = url.searchParams.get('long') ? `error ${status}: ${'x'.repeat(300)}` : `error ${status}`;
      return send(response, status, { 'Content-Type': 'text/plain' }, text);
    }
    if (path === '/echo') {
      const headers = {};
      for (let i = 0; i < request.rawHeaders.length; i += 2) headers[request.rawHeaders[i].toLowerCase()] = request.rawHeaders[i + 1];
      return send(response, 200, { 'Content-Type': 'application/json' }, JSON.stringify({ method: request.method, path: request.url, headers, body }));
    }
    if (path === '/headers') {
      response.setHeader('Content-Type', 'text/plain; charset=utf-8');
      response.setHeader('X-RateLimit-Remaining', '7');
      response.setHeader('Set-Cookie', ['a=1', 'b=2']);
      return response.end('héllo');
    }
    if (path === '/latin1') {
      return send(response, 200, { 'Content-Type': 'text/plain; charset=iso-8859-1' }, Buffer.from('café', 'latin1'));
    }
    if (path === '/gzip') {
      return send(response, 200, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }, zlib.gzipSync('compressed text'));
    }
    if (path === '/redirect') {
      return send(response, Number(url.searchParams.get('status') || 302), { Location: url.searchParams.get('to') || '/echo' }, '');
    }
    if (path === '/slow') {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return setTimeout(
        () => {
          inFlight--;
          send(response, 200, { 'Content-Type': 'text/plain' }, `slept ${url.searchParams.get('ms')}`);
        },
        Number(url.searchParams.get('ms') || 300),
      );
    }
    if (path === '/hang') {
      hanging.add(response);
      response.on('close', () => hanging.delete(response));
      return undefined;
    }
    if (path === '/reset') {
      return request.socket.destroy();
    }
    return send(response, 404, { 'Content-Type': 'text/plain' }, 'not found');
  });
});

server.listen(0, '127.0.0.1', () => {
  parentPort.postMessage({ type: 'listening', port: server.address().port });
});

parentPort.on('message', (message) => {
  if (message.type === 'stats') parentPort.postMessage({ type: 'stats', id: message.id, stats: { requests, inFlight, maxInFlight } });
  if (message.type === 'reset-stats') {
    requests = 0;
    maxInFlight = inFlight;
    parentPort.postMessage({ type: 'reset-stats', id: message.id });
  }
  if (message.type === 'close') {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    server.close(() => parentPort.postMessage({ type: 'closed', id: message.id }));
  }
});
