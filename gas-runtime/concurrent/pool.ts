// The host's side of concurrent executions: a queue per runtime that starts at most `maxConcurrent` executions at
// once, on worker threads (created lazily, reused) that every runtime of one bundle in the process shares, and the
// answers to the workers' calls.

import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { LockTable } from '../lock';
import type { LogLevel } from '../logging';
import type { UrlFetchQuotaCharger } from '../url-fetch-limits';
import { GasRuntimeUsageError } from '../errors';
import type { ForgetRuntime, JobKind, JobRequest, JobResult, Reply, RuntimeInit, ThreadInit, WorkerInit, WorkerMessage } from './protocol';
import { errorToWire, HostHandles, wireToError } from './wire';

/** What the pool needs of its runtime. */
export interface PoolHost {
  init: Omit<WorkerInit, 'rpcPort' | 'signal'>;
  locks: LockTable;
  urlFetchQuota: UrlFetchQuotaCharger;
  clockStart(): void;
  clockStop(): void;
  now(): number;
  nextExecutionId(): number;
  /** The host-side services of one execution (over a mirror Execution with its id), and what to do around each of its calls. */
  begin(job: PendingJob, id: number, startedAt: number): { services: Record<string, object>; around<T>(call: () => T): T; declinedScopes: string[] };
  log(level: LogLevel, message: string, time: number, functionName: string, executionId: number): void;
}

export interface JobSpec {
  functionName: string;
  kind: JobKind;
  user: string;
  args: unknown[];
  maxConcurrent: number;
  startupMs: number;
  /** For a custom function: the cell it sits in, made the active range around each of its calls. */
  cell?: unknown;
}

export interface FinishedJob {
  id: number;
  queuedAt: number;
  startedAt: number;
  finishedAt: number;
  result: JobResult;
}

export interface PendingJob extends JobSpec {
  queuedAt: number;
  resolve(job: FinishedJob): void;
  reject(error: unknown): void;
}

interface RunningJob {
  pending: PendingJob;
  id: number;
  startedAt: number;
  handles: HostHandles;
  around<T>(call: () => T): T;
}

interface PoolWorker {
  worker: Worker;
  port: MessagePort;
  signal: Int32Array;
  ready: Promise<void>;
  job: RunningJob | null;
  /** The pool whose job the thread runs now (null while idle): its calls, logs and end go there. */
  borrower: WorkerPool | null;
  /** The runtimes this thread has built its copy of. */
  known: Set<number>;
}

/**
 * The worker threads of one bundle, shared by every runtime of it in this process: a test file makes dozens of
 * runtimes, and each recalculation's 30 threads each cost a Node start-up and a compile of the bundle. A thread
 * keeps a copy of each runtime it ran a job of (its settings and clock); the runtime's close drops them, and the
 * last runtime's close ends the threads.
 */
interface ThreadSet {
  threads: PoolWorker[];
  pools: Set<WorkerPool>;
}

const threadSets = new Map<string, Map<string, ThreadSet>>();
let nextRuntimeNumber = 1;

function threadSetFor(filename: string, source: string): ThreadSet {
  let byName = threadSets.get(filename);
  if (!byName) threadSets.set(filename, (byName = new Map()));
  let set = byName.get(source);
  if (!set) byName.set(source, (set = { threads: [], pools: new Set() }));
  return set;
}

function dropThreadSet(filename: string, source: string): void {
  const byName = threadSets.get(filename);
  byName?.delete(source);
  if (byName?.size === 0) threadSets.delete(filename);
}

/** Builds (once per version of the runtime's sources) the worker entry as one CommonJS file, so a thread starts without a TypeScript loader. */
function workerScript(): string {
  const here = __dirname;
  const entry = path.join(here, 'worker.ts');
  if (!existsSync(entry)) {
    // Already built (this file is itself part of a bundle): the compiled worker sits beside it.
    const built = path.join(here, 'worker.js');
    if (existsSync(built)) return built;
    throw new GasRuntimeUsageError(`gas-runtime cannot find its worker entry (${entry}).`, 'INVALID_OPTION');
  }
  const root = path.dirname(here);
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name);
      if (name === 'test' || name === 'node_modules') continue;
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(ts|cjs)$/.test(name)) hash.update(file).update(readFileSync(file));
    }
  };
  walk(root);
  const dir = path.join(os.tmpdir(), 'gas-runtime-workers', hash.digest('hex').slice(0, 16));
  const out = path.join(dir, 'worker.cjs');
  if (existsSync(out)) return out;
  mkdirSync(dir, { recursive: true });
  // esbuild is a dev dependency, needed only where the worker is not built yet; the worker bundle must not contain it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const esbuild = require('esbuild') as typeof import('esbuild');
  const temporary = `${out}.${process.pid}.${Date.now()}`;
  esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: temporary,
    external: ['esbuild'],
    logLevel: 'silent',
  });
  // The HTTP client starts its own worker from beside the code that runs it.
  copyFileSync(path.join(root, 'sync-http-worker.cjs'), path.join(dir, 'sync-http-worker.cjs'));
  renameSync(temporary, out);
  return out;
}

