// The workbench as a person uses it. It lives in real time: its runtime's clock catches up between executions.
// Sidebar calls and formulas run as concurrent executions, whose sleeps take real time, so the emulator's
// clock needs no moving and a rate-limit wait shown in the sidebar ends as in Sheets.

import { setTimeout as delay } from 'node:timers/promises';
import { startEmulatorProcess, type RunningEmulator } from '../../emulator/testing';
import { Workbench } from '../../workbench/workbench';
import { DIST, CODE_PATH, ensureBuilt } from '../support/built-bundle';

let emulator: RunningEmulator;
let workbench: Workbench;

beforeAll(async () => {
  ensureBuilt();
  emulator = await startEmulatorProcess();
  workbench = new Workbench({ codePath: CODE_PATH, distDir: DIST, apiBaseUrl: emulator.url, companyId: emulator.companyId, token: emulator.token });
});
afterAll(async () => {
  await workbench?.runtime.close();
  await emulator?.stop();
});

async function emulatorOffset(): Promise<number> {
  const response = await fetch(`${emulator.url}/__emulator/clock`);
  return ((await response.json()) as { offsetMs: number }).offsetMs;
}

it('moves the runtime clock by the real time that passed between two sidebar calls', async () => {
  await workbench.callServer('getSettings', []);
  const before = workbench.runtime.clock.now();
  await delay(400);
  const answer = await workbench.callServer('getSettings', []);
  expect(answer.ok).toBe(true);
  expect(workbench.runtime.clock.now() - before).toBeGreaterThanOrEqual(400);
});

it("waits out a 429 for real in a formula's execution, keeping the runtime's clock and the emulator's together", async () => {
  const state = await emulator.control.state();
  const metric = state.metrics.find((m) => m.company_id === emulator.companyId);
  if (!metric) throw new Error('the demo data has no metric of the default company');
  await emulator.control.faults({ next429: 1 });
  expect(await emulatorOffset()).toBe(0);

  await workbench.enter(workbench.view().sheet, 'A1', `=METRIC_VALUES("${metric.id}")`);

  // The 429 carried no Retry-After, so the client backed off (a real sleep in a concurrent execution) and then succeeded.
  const offset = await emulatorOffset();
  expect(offset).toBe(0);
  const execution = workbench.runtime.executions.at(-1)!;
  expect(execution).toMatchObject({ functionName: 'METRIC_VALUES', outcome: 'completed' });
  expect(execution.urlFetchCount).toBeGreaterThanOrEqual(2);
  expect(execution.durationMs).toBeGreaterThan(500);
  const [date, value] = workbench.view().rows[0]!.map((cell) => cell.display);
  expect(date).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}$/);
  expect(value).toMatch(/^-?\d/);
  const skew = workbench.runtime.clock.now() - (Date.now() + offset);
  expect(Math.abs(skew)).toBeLessThan(2_000);
});

it('shows a sheet filled to its last row, where a paste past row 1,000 grew it only to fit', () => {
  const sheet = workbench.view().sheet;
  const rows = Array.from({ length: 1_005 }, (_, i) => `r${i + 1}\t${i + 1}`).join('\n');
  workbench.paste(sheet, 'D1', rows);
  const view = workbench.view(sheet);
  expect(view.rows).toHaveLength(1_005);
  expect(view.rows[1_004]![4]!.display).toBe('1005');
});
