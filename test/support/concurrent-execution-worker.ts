// One custom-function execution in its own thread (see concurrent-execution.ts).

import { parentPort, workerData } from 'node:worker_threads';
import { createGasRuntime, CustomFunctionError } from '../../gas-runtime';
import { FileCache, type ExecutionRequest, type ExecutionResult } from './concurrent-execution';

const request = workerData as ExecutionRequest;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleeps: number[] = [];
// A poll's sleep must let real time pass when executions overlap, or a waiting execution would outrun the one fetching.
const onSleep = (ms: number): void => {
  sleeps.push(ms);
  if (request.realSleeps !== false) Atomics.wait(sleeper, 0, 0, ms);
};
const rt = createGasRuntime({ code: { path: request.codePath }, files: request.files, owner: request.owner, onSleep });
rt.properties.user(request.owner).setProperties(request.settings);
const shared = new FileCache(request.cacheDir);
// Every execution's CacheService.getUserCache() is the shared one.
Object.defineProperty(rt.cache, 'user', { value: () => shared });

let result: ExecutionResult;
try {
  const value = rt.runCustomFunction(request.functionName, request.args);
  result = { ok: true, value, urlFetchCount: rt.executions[0]?.urlFetchCount ?? -1, sleeps };
} catch (error) {
  if (!(error instanceof CustomFunctionError)) throw error;
  result = { ok: false, message: error.message, urlFetchCount: rt.executions[0]?.urlFetchCount ?? -1, sleeps };
}
parentPort!.postMessage(result);
void rt.close();
