// Build audit as a job on the built bundle: the fund's pages read in steps under the rate
// limit, each page once across steps, with progress, cancel, resume after the cache is lost, and a 429 storm
// paced; the sheet written once every page is in, and nothing left behind.

import { randomUUID } from 'node:crypto';
import { DEMO_IDS } from '../../emulator/demo-data';
import type { LoggedRequest } from '../../emulator/request-log';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditBuildHandle, AuditBuildReport, JobProgress, UnfinishedPortfolioJobs } from '../../src/shared/rpc';
import { ok, OWNER, useStack, waitOnBothClocks, type Stack } from '../support/stack';

jest.setTimeout(240_000);

let stack: Stack;
useStack((started) => (stack = started));

const AUDIT = 'Portfolio audit';
const STORM_MS = 15 * 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The add-in's own budget, small enough that the demo fund's reads cross several of its windows. */
function pacedRuntime(rt: GasRuntime, limit = '12/60'): GasRuntime {
  rt.properties.user(OWNER).setProperty('METRICS_API_RATE_LIMIT', limit);
  return rt;
}

/** Steps the build as the sidebar does, waiting out each wait on both clocks; every handle seen, in order. */
async function drive(rt: GasRuntime, first: AuditBuildHandle, maxSteps = 100, between?: (step: number) => void): Promise<AuditBuildHandle[]> {
  const seen = [first];
  let handle = first;
  for (let step = 0; !handle.report && handle.progress.status === 'running' && step < maxSteps; step++) {
    between?.(step);
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    handle = ok<AuditBuildHandle>(rt.callServer('continueAuditBuild', [handle.buildId]));
    seen.push(handle);
  }
  return seen;
}

const isListRead = (r: LoggedRequest) => r.method === 'GET' && /^\/portfolio_(company_profiles|properties|property_values|property_options)$/.test(r.path);

/** Each page the API answered, by path and query: a page read twice across steps shows here twice. */
function pagesAnswered(requests: LoggedRequest[]): string[] {
  return requests.filter((r) => isListRead(r) && r.status === 200).map((r) => `${r.path}?${r.query}`);
}

function expectEachPageOnce(requests: LoggedRequest[]): void {
  const pages = pagesAnswered(requests);
  expect(pages.length).toBeGreaterThan(0);
  expect(new Set(pages).size).toBe(pages.length);
}

/** The build's keys in the user's properties and cache, and its hidden sheets: a finished build leaves none. */
function leftovers(rt: GasRuntime, buildId: string): string[] {
  const properties = Object.keys(rt.properties.user(OWNER).getProperties()).filter((key) => key.includes(buildId) || key === 'JOBS_INDEX');
  const cached = rt.cache
    .user(OWNER)
    ._keys()
    .filter((key) => key.includes(buildId));
  const sheets = rt.spreadsheet
    .getSheets()
    .map((s) => s.getName())
    .filter((name) => name.startsWith('Audit build '));
  return [...properties, ...cached, ...sheets];
}

/** The oracle: the sheet buildAudit writes in one execution, in a runtime of its own. */
function oneExecutionAudit(): unknown[][] {
  const rt = stack.runtime();
  ok<AuditBuildReport>(rt.callServer('buildAudit', [DEMO_IDS.fund]));
  return rt.spreadsheet.getSheetByName(AUDIT)!.getDataRange().getValues();
}

