// Synchronous HTTP for the script's thread: a worker sends the requests while this thread blocks on Atomics.wait.

import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { GasRuntimeUsageError } from './errors';

export interface HttpRequestSpec {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: Uint8Array | null;
  followRedirects: boolean;
  rejectUnauthorized: boolean;
  timeoutMs: number;
}

/** Why a request got no response: mapped to Apps Script's messages by url-fetch.ts. */
export type NetworkFailureKind = 'unavailable' | 'dns' | 'timeout' | 'ssl' | 'invalid';

export type HttpResult =
  | { ok: true; status: number; rawHeaders: string[]; body: Uint8Array; url: string; durationMs: number }
  | { ok: false; kind: NetworkFailureKind; message: string; durationMs: number };

type WorkerReply = { id: number; results: HttpResult[] } | { id: number; failure: string };

/**
 * Guards against a hung worker, not waits on time: the worker signals as it starts and answers every message
 * (each request ends at its own timeout, a failure is sent as one), so these only end a run that would
 * otherwise hang. They are generous because a loaded machine (a CI box running browsers on 2 cores) can take
 * many seconds to start a thread or to schedule it: 10 s once failed a healthy run there.
 */
const WORKER_START_MS = 120_000;
const ANSWER_GRACE_MS = 60_000;

/**
 * One worker thread per runtime, created on the first request. The worker is unref'd, so a runtime
 * that is never closed does not keep Node alive; `close()` ends it at once.
 */
export class SyncHttpClient {
  #worker: Worker | null = null;
  #port: MessagePort | null = null;
  readonly #flag = new Int32Array(new SharedArrayBuffer(4));
  #nextId = 1;

  /** Sends every request concurrently and blocks until all have a result. */
  sendAll(requests: HttpRequestSpec[]): HttpResult[] {
    const port = this.#start();
    const id = this.#nextId++;
    Atomics.store(this.#flag, 0, 0);
    port.postMessage({ id, requests });
    const longest = Math.max(0, ...requests.map((request) => request.timeoutMs));
    this.#waitFor(id, longest + ANSWER_GRACE_MS);
    for (let attempt = 0; attempt < 100; attempt++) {
      const received = receiveMessageOnPort(port);
      if (received) {
        const reply = received.message as WorkerReply;
        if (reply.id !== id) continue;
        if ('failure' in reply) throw new GasRuntimeUsageError(`The HTTP worker failed: ${reply.failure}`, 'HTTP_WORKER_FAILED');
        return reply.results;
      }
      // The flag was set after postMessage, so the reply is in flight; give the port a moment.
      Atomics.wait(this.#flag, 0, id, 1);
    }
    throw new GasRuntimeUsageError('The HTTP worker signalled an answer that never arrived.', 'HTTP_WORKER_FAILED');
  }

  /** Ends the worker; the next request starts a new one. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    this.#port?.close();
    this.#port = null;
    if (worker) await worker.terminate();
  }

  #start(): MessagePort {
    if (this.#port) return this.#port;
    const { port1, port2 } = new MessageChannel();
    Atomics.store(this.#flag, 0, 0);
    const worker = new Worker(path.join(__dirname, 'sync-http-worker.cjs'), {
      workerData: { port: port2, signal: this.#flag.buffer },
      transferList: [port2],
    });
    worker.unref();
    this.#worker = worker;
    this.#port = port1;
    this.#waitFor(-1, WORKER_START_MS);
    return port1;
  }

  /** Blocks this thread until the worker stores `value` in the flag, or gives up after `limitMs`. */
  #waitFor(value: number, limitMs: number): void {
    const deadline = performance.now() + limitMs;
    while (Atomics.load(this.#flag, 0) !== value) {
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new GasRuntimeUsageError(value === -1 ? 'The HTTP worker did not start.' : 'The HTTP worker did not answer in time.', 'HTTP_WORKER_FAILED');
      }
      Atomics.wait(this.#flag, 0, Atomics.load(this.#flag, 0), Math.min(left, 1000));
    }
  }
}
