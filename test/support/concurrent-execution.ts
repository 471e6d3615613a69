// Custom-function executions that really overlap, as Sheets runs a sheet's cells: each in its own worker
// thread with its own runtime, all sharing one user cache (a folder of files) and one emulator.
//
// The runtime runs one execution at a time by design, so overlapping executions need threads; what they
// share in Apps Script, the owner's CacheService cache, is shared here through the file system.

import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface ExecutionRequest {
  cacheDir: string;
  codePath: string;
  files: string;
  owner: string;
  settings: Record<string, string>;
  functionName: string;
  args: unknown[];
  /**
   * Whether Utilities.sleep also lets real time pass (default true): executions that overlap need it, or a waiting
   * one outruns the one fetching. An execution running alone sleeps on its virtual clock only.
   */
  realSleeps?: boolean;
}

/** `sleeps`: every Utilities.sleep of the execution, in ms, so a test counts its polls instead of timing them. */
export type ExecutionResult =
  | { ok: true; value: unknown; urlFetchCount: number; sleeps: number[] }
  | { ok: false; message: string; urlFetchCount: number; sleeps: number[] };

interface StoredEntry {
  key: string;
  value: string;
  expiresAt: number;
}

/**
 * The Cache API over files: every thread reads and writes the same entries. A write goes to a
 * temporary file renamed into place, so a reader sees an entry whole or not at all. Expiry reads
 * the real clock, which all threads share.
 */
export class FileCache {
  static readonly gasName = 'Cache';

  constructor(readonly _dir: string) {
    mkdirSync(_dir, { recursive: true });
  }

  get(key: string): string | null {
    const entry = this._read(this._file(key));
    return entry && entry.expiresAt > Date.now() ? entry.value : null;
  }

  getAll(keys: string[]): Record<string, string> {
    const found: Record<string, string> = {};
    for (const key of keys) {
      const value = this.get(key);
      if (value !== null) found[key] = value;
    }
    return found;
  }

  put(key: string, value: string, expirationInSeconds = 600): void {
    const file = this._file(key);
    const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(temporary, JSON.stringify({ key, value, expiresAt: Date.now() + expirationInSeconds * 1000 } satisfies StoredEntry));
    renameSync(temporary, file);
  }

  putAll(values: Record<string, string>, expirationInSeconds?: number): void {
    for (const [key, value] of Object.entries(values)) this.put(key, value, expirationInSeconds);
  }

  remove(key: string): void {
    rmSync(this._file(key), { force: true });
  }

  removeAll(keys: string[]): void {
    for (const key of keys) this.remove(key);
  }

  /** Every live entry's key: for tests that look for loading markers. */
  _keys(): string[] {
    return readdirSync(this._dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => this._read(path.join(this._dir, name)))
      .filter((entry): entry is StoredEntry => entry !== null && entry.expiresAt > Date.now())
      .map((entry) => entry.key);
  }

  _file(key: string): string {
    return path.join(this._dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  }

  _read(file: string): StoredEntry | null {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as StoredEntry;
    } catch {
      return null; // missing, or replaced between listing and reading
    }
  }
}

/** A running execution: its answer, and a way to kill it as Apps Script kills a stuck execution. */
export interface RunningExecution {
  result: Promise<ExecutionResult>;
  kill(): Promise<void>;
}

export function startExecution(request: ExecutionRequest): RunningExecution {
  const worker = new Worker(path.join(__dirname, 'concurrent-execution-worker.cjs'), { workerData: request });
  const result = new Promise<ExecutionResult>((resolve, reject) => {
    worker.once('message', (message: ExecutionResult) => resolve(message));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the execution's thread ended (code ${code}) before answering`)));
  });
  result.catch(() => undefined); // a killed execution's promise is never awaited
  return {
    result,
    kill: async () => {
      await worker.terminate();
    },
  };
}
