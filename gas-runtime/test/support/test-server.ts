// Starts http-test-server.cjs in a worker thread and talks to it: its URL, its counters, closing it.

import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface ServerStats {
  requests: number;
  inFlight: number;
  /** The most requests the server was answering at the same moment. */
  maxInFlight: number;
}

export interface TestServer {
  url: string;
  stats(): Promise<ServerStats>;
  resetStats(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const worker = new Worker(path.join(__dirname, 'http-test-server.cjs'));
  let nextId = 1;
  const ask = <T>(type: string, pick: (message: { stats?: ServerStats }) => T): Promise<T> =>
    new Promise((resolve) => {
      const id = nextId++;
      const listener = (message: { id?: number; stats?: ServerStats }) => {
        if (message.id !== id) return;
        worker.off('message', listener);
        resolve(pick(message));
      };
      worker.on('message', listener);
      worker.postMessage({ type, id });
    });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', function listening(message: { type: string; port?: number }) {
      if (message.type !== 'listening') return;
      worker.off('message', listening);
      resolve(message.port as number);
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ask('stats', (message) => message.stats as ServerStats),
    resetStats: () => ask('reset-stats', () => undefined),
    close: async () => {
      await ask('close', () => undefined);
      await worker.terminate();
    },
  };
}

/** One test server for a test file: started before its tests (given to `onStart`), its counts reset before each, closed after. */
export function useTestServer(onStart: (server: TestServer) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    onStart(server);
  });
  beforeEach(async () => {
    await server?.resetStats();
  });
  afterAll(async () => {
    await server?.close();
  });
}
