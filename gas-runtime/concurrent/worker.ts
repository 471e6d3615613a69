// A worker thread's side: its own GasRuntime (the bundle compiled once) running one execution at a
// time, with the host's state reached by synchronous calls (post, block in Atomics.wait, take the reply).

import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Execution } from '../execution';
import type { LockAnswer, LockArbiter } from '../lock';
import { GasRuntime } from '../runtime';
import type { JobRequest, Reply, WorkerInit, WorkerMessage } from './protocol';
import { errorToWire, RemoteObjects, wireToError, type RemoteCaller } from './wire';

const init = workerData as WorkerInit;
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

let runtime: GasRuntime;
try {
  runtime = new GasRuntime(
    {
      code: init.source,
      files: init.files,
      timeZone: init.timeZone,
      scriptTimeZone: init.scriptTimeZone,
      owner: init.owner,
      activeUser: init.activeUser,
      scriptId: init.scriptId,
      fetchTimeoutMs: init.fetchTimeoutMs,
      ...(init.oauthScopes ? { oauthScopes: init.oauthScopes } : {}),
      ...(init.urlFetchWhitelist ? { urlFetchWhitelist: init.urlFetchWhitelist } : {}),
      assumptions: init.assumptions,
      ...(init.sharedDrive ? { sharedDrive: init.sharedDrive } : {}),
    },
    {
      filename: init.filename,
      codeCache: init.codeCache,
      fastGlobals: init.fastGlobals,
      clock: init.clock,
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
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'startup-failed', error: errorToWire(error) });
}

parentPort!.on('message', (job: JobRequest) => {
  current = { job, remote: new RemoteObjects(caller) };
  try {
    post({ type: 'done', result: runtime._runJob(job) });
  } catch (error) {
    post({ type: 'crashed', error: errorToWire(error) });
  } finally {
    current = null;
  }
});