export class WorkerPool {
  readonly #host: PoolHost;
  readonly #runtime = nextRuntimeNumber++;
  readonly #threadInit: Omit<ThreadInit, 'rpcPort' | 'signal'>;
  readonly #runtimeInit: RuntimeInit;
  readonly #set: ThreadSet;
  readonly #queue: PendingJob[] = [];
  #running = 0;
  #inFlight = 0;
  #idleWaiters: Array<() => void> = [];
  #script: string | null = null;

  constructor(host: PoolHost) {
    this.#host = host;
    const { source, filename, codeCache, fastGlobals, ...runtimeInit } = host.init;
    this.#threadInit = { source, filename, codeCache, fastGlobals };
    this.#runtimeInit = runtimeInit;
    this.#set = threadSetFor(filename, source);
    this.#set.pools.add(this);
  }

  /** Executions queued or running. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Resolves once no execution is queued or running. */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  run(spec: JobSpec): Promise<FinishedJob> {
    // The clock runs from the moment an execution is asked for: time spent queued is real time the user waits.
    this.#host.clockStart();
    this.#inFlight++;
    return new Promise<FinishedJob>((resolve, reject) => {
      this.#queue.push({ ...spec, queuedAt: this.#host.now(), resolve, reject });
      this.#dispatch();
    }).finally(() => {
      this.#host.clockStop();
      if (--this.#inFlight === 0) for (const waiter of this.#idleWaiters.splice(0)) waiter();
    });
  }

  /** Called once no execution of this pool is queued or running: threads forget this runtime; the last pool ends them. */
  async close(): Promise<void> {
    const set = this.#set;
    if (!set.pools.delete(this)) return;
    const forget: ForgetRuntime = { type: 'forget', runtime: this.#runtime };
    for (const thread of set.threads) {
      if (thread.known.delete(this.#runtime)) thread.worker.postMessage(forget);
    }
    if (set.pools.size > 0) return;
    dropThreadSet(this.#threadInit.filename, this.#threadInit.source);
    const threads = set.threads.splice(0);
    await Promise.all(
      threads.map(async ({ worker, port }) => {
        port.close();
        await worker.terminate();
      }),
    );
  }

  #dispatch(): void {
    while (this.#queue.length > 0 && this.#running < this.#queue[0]!.maxConcurrent) {
      const pending = this.#queue.shift()!;
      this.#running++;
      const worker = this.#set.threads.find((w) => w.job === null) ?? this.#spawn();
      void this.#start(worker, pending);
    }
  }

  async #start(worker: PoolWorker, pending: PendingJob): Promise<void> {
    // An idle worker must not keep Node alive (as the HTTP worker); a busy one must, or an awaited execution could be cut short.
    worker.worker.ref();
    worker.port.ref();
    // Reserve the worker before awaiting its start-up, so no other job (of any runtime) takes it.
    worker.job = { pending, id: 0, startedAt: 0, handles: new HostHandles(), around: (call) => call() };
    worker.borrower = this;
    try {
      await worker.ready;
    } catch (error) {
      this.#finish(worker);
      pending.reject(error);
      return;
    }
    const id = this.#host.nextExecutionId();
    const startedAt = this.#host.now();
    const handles = new HostHandles();
    let services: Record<string, object>;
    let around: RunningJob['around'];
    let declinedScopes: string[];
    try {
      ({ services, around, declinedScopes } = this.#host.begin(pending, id, startedAt));
    } catch (error) {
      this.#finish(worker);
      pending.reject(error);
      return;
    }
    worker.job = { pending, id, startedAt, handles, around };
    const known = worker.known.has(this.#runtime);
    worker.known.add(this.#runtime);
    const job: JobRequest = {
      id,
      runtime: this.#runtime,
      ...(known ? {} : { runtimeInit: this.#runtimeInit }),
      functionName: pending.functionName,
      kind: pending.kind,
      user: pending.user,
      declinedScopes,
      args: pending.args,
      startedAt,
      startupMs: pending.startupMs,
      services: Object.fromEntries(Object.entries(services).map(([name, service]) => [name, handles.encode(service)])),
    };
    worker.worker.postMessage(job);
  }

  #finish(worker: PoolWorker): void {
    const job = worker.job;
    worker.job = null;
    worker.borrower = null;
    worker.worker.unref();
    worker.port.unref();
    if (job && job.id !== 0) this.#host.locks._releaseAll(job.id);
    this.#running--;
    this.#dispatch();
  }

  #spawn(): PoolWorker {
    this.#script ??= workerScript();
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    const init: ThreadInit = { ...this.#threadInit, rpcPort: port2, signal: signal.buffer as SharedArrayBuffer };
    const worker = new Worker(this.#script, { workerData: init, transferList: [port2] });
    let readyResolve!: () => void;
    let readyReject!: (error: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => {
      readyResolve = resolve;
      readyReject = reject;
    });
    ready.catch(() => undefined);
    const pooled: PoolWorker = { worker, port: port1, signal, ready, job: null, borrower: null, known: new Set() };
    const set = this.#set;
    set.threads.push(pooled);
    const fail = (error: unknown): void => {
      readyReject(error);
      const index = set.threads.indexOf(pooled);
      if (index >= 0) set.threads.splice(index, 1);
      const job = pooled.job;
      const borrower = pooled.borrower;
      if (job && job.id !== 0 && borrower) {
        borrower.#finish(pooled);
        job.pending.reject(error);
      }
      void worker.terminate();
    };
    port1.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') readyResolve();
      else if (message.type === 'startup-failed') fail(wireToError(message.error));
      else {
        const borrower = pooled.borrower;
        if (borrower) borrower.#onMessage(pooled, message);
      }
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new GasRuntimeUsageError(`A worker thread running executions ended (code ${code}).`, 'INVALID_OPTION')));
    return pooled;
  }

  #onMessage(pooled: PoolWorker, message: Exclude<WorkerMessage, { type: 'ready' | 'startup-failed' }>): void {
    switch (message.type) {
      case 'log':
        this.#host.log(message.level, message.message, message.time, message.functionName, message.executionId);
        return;
      case 'crashed': {
        const job = pooled.job;
        // The thread may have failed to build its copy of this runtime: the next job there brings the settings again.
        pooled.known.delete(this.#runtime);
        this.#finish(pooled);
        job?.pending.reject(wireToError(message.error));
        return;
      }
      case 'done': {
        const job = pooled.job!;
        const finishedAt = this.#host.now();
        this.#finish(pooled);
        job.pending.resolve({ id: job.id, queuedAt: job.pending.queuedAt, startedAt: job.startedAt, finishedAt, result: message.result });
        return;
      }
      default:
        this.#reply(pooled, this.#answer(pooled, message));
    }
  }

  #answer(pooled: PoolWorker, message: Extract<WorkerMessage, { type: 'call' | 'get' | 'lock' | 'url-fetch-quota' }>): Reply {
    const job = pooled.job;
    if (!job) return { ok: false, error: { name: 'Error', message: 'gas-runtime: a call arrived from a worker with no execution' } };
    try {
      if (message.type === 'lock') {
        const value = message.action === 'try' ? this.#host.locks._tryAcquire(message.key, job.id) : this.#host.locks._release(message.key, job.id);
        return { ok: true, value: value ?? null };
      }
      if (message.type === 'url-fetch-quota') {
        this.#host.urlFetchQuota.charge(message.user, message.count);
        return { ok: true, value: null };
      }
      const target = job.handles.object(message.handle) as Record<string, unknown>;
      const value = job.around(() => {
        if (message.type === 'get') return target[message.member];
        const method = target[message.member] as (...args: unknown[]) => unknown;
        return method.apply(target, job.handles.decode(message.args) as unknown[]);
      });
      return { ok: true, value: job.handles.encode(value) };
    } catch (error) {
      return { ok: false, error: errorToWire(error) };
    }
  }

  #reply(pooled: PoolWorker, reply: Reply): void {
    pooled.port.postMessage(reply);
    Atomics.store(pooled.signal, 0, 1);
    Atomics.notify(pooled.signal, 0);
  }
}
