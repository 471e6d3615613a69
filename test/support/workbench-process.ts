// Starts `npm start`'s server (without the build step) as a child process on a free port.

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ROOT, ensureBuilt } from './built-bundle';

export interface RunningWorkbench {
  url: string;
  emulatorUrl: string;
  token: string;
  companyId: string;
  stop(): Promise<void>;
}

const READY = /^Workbench on (\S+) \(emulator (\S+), token (\S+), company (\S+)\)$/m;

export function startWorkbench(extraArgs: string[] = []): Promise<RunningWorkbench> {
  ensureBuilt();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'workbench', 'server.ts'), '--port', '0', ...extraArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    // Generous: on a busy 2-core machine several suites start processes (tsx compiles on start) at once,
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
      resolve({ url: match[1]!, emulatorUrl: match[2]!, token: match[3]!, companyId: match[4]!, stop: () => stop(child) });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the workbench exited with code ${String(code)}.\n${errors}`));
    });
  });
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
