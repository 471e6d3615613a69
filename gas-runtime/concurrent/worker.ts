// A worker thread's side: a GasRuntime per host runtime it serves (the bundle compiled once per thread) running one
// execution at a time, with the host's state reached by synchronous calls (post, block in Atomics.wait, take the reply).

import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Execution } from '../execution';
import type { LockAnswer, LockArbiter } from '../lock';
import { GasRuntime, prepareBundle } from '../runtime';
import { SyncHttpClient } from '../sync-http';
import type { ForgetRuntime, JobRequest, Reply, ThreadInit, WorkerMessage } from './protocol';
import { errorToWire, RemoteObjects, wireToError, type RemoteCaller } from './wire';

const init = workerData as ThreadInit;
const port: MessagePort = init.rpcPort;
const signal = new Int32Array(init.signal);

function post(message: WorkerMessage): void {
  port.postMessage(message);
}

/** Sends a request and blocks this thread until the host answers it. */
function request(message: WorkerMessage): unknown {
  Atomics.store(signal, 0, 0);
  post(message);
  for (;;) {
    Atomics.wait(signal, 0, 0);
    const received = receiveMessageOnPort(port);
    if (received) {
      Atomics.store(signal, 0, 0);
      const reply = received.message as Reply;
      if (!reply.ok) throw wireToError(reply.error);
      return reply.value;
    }
  }
}

const caller: RemoteCaller = {
  call: (handle, member, args) => request({ type: 'call', handle, member, args }),
  get: (handle, member) => request({ type: 'get', handle, member }),
};

const locks: LockArbiter = {
  _tryAcquire: (key) => request({ type: 'lock', action: 'try', key }) as LockAnswer,
  _release: (key) => void request({ type: 'lock', action: 'release', key }),
};

let current: { job: JobRequest; remote: RemoteObjects } | null = null;

/** The thread's HTTP client, one worker thread of its own for every runtime's requests. */
const http = new SyncHttpClient();

/** This thread's copy of each host runtime it has run a job of, built on that runtime's first job here. */
const runtimes = new Map<number, GasRuntime>();

function runtimeFor(job: JobRequest): GasRuntime {
  const known = runtimes.get(job.runtime);
  if (known) return known;
  const settings = job.runtimeInit;
  if (!settings) throw new Error(`gas-runtime: a job of runtime ${job.runtime} came without its settings`);
  const runtime = new GasRuntime(
    {
      code: init.source,
      files: settings.files,
      timeZone: settings.timeZone,
      scriptTimeZone: settings.scriptTimeZone,
      owner: settings.owner,
      activeUser: settings.activeUser,
      scriptId: settings.scriptId,
      fetchTimeoutMs: settings.fetchTimeoutMs,
      ...(settings.oauthScopes ? { oauthScopes: settings.oauthScopes } : {}),
      ...(settings.urlFetchWhitelist ? { urlFetchWhitelist: settings.urlFetchWhitelist } : {}),
      assumptions: settings.assumptions,
      ...(settings.sharedDrive ? { sharedDrive: settings.sharedDrive } : {}),
    },
    {
      filename: init.filename,
      codeCache: init.codeCache,
      fastGlobals: init.fastGlobals,
      http,
      clock: settings.clock,
      locks,
      urlFetchQuota: { charge: (user, count) => void request({ type: 'url-fetch-quota', user, count }) },
      hostServices: (_execution: Execution) => {
        if (!current) throw new Error('gas-runtime: services asked for outside an execution');
        const { job, remote } = current;
        return Object.fromEntries(Object.entries(job.services).map(([name, wire]) => [name, remote.decode(wire) as object]));
      },
      log: (level, message, time, functionName, executionId) => post({ type: 'log', level, message, time, functionName, executionId }),
    },
  );
  runtimes.set(job.runtime, runtime);
  return runtime;
}

try {
  // Compiles the bundle from the host's code cache now, while the thread starts, not in its first job.
  prepareBundle(init.source, init.filename, init.codeCache, init.fastGlobals);
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'startup-failed', error: errorToWire(error) });
}

parentPort!.on('message', (message: JobRequest | ForgetRuntime) => {
  if ('type' in message) {
    const runtime = runtimes.get(message.runtime);
    runtimes.delete(message.runtime);
    void runtime?.close();
    return;
  }
  const job = message;
  current = { job, remote: new RemoteObjects(caller) };
  try {
    post({ type: 'done', result: runtimeFor(job)._runJob(job) });
  } catch (error) {
    post({ type: 'crashed', error: errorToWire(error) });
  } finally {
    current = null;
  }
});
