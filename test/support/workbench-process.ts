// Starts `npm start`'s server (without the build step) as a child process on a free port.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureBuilt } from './built-bundle';
import type { EmulatorControl } from '../../emulator/testing';
import type { LoggedRequest } from '../../emulator/request-log';
import type { RateLimitSettings } from '../../emulator/rate-limit';
import type { EmulatorState } from '../../emulator/records';

/** The parts of the emulator's control API that browser tests use, on the workbench's own emulator. */
export type WorkbenchEmulatorControl = Pick<EmulatorControl, 'rateLimit' | 'requests' | 'clearRequests' | 'state' | 'faults' | 'fixtures' | 'release'>;

export interface RunningWorkbench {
  url: string;
  emulatorUrl: string;
  token: string;
  companyId: string;
  /** The control API of the emulator the workbench started (its ready line names it). */
  control: WorkbenchEmulatorControl;
  stop(): Promise<void>;
}

const READY = /^Workbench on (\S+) \(emulator (\S+), token (\S+), company (\S+)\)$/m;

/**
 * `npm start`'s server script: the bundle this jest run built (test/support/server-bundles.js names it in
 * WORKBENCH_BUNDLE), which plain node starts without compiling anything; otherwise server.ts through tsx.
 */
export function workbenchArgs(): string[] {
  const bundle = process.env.WORKBENCH_BUNDLE;
  return bundle && existsSync(bundle) ? [bundle] : ['--import', 'tsx', path.join(ROOT, 'workbench', 'server.ts')];
}

export function startWorkbench(extraArgs: string[] = []): Promise<RunningWorkbench> {
  ensureBuilt();
  const child = spawn(process.execPath, [...workbenchArgs(), '--port', '0', ...extraArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    // Generous: on a busy 2-core machine several suites start processes at once,
    // well inside jest's 60 s hook timeout.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the workbench did not start.\n${output}\n${errors}`));
    }, 50_000);
    child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ url: match[1]!, emulatorUrl: match[2]!, token: match[3]!, companyId: match[4]!, control: controlAt(match[2]!), stop: () => stop(child) });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the workbench exited with code ${String(code)}.\n${errors}`));
    });
  });
}

/** The emulator's control routes (/__emulator/…) over HTTP, as emulator/testing.ts calls them. */
function controlAt(emulatorUrl: string): WorkbenchEmulatorControl {
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.headers = { 'content-type': 'application/json' };
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${emulatorUrl}/__emulator/${route}`, init);
    const text = await response.text();
    if (!response.ok) throw new Error(`control ${method} ${route} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    rateLimit: (settings) => call<RateLimitSettings>('POST', 'rate-limit', settings),
    requests: async () => (await call<{ requests: LoggedRequest[] }>('GET', 'requests')).requests,
    clearRequests: async () => {
      await call('DELETE', 'requests');
    },
    state: () => call<EmulatorState>('GET', 'state'),
    faults: (settings) => call('POST', 'faults', settings),
    fixtures: async (input) => (await call<{ created: Awaited<ReturnType<EmulatorControl['fixtures']>> }>('POST', 'fixtures', input)).created,
    release: async () => (await call<{ released: number }>('POST', 'release')).released,
  };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