it("reads the demo fund in steps under the add-in's budget, the bar moving, each page once, and writes the sheet once every page is in", async () => {
  const expected = oneExecutionAudit();
  const rt = pacedRuntime(stack.runtime());
  await stack.emulator.control.clearRequests();
  const started = ok<AuditBuildHandle>(rt.callServer('startAuditBuild', [DEMO_IDS.fund]));
  expect(started).toMatchObject({ report: null, progress: { status: 'running', pagesRead: 0 } });

  const seen: AuditBuildHandle[] = [started];
  let handle = started;
  while (!handle.report && seen.length < 100) {
    // Nothing is written before the reads are complete.
    expect(rt.spreadsheet.getSheetByName(AUDIT)).toBeNull();
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    handle = ok<AuditBuildHandle>(rt.callServer('continueAuditBuild', [handle.buildId]));
    seen.push(handle);
  }
  const read = seen.map((h) => h.progress.pagesRead);
  // eslint-disable-next-line no-console -- how the build went
  console.log(`demo fund build: ${seen.length - 1} steps, pages read after each: ${read.join(', ')}`);
  expect(seen.length - 1).toBeGreaterThanOrEqual(3);
  read.slice(1).forEach((n, i) => expect(n).toBeGreaterThan(read[i]!));
  expect(handle.report!.message).toMatch(/^Built "Portfolio audit": 32 companies × 15 properties, \d+% complete/);
  expect(handle.progress).toMatchObject({ status: 'done', pagesRead: handle.progress.pagesTotal, totalKnown: true });

  const requests = await stack.emulator.control.requests();
  expectEachPageOnce(requests);
  expect(pagesAnswered(requests)).toHaveLength(handle.progress.pagesRead);
  // The add-in paced itself: the API refused nothing.
  expect(requests.filter((r) => r.status === 429)).toEqual([]);
  expect(rt.spreadsheet.getSheetByName(AUDIT)!.getDataRange().getValues()).toEqual(expected);
  expect(leftovers(rt, handle.buildId)).toEqual([]);
  // The push finds the audit's snapshot: nothing changed, nothing to send.
  expect(ok<{ report: { totals: Record<string, number> } | null }>(rt.callServer('startAuditPush', [null])).report?.totals).toMatchObject({
    created: 0,
    updated: 0,
  });
});

it('stops a build whose kept pages an editor rewrote: nothing of them becomes the audit', async () => {
  const rt = pacedRuntime(stack.runtime());
  const started = ok<AuditBuildHandle>(rt.callServer('startAuditBuild', [DEMO_IDS.fund]));
  let handle = ok<AuditBuildHandle>(rt.callServer('continueAuditBuild', [started.buildId]));
  const kept = rt.spreadsheet.getSheetByName(`Audit build ${started.buildId}`)!;
  const rows = kept.getDataRange().getValues();
  const at = rows.findIndex((row) => String(row[3]).includes(DEMO_IDS.profile(4)));
  expect(at).toBeGreaterThanOrEqual(0);
  // The editor's find-and-replace: a profile of the fund becomes one of another fund, in the kept page only.
  kept.getRange(at + 1, 4).setValue(String(rows[at]![3]).split(DEMO_IDS.profile(4)).join(DEMO_IDS.profile(13)));

  let refusal: string | null = null;
  for (let step = 0; step < 100 && refusal === null; step++) {
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    const answer = rt.callServer('continueAuditBuild', [started.buildId]) as { ok: true; value: AuditBuildHandle } | { ok: false; error: string };
    if (!answer.ok) refusal = answer.error;
    else if (answer.value.progress.status !== 'running') refusal = answer.value.progress.problem ?? 'stopped without a problem';
    else handle = answer.value;
  }
  expect(refusal).toContain(
    `What this audit build kept on its hidden sheet "Audit build ${started.buildId}" was changed by someone else (or written by another user), so it was not used with your connection. Build the audit again.`,
  );
  expect(rt.spreadsheet.getSheetByName(AUDIT)).toBeNull();
});

