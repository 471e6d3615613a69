// `npm start` on a port another program holds: one sentence saying so, and no emulator left behind.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { ROOT, ensureBuilt } from '../support/built-bundle';

jest.setTimeout(90_000);

/** Processes (other than this one) whose environment carries `mark`: the workbench and any child it started. */
function processesMarked(mark: string): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`WORKBENCH_TEST_MARK=${mark}`);
    } catch {
      return false; // gone, or not ours to read
    }
  }).map(Number);
}

let blocker: Server;
beforeAll(async () => {
  ensureBuilt();
  blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

it('says the port is in use in one sentence, exits 1, and leaves no emulator running', async () => {
  const port = (blocker.address() as AddressInfo).port;
  const mark = randomUUID();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'workbench', 'server.ts'), '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Inherited by the emulator child, so this test finds its own processes among other suites'.
    env: { ...process.env, WORKBENCH_TEST_MARK: mark },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The emulator starts before the page's port is tried: see it running, so its end below means something.
  let sawEmulator = false;
  const watch = setInterval(() => {
    if (processesMarked(mark).some((pid) => pid !== child.pid)) sawEmulator = true;
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(watch);

  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(stderr.trim()).toBe(`Port ${port} on 127.0.0.1 is in use by another program: stop it, or start the workbench on another port with npm start -- --port ${port + 1}.`);
  expect(sawEmulator).toBe(true);
  expect(processesMarked(mark)).toEqual([]);
});
