// The command line, run as a child process the way other suites start it.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildEmptyState } from '../demo-data';
import { seededRandom } from '../random';
import { cliArgs, startEmulatorProcess } from '../testing';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO_ROOT, 'emulator', 'cli.ts');
const COMPANY = '12345678-1234-4234-8234-123456789abc';

/**
 * The command line as the other suites start it (the run's bundle, see cliArgs), or `as: 'source'` through tsx,
 * as `npm run emulator` runs cli.ts: one test keeps that way working.
 */
function runCli(args: string[], as: 'bundle' | 'source' = 'bundle'): { child: ReturnType<typeof spawn>; output: () => string } {
  const script = as === 'bundle' ? cliArgs() : ['--import', 'tsx', CLI];
  const child = spawn(process.execPath, [...script, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('emulator CLI', () => {
  it('starts as a child process, prints one ready line and serves the demo fund under the given id and token', async () => {
    const emulator = await startEmulatorProcess({ token: 'cli-token', companyId: COMPANY });
    try {
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emulator.token).toBe('cli-token');
      expect(emulator.companyId).toBe(COMPANY);
      const answer = await fetch(`${emulator.url}/portfolio_company_profiles?company_id=${COMPANY}`, { headers: { authorization: 'Bearer cli-token' } });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { meta: { total: number } }).meta.total).toBe(32);
      const demoToken = await fetch(`${emulator.url}/metrics?company_id=${COMPANY}`, { headers: { authorization: 'Bearer demo-token' } });
      expect(demoToken.status).toBe(401);
      await emulator.control.fixtures({ companies: [{ name: 'Over HTTP' }] });
      expect((await emulator.control.state()).companies.map((c) => c.name)).toContain('Over HTTP');
    } finally {
      await emulator.stop();
    }
  });

  it('prints exactly one line when ready and exits 0 on SIGTERM', async () => {
    const { child, output } = runCli(['--port', '0', '--empty'], 'source');
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (output().includes('\n')) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(output()).toMatch(/^Emulator listening on http:\/\/127\.0\.0\.1:\d+ \(token: demo-token, company: c0000000-0000-4000-8000-000000000001\)\n$/);
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('passes rate-limit and fault flags to the emulator', async () => {
    const emulator = await startEmulatorProcess({ rateLimit: 1, retryAfter: true, empty: true });
    try {
      const url = `${emulator.url}/metrics?company_id=${emulator.companyId}`;
      const headers = { authorization: `Bearer ${emulator.token}` };
      await fetch(url, { headers });
      const limited = await fetch(url, { headers });
      // A window boundary may fall between the two calls; the second is then the first of a new window.
      if (limited.status === 429) expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      else expect(limited.status).toBe(200);
    } finally {
      await emulator.stop();
    }
  });

  it('refuses a --company that is not a UUID with a clear message and exit code 2', async () => {
    const child = spawn(process.execPath, [...cliArgs(), '--port', '0', '--company', 'acme'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      '--company must be a UUID (like c0000000-0000-4000-8000-000000000001), not "acme"; pass a UUID or leave the flag out for the default.\n',
    );
  });

  it('prints the token and company of a loaded --data file, not the defaults', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'emulator-cli-'));
    const file = path.join(folder, 'state.json');
    const fileCompany = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    writeFileSync(file, JSON.stringify(buildEmptyState({ fundId: fileCompany, token: 'file-token' })));
    const emulator = await startEmulatorProcess({ dataFile: file });
    try {
      expect(emulator.token).toBe('file-token');
      expect(emulator.companyId).toBe(fileCompany);
      const answer = await fetch(`${emulator.url}/metrics?company_id=${fileCompany}`, { headers: { authorization: 'Bearer file-token' } });
      expect(answer.status).toBe(200);
      await emulator.control.reset();
      const afterReset = await fetch(`${emulator.url}/metrics?company_id=${fileCompany}`, { headers: { authorization: 'Bearer file-token' } });
      expect(afterReset.status).toBe(200);
    } finally {
      await emulator.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers the next N requests 429 with --force-429, then 503 with --force-503, then normally', async () => {
    const emulator = await startEmulatorProcess({ empty: true, force429: 2, force503: 1 });
    try {
      const url = `${emulator.url}/metrics?company_id=${emulator.companyId}`;
      const headers = { authorization: `Bearer ${emulator.token}` };
      const answers: Array<{ status: number; body: string }> = [];
      for (let i = 0; i < 4; i++) {
        const response = await fetch(url, { headers });
        answers.push({ status: response.status, body: await response.text() });
      }
      expect(answers.map((answer) => answer.status)).toEqual([429, 429, 503, 200]);
      expect(JSON.parse(answers[0]!.body)).toEqual({ errors: [{ type: 'rate_limit_exceeded', message: expect.any(String) }] });
      expect(answers[2]!.body).toBe('Service Unavailable');
      const log = await emulator.control.requests();
      expect(log.map((entry) => entry.fault ?? null)).toEqual(['429', '429', '5xx', null]);
    } finally {
      await emulator.stop();
    }
  });

  it('delays responses by a random 0..MS with --jitter', async () => {
    const jitterMs = 600_000;
    const emulator = await startEmulatorProcess({ empty: true, jitterMs });
    try {
      expect((await emulator.control.faults({})).jitterMs).toBe(jitterMs);
      // The fault generator is seeded (default seed 1) and only jitter draws from it here, so the first delay is known.
      const firstDelayMs = Math.round(seededRandom(1)() * jitterMs);
      expect(firstDelayMs).toBeGreaterThan(60_000);
      // The request is held (the emulator says so when asked to release it), not answered at once; no clock is read.
      let answered = false;
      const answer = fetch(`${emulator.url}/metrics?company_id=${emulator.companyId}`, { headers: { authorization: `Bearer ${emulator.token}` } });
      void answer.finally(() => (answered = true));
      let released = 0;
      while (released === 0 && !answered) released = await emulator.control.release();
      expect(released).toBe(1);
      expect((await answer).status).toBe(200);
    } finally {
      await emulator.stop();
    }
  });

  it('refuses a --force-429 that is not a whole number, exit code 2', async () => {
    const { child } = runCli(['--port', '0', '--force-429', '1.5']);
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
  });

  it('lists every flag in --help', async () => {
    const { child, output } = runCli(['--help']);
    await new Promise((resolve) => child.once('exit', resolve));
    for (const flag of [
      '--port',
      '--token',
      '--company',
      '--rate-limit',
      '--rate-window',
      '--retry-after',
      '--latency',
      '--fail-rate',
      '--drop-rate',
      '--seed',
      '--jitter',
      '--force-429',
      '--force-503',
      '--data',
      '--empty',
      '--help',
    ]) {
      expect(output()).toContain(flag);
    }
  });
});