it('a cancel stops the build within one wave of reads; Resume reads only the pages not read, and the sheet is whole', async () => {
  // 150 more companies: about 190 pages, several waves of 50 in one step.
  await stack.emulator.control.fixtures({
    portfolio_company_profiles: Array.from({ length: 150 }, (_, i) => ({ company_id: DEMO_IDS.fund, name: `Cancel test ${i}` })),
  });
  const rt = stack.runtime();
  const started = ok<AuditBuildHandle>(rt.callServer('startAuditBuild', [DEMO_IDS.fund]));
  await stack.emulator.control.faults({ latencyMs: 120 });
  await stack.emulator.control.clearRequests();
  let answered = false;
  const step = rt.callServerAsync('continueAuditBuild', [started.buildId]).finally(() => {
    answered = true;
  });
  let live: JobProgress | null = null;
  for (let poll = 0; poll < 600 && !answered && !live; poll++) {
    const read = ok<JobProgress | null>(await rt.callServerAsync('getJobProgress', ['build', started.buildId]));
    if (read && 'pagesRead' in read && read.pagesRead > 0) live = read;
    else await sleep(50);
  }
  if (!live) throw new Error('The step answered before it published any progress: raise the latency or the fund.');
  const cancelAnswer = ok<AuditBuildHandle>(await rt.callServerAsync('cancelAuditBuild', [started.buildId]));
  expect(cancelAnswer.progress.status).toBe('running');
  const atCancel = pagesAnswered(await stack.emulator.control.requests()).length;
  const answer = ok<AuditBuildHandle>(await step);
  await stack.emulator.control.faults({ reset: true });
  const afterStep = await stack.emulator.control.requests();
  expect(answer).toMatchObject({ report: null, progress: { status: 'cancelled' } });
  // Waves are 50 pages: once the cancel is set, at most the wave under way is read.
  expect(pagesAnswered(afterStep).length - atCancel).toBeLessThanOrEqual(50);
  expect(answer.progress.pagesRead).toBe(pagesAnswered(afterStep).length);
  expect(answer.progress.pagesRead).toBeLessThan(answer.progress.pagesTotal);
  expect(rt.spreadsheet.getSheetByName(AUDIT)).toBeNull();

  // A cancelled build reads nothing more until resumed.
  expect(ok<AuditBuildHandle>(rt.callServer('continueAuditBuild', [started.buildId])).progress.status).toBe('cancelled');
  expect(pagesAnswered(await stack.emulator.control.requests())).toHaveLength(answer.progress.pagesRead);

  const resumed = ok<AuditBuildHandle>(rt.callServer('resumeAuditBuild', [started.buildId]));
  const done = (await drive(rt, resumed)).at(-1)!;
  expect(done.report!.profiles).toBe(32 + 150);
  expectEachPageOnce(await stack.emulator.control.requests());
  expect(rt.spreadsheet.getSheetByName(AUDIT)!.getDataRange().getValues()).toEqual(oneExecutionAudit());
  expect(leftovers(rt, started.buildId)).toEqual([]);
});

it('resumes after every cache entry is lost between and during steps (eviction mode): each page read once, the sheet whole', async () => {
  const seed = 1605;
  // eslint-disable-next-line no-console -- a failing run replays from its seed
  console.log(`cache eviction seed ${seed}`);
  const expected = oneExecutionAudit();
  const rt = pacedRuntime(stack.runtime({ cacheEviction: { seed, dropRate: 0.3, byteBudget: 64 * 1024 } }));
  await stack.emulator.control.clearRequests();
  const started = ok<AuditBuildHandle>(rt.callServer('startAuditBuild', [DEMO_IDS.fund]));
  // One step, then a cancel and the whole cache gone (the budget's log with it: a step may then read more than
  // the budget allows, as Apps Script's would). Resume finds everything in the properties and the build's sheet.
  let handles = await drive(rt, started, 1);
  expect(handles.at(-1)!.progress).toMatchObject({ status: 'running', pagesRead: expect.any(Number) });
  expect(handles.at(-1)!.progress.pagesRead).toBeGreaterThan(0);
  ok(rt.callServer('cancelAuditBuild', [started.buildId]));
  rt.cache.clear();
  // The sidebar, reopened, offers it from the properties alone.
  const offered = ok<UnfinishedPortfolioJobs>(rt.callServer('findUnfinishedPortfolioJobs', [])).builds;
  expect(offered.map((h) => [h.buildId, h.progress.status, h.progress.pagesRead])).toEqual([
    [started.buildId, 'cancelled', handles.at(-1)!.progress.pagesRead],
  ]);
  const resumed = ok<AuditBuildHandle>(rt.callServer('resumeAuditBuild', [started.buildId]));
  expect(resumed.progress.pagesRead).toBe(handles.at(-1)!.progress.pagesRead);
  handles = await drive(rt, resumed, 100, () => rt.cache.clear());
  const done = handles.at(-1)!;
  expect(done.report!.profiles).toBe(32);
  const requests = await stack.emulator.control.requests();
  expectEachPageOnce(requests);
  expect(pagesAnswered(requests)).toHaveLength(done.progress.pagesRead);
  expect(rt.spreadsheet.getSheetByName(AUDIT)!.getDataRange().getValues()).toEqual(expected);
  expect(leftovers(rt, started.buildId)).toEqual([]);
  expect(ok<UnfinishedPortfolioJobs>(rt.callServer('findUnfinishedPortfolioJobs', [])).builds).toEqual([]);
});

