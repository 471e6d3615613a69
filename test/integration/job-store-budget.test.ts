// The job store stays within its budget of the user's 500 KB property store, on the built bundle in the runtime
// (whose property store refuses a write past 500 KB, as Apps Script does). Large paused jobs kept for Resume:
// a new push is refused before any request, naming them and saying what to do; the settings and the token still
// save. A job no one can resume any more makes room instead, and the push goes ahead.

import { DEMO_IDS } from '../../emulator/demo-data';
import type { GasRuntime } from '../../gas-runtime';
import { utf8Bytes } from '../../src/core/cache/chunked-cache';
import { JOB_MAX_BYTES, PiecedStore } from '../../src/core/jobs/pieced-store';
import { JOB_STORE_BUDGET_BYTES, JOBS_INDEX_KEY, jobStateKey, type JobIndexEntry } from '../../src/core/jobs/store-budget';
import type { AuditPushHandle } from '../../src/shared/rpc';
import { ok, OWNER, useStack, type Rpc, type Stack } from '../support/stack';

jest.setTimeout(120_000);

let stack: Stack;
useStack((started) => (stack = started));

const HOUR = 3_600_000;

/** Jobs as an earlier session of this user left them in the job store: pieces, manifest and index entry. */
function leaveJobs(rt: GasRuntime, jobs: Array<{ kind: string; id: string; status: string; kb: number; startedAt: number }>): void {
  const props = rt.properties.user(OWNER);
  let generation = 0;
  const pieced = new PiecedStore(props, null, () => `seed${String(++generation).padStart(4, '0')}`, 3600);
  const index: JobIndexEntry[] = [];
  for (const job of jobs) {
    const half = Math.floor((job.kb * 1024) / 2);
    pieced.put(
      jobStateKey(job.kind, job.id),
      JSON.stringify({ sheetName: 'Sheet1', state: { status: job.status, version: 2 }, codes: '€'.repeat(Math.floor(half / 3)) + 'p'.repeat(half) }),
    );
    index.push({ kind: job.kind, id: job.id, startedAt: job.startedAt, spreadsheet: rt.spreadsheet.getId() });
  }
  props.setProperty(JOBS_INDEX_KEY, JSON.stringify(index));
}

function storeBytes(rt: GasRuntime, filter: (key: string) => boolean = () => true): number {
  return Object.entries(rt.properties.user(OWNER).getProperties())
    .filter(([key]) => filter(key))
    .reduce((sum, [key, value]) => sum + utf8Bytes(key) + utf8Bytes(value), 0);
}

const isJobStore = (key: string) => key.startsWith('job') || key === JOBS_INDEX_KEY;

