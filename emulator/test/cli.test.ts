// The command line, run as a child process the way other suites start it.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { startEmulatorProcess } from '../testing';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(REPO_ROOT, 'emulator', 'cli.ts');
const COMPANY = '12345678-1234-4234-8234-123456789abc';

function runCli(args: string[]): { child: ReturnType<typeof spawn>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
      expect(((await answer.json()) as { meta: { total: number } }).meta.total).toBe(12);
      const demoToken = await fetch(`${emulator.url}/metrics?company_id=${COMPANY}`, { headers: { authorization: 'Bearer demo-token' } });
      expect(demoToken.status).toBe(401);
      await emulator.control.fixtures({ companies: [{ name: 'Over HTTP' }] });
      expect((await emulator.control.state()).companies.map((c) => c.name)).toContain('Over HTTP');
    } finally {
      await emulator.stop();
    }
  });

  it('prints exactly one line when ready and exits 0 on SIGTERM', async () => {
    const { child, output } = runCli(['--port', '0', '--empty']);
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

  it('lists every flag in --help', async () => {
    const { child, output } = runCli(['--help']);
    await new Promise((resolve) => child.once('exit', resolve));
    for (const flag of ['--port', '--token', '--company', '--rate-limit', '--rate-window', '--retry-after', '--latency', '--fail-rate', '--drop-rate', '--seed', '--data', '--empty', '--help']) {
      expect(output()).toContain(flag);
    }
  });
});