it('rides out a 15-minute 429 storm with one refused request per backoff interval across steps, then reads the rest once', async () => {
  const rt = stack.runtime();
  const started = ok<AuditBuildHandle>(rt.callServer('startAuditBuild', [DEMO_IDS.fund]));
  // The first step reads a little (a window of 3 requests), then every request meets the storm.
  await stack.emulator.control.rateLimit({ limit: 3, windowSeconds: 300, retryAfter: false, freshWindow: true });
  const first = ok<AuditBuildHandle>(rt.callServer('continueAuditBuild', [started.buildId]));
  expect(first.progress.pagesRead).toBeGreaterThan(0);
  await stack.emulator.control.rateLimit({ limit: 500, windowSeconds: 300, retryAfter: false, freshWindow: true });
  await stack.emulator.control.faults({ throttleForMs: STORM_MS });

  let handle = first;
  for (let step = 0; step < 200 && !handle.report; step++) {
    if (handle.progress.status === 'paused' && /refused every request for 15 minutes/.test(handle.progress.problem ?? '')) {
      await waitOnBothClocks(stack, rt, 60_000);
      handle = ok<AuditBuildHandle>(rt.callServer('resumeAuditBuild', [handle.buildId]));
      continue;
    }
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    handle = ok<AuditBuildHandle>(rt.callServer('continueAuditBuild', [handle.buildId]));
  }
  expect(handle.report!.profiles).toBe(32);
  const requests = await stack.emulator.control.requests();
  const refused = requests
    .filter((r) => r.status === 429)
    .map((r) => Date.parse(r.time))
    .sort((a, b) => a - b);
  const gaps = refused.slice(1).map((time, i) => time - refused[i]!);
  // eslint-disable-next-line no-console -- what the storm cost
  console.log(`audit build in a 15-minute storm: ${refused.length} refused requests, gaps ${gaps.map((gap) => Math.round(gap / 1000)).join(', ')} s`);
  // The first step's wave met the small window's end at once (at most one wave of 50); from then on one
  // refusal at a time, seconds apart, and a few dozen at most in 15 minutes (a step-by-step restart of the
  // backoff would cost one wave per step).
  const firstWave = refused.filter((time) => time - refused[0]! < 1_000).length;
  expect(firstWave).toBeLessThanOrEqual(50);
  const later = gaps.slice(firstWave - 1);
  for (const gap of later) expect(gap).toBeGreaterThanOrEqual(1_000);
  expect(refused.length - firstWave).toBeLessThanOrEqual(20);
  expectEachPageOnce(requests);
  expect(leftovers(rt, handle.buildId)).toEqual([]);
});

it('refuses a build id that is not stored, and a fund id that is not an id', () => {
  const rt = stack.runtime();
  expect(rt.callServer('continueAuditBuild', [randomUUID()])).toMatchObject({ ok: false, error: expect.stringMatching(/no longer stored/) });
  expect(rt.callServer('startAuditBuild', ['not-an-id'])).toMatchObject({ ok: false });
});