/** The demo audit built and one cell typed: a push with one cell to send, ready to start. */
function auditWithOneEdit(rt: GasRuntime): void {
  ok(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = sheet.getDataRange().getValues();
  sheet.getRange(grid.findIndex((r) => r[0] === DEMO_IDS.profile(2)) + 1, grid[0]!.indexOf(DEMO_IDS.property(7)) + 1).setValue('Porto');
}

it('refuses a new push while paused jobs hold the budget, naming them; the settings and the token still save', async () => {
  const rt = stack.runtime();
  const now = rt.clock.now();
  leaveJobs(rt, [
    { kind: 'export', id: 'e0000000-0000-4000-8000-000000000001', status: 'paused', kb: 117, startedAt: now - 2 * HOUR },
    { kind: 'audit-push', id: 'e0000000-0000-4000-8000-000000000002', status: 'cancelled', kb: 117, startedAt: now - HOUR },
    { kind: 'import', id: 'e0000000-0000-4000-8000-000000000005', status: 'paused', kb: 117, startedAt: now - 5 * 60_000 },
  ]);
  auditWithOneEdit(rt);
  const before = rt.properties.user(OWNER).getProperties();
  await stack.emulator.control.clearRequests();

  const refused = rt.callServer('startAuditPush', [null]) as Rpc<AuditPushHandle>;
  expect(refused.ok).toBe(false);
  expect(!refused.ok && refused.error).toMatch(
    /^This audit push was not started: the 350 KB your Apps Script properties keep for jobs are held by 3 jobs kept for Resume \(a paused export started 120 minutes ago \(11\d KB\), a cancelled audit push started 60 minutes ago \(11\d KB\) and a paused import started 5 minutes ago \(11\d KB\); 3\d\d KB together\), and this one needs \d+ KB more\. Resume them from the sidebar of their spreadsheet and let them finish, which frees their room; or, if you no longer need them, leave them: a job is dropped 6 hours after it started\. Then start this audit push again\.$/,
  );
  // Refused before the first PUT; the kept jobs are as they were.
  expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(0);
  expect(Object.fromEntries(Object.entries(rt.properties.user(OWNER).getProperties()).filter(([key]) => isJobStore(key)))).toEqual(
    Object.fromEntries(Object.entries(before).filter(([key]) => isJobStore(key))),
  );

  // An audit build is refused the same way, and leaves no hidden sheet behind for its pages.
  const build = rt.callServer('startAuditBuild', [DEMO_IDS.fund]) as Rpc<unknown>;
  expect(build).toMatchObject({ ok: false, error: expect.stringMatching(/^This audit build was not started: the 350 KB/) });
  expect(
    rt.spreadsheet
      .getSheets()
      .map((sheet) => sheet.getName())
      .filter((name) => name.startsWith('Audit build')),
  ).toEqual([]);

  // The settings beside the jobs: saved, the token included (the emulator's, checked against it).
  const saved = rt.callServer('saveSettings', [
    { token: stack.emulator.token, baseUrl: stack.emulator.url, defaultCompanyId: DEMO_IDS.startup },
  ]) as Rpc<unknown>;
  expect(saved).toMatchObject({ ok: true });
  expect(rt.properties.user(OWNER).getProperty('METRICS_DEFAULT_COMPANY_ID')).toBe(DEMO_IDS.startup);
  expect(storeBytes(rt)).toBeLessThan(500 * 1024);
});

it('keeps two paused jobs of the largest size a job may keep, and still saves the settings and starts a small push', async () => {
  const rt = stack.runtime();
  const now = rt.clock.now();
  const largest = JOB_MAX_BYTES / 1024 - 2;
  leaveJobs(rt, [
    { kind: 'export', id: 'e0000000-0000-4000-8000-000000000006', status: 'paused', kb: largest, startedAt: now - 2 * HOUR },
    { kind: 'import', id: 'e0000000-0000-4000-8000-000000000007', status: 'paused', kb: largest, startedAt: now - HOUR },
  ]);
  expect(storeBytes(rt, isJobStore)).toBeGreaterThan(330 * 1024);
  const saved = rt.callServer('saveSettings', [
    { token: stack.emulator.token, baseUrl: stack.emulator.url, defaultCompanyId: DEMO_IDS.startup },
  ]) as Rpc<unknown>;
  expect(saved).toMatchObject({ ok: true });
  auditWithOneEdit(rt);
  const handle = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
  expect(handle.progress.status).toBe('running');
  expect(storeBytes(rt, isJobStore)).toBeLessThanOrEqual(JOB_STORE_BUDGET_BYTES);
  expect(Object.keys(rt.properties.user(OWNER).getProperties()).filter((key) => /e0{7}-0{4}-4000-8000-00000000000[67]$/.test(key))).toHaveLength(2);
});

it('drops a job no one can resume (a finished one left behind) to make room, and the push goes ahead', async () => {
  const rt = stack.runtime();
  const now = rt.clock.now();
  // A finished job whose execution ended before it forgot it; beside it, two paused ones: over the budget together.
  const expired = 'e0000000-0000-4000-8000-000000000003';
  const paused = 'e0000000-0000-4000-8000-000000000004';
  leaveJobs(rt, [
    { kind: 'export', id: expired, status: 'done', kb: 117, startedAt: now - 2 * HOUR },
    { kind: 'export', id: paused, status: 'paused', kb: 117, startedAt: now - HOUR },
    { kind: 'import', id: 'e0000000-0000-4000-8000-000000000008', status: 'paused', kb: 117, startedAt: now - HOUR },
  ]);
  auditWithOneEdit(rt);
  await stack.emulator.control.clearRequests();

  let handle = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
  for (let i = 0; !handle.report && i < 10; i++) handle = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [handle.pushId]));
  expect(handle.report!.totals).toMatchObject({ created: 1, failed: 0 });
  expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toHaveLength(1);
  const keys = Object.keys(rt.properties.user(OWNER).getProperties());
  expect(keys.some((key) => key.includes(expired))).toBe(false);
  expect(keys.some((key) => key.includes(paused))).toBe(true);
  expect(JSON.parse(rt.properties.user(OWNER).getProperty(JOBS_INDEX_KEY) ?? '[]').map((entry: JobIndexEntry) => entry.id)).not.toContain(expired);
  expect(storeBytes(rt, isJobStore)).toBeLessThanOrEqual(JOB_STORE_BUDGET_BYTES);
});
