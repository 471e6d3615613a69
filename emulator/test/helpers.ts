// Shared by the conformance suite: an in-process emulator that checks its own answers against the contract, and a tiny HTTP client.

import { startEmulatorInProcess, type RunningEmulator } from '../testing';
import type { EmulatorOptions } from '../app';

/** What a test reads from an answer. */
export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: tests index freely into JSON answers; typing each one would restate the contract a second time.
  body: any;
}

/** Starts an emulator that answers 500 whenever a response breaks the contract. */
export function startConformanceEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulatorInProcess({ checkResponses: true, ...options });
}

/** Sends one request; `query` is appended verbatim so tests control the exact encoding. */
export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: { query?: string; body?: unknown; rawBody?: string; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? emulator.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const url = `${emulator.url}${path}${options.query ? `?${options.query}` : ''}`;
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Plain-text answers (the injected 503) stay text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** GET with a query string. */
export function get(emulator: RunningEmulator, path: string, query = '', token?: string | null): Promise<Answer> {
  return call(emulator, 'GET', path, { query, token });
}
