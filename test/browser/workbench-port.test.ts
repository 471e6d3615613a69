// `npm start` on a port another program holds takes the next free one and prints it; when the next 20 are held too,
// one sentence says so, it exits 1 and leaves no emulator behind.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import path from 'node:path';
import { ROOT, ensureBuilt } from '../support/built-bundle';
import { workbenchArgs } from '../support/workbench-process';

jest.setTimeout(90_000);

/** Processes (other than this one) whose environment carries `mark`: the workbench and any child it started. */
function processesMarked(mark: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`WORKBENCH_TEST_MARK=${mark}`);
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .map(Number);
}

const blockers: Server[] = [];

function listenOn(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Holds `count` consecutive ports on 127.0.0.1 and answers the first; tries other bases when one is taken. */
async function holdPorts(count: number): Promise<number> {
  for (;;) {
    const first = (await listenOn(0))!;
    const base = (first.address() as AddressInfo).port;
    const held = [first];
    for (let port = base + 1; port < base + count && port <= 65_535; port += 1) {
      const server = await listenOn(port);
      if (!server) break;
      held.push(server);
    }
    if (held.length === count) {
      blockers.push(...held);
      return base;
    }
    await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

beforeAll(() => ensureBuilt());
afterEach(() => Promise.all(blockers.splice(0).map((server) => new Promise((resolve) => server.close(resolve)))));

/** The run's bundle of the server (workbenchArgs), or `tsx workbench/server.ts`, the very command `npm start` runs. */
function startWorkbench(port: number, mark: string, as: 'bundle' | 'npm start' = 'bundle') {
  const script = as === 'bundle' ? workbenchArgs() : ['--import', 'tsx', path.join(ROOT, 'workbench', 'server.ts')];
  const child = spawn(process.execPath, [...script, '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Inherited by the emulator child, so this test finds its own processes among other suites'.
    env: { ...process.env, WORKBENCH_TEST_MARK: mark },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, out, exited };
}

it('takes the next free port when the one asked for is in use, and prints the one it took', async () => {
  const port = await holdPorts(1);
  const mark = randomUUID();
  const { child, out, exited } = startWorkbench(port, mark);
  const printed = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const line = /Workbench on (\S+)/.exec(out.stdout);
      if (line) resolve(line[1]!);
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${out.stderr}`)));
  });
  const took = Number(new URL(printed).port);
  expect(took).toBeGreaterThan(port);
  expect(out.stdout.split('\n')[0]).toBe(`Port ${port} on 127.0.0.1 is in use by another program, so the workbench took ${took}.`);
  expect((await fetch(printed)).status).toBe(200);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(processesMarked(mark)).toEqual([]);
});

it('says the ports are in use in one sentence, exits 1, and leaves no emulator running, when the next 20 are taken too', async () => {
  const port = await holdPorts(21);
  const mark = randomUUID();
  // Through tsx, as `npm start` runs it: the other suites start the bundle, this one keeps the command itself working.
  const { child, out, exited } = startWorkbench(port, mark, 'npm start');
  // The emulator starts before the page's port is tried: see it running, so its end below means something.
  let sawEmulator = false;
  const watch = setInterval(() => {
    if (processesMarked(mark).some((pid) => pid !== child.pid)) sawEmulator = true;
  }, 20);
  const code = await exited;
  clearInterval(watch);

  expect(code).toBe(1);
  expect(out.stdout).toBe('');
  expect(out.stderr.trim()).toBe(
    `Ports ${port} to ${port + 20} on 127.0.0.1 are in use by other programs: stop one, or start the workbench on another port with npm start -- --port ${port + 21}.`,
  );
  expect(sawEmulator).toBe(true);
  expect(processesMarked(mark)).toEqual([]);
});
