// Pushes and imports keep compact state, on the built bundle: no copy of the
// cells or rows, so thousands of them fit the job store, and with the cache losing entries between and
// during steps (and cleared between them) nothing is sent twice, Resume is found again, nothing is left.

import { randomUUID } from 'node:crypto';
import type { LoggedRequest } from '../../emulator/request-log';
import type { GasRuntime } from '../../gas-runtime';
import type { AuditPushHandle, ImportHandle, UnfinishedPortfolioJobs } from '../../src/shared/rpc';
import { JOB_MAX_BYTES } from '../../src/core/jobs/pieced-store';
import { ok, OWNER, useStack, waitOnBothClocks, type Stack } from '../support/stack';

jest.setTimeout(600_000);

let stack: Stack;
useStack((started) => (stack = started));

/** "Properties total storage 500kB / property store": one job may take JOB_MAX_BYTES of it (pieced-store.ts). */

/** Everything in the owner's user properties, in UTF-8 bytes of keys and values. */
/** The record Undo kept of the last push before each push had its journal (a leftover of an older version): not a job's state. */
const isUndoRecord = (key: string): boolean => key.startsWith('job:last-push:');

/** Bytes of the owner's properties, keys included: the job's state and everything else, the Undo record apart. */
function propertyBytes(rt: GasRuntime, which: (key: string) => boolean = (key) => !isUndoRecord(key)): number {
  return Object.entries(rt.properties.user(OWNER).getProperties())
    .filter(([key]) => which(key))
    .reduce((sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);
}

/** At most KEPT_FOR_UNDO (300) values of a push are kept for Undo, a few hundred bytes each: under 128 KB of the 500 KB store. */
const UNDO_RECORD_MAX_BYTES = 128 * 1024;

/** The job's own keys in the owner's properties and cache: a finished job leaves none. */
function leftovers(rt: GasRuntime, jobId: string): string[] {
  const properties = Object.keys(rt.properties.user(OWNER).getProperties()).filter((key) => key.includes(jobId) || key === 'JOBS_INDEX');
  const cached = rt.cache
    .user(OWNER)
    ._keys()
    .filter((key) => key.includes(jobId));
  return [...properties, ...cached];
}

type Handle = { report: unknown; progress: { status: string; waitingForRateLimitMs?: number } };

/**
 * Steps a job as the sidebar does. Every fourth step the sidebar is closed and opened again with the
 * cache cleared: the job must be offered again from the properties alone. Returns the last handle and the
 * peak of the user properties' bytes after any step.
 */
async function drive<H extends Handle>(rt: GasRuntime, first: H, kind: Stepper<H>, label: string): Promise<{ handle: H; steps: number; peakBytes: number }> {
  const maxSteps = 400;
  let handle = first;
  let peakBytes = propertyBytes(rt);
  let steps = 0;
  while (!handle.report && steps < maxSteps) {
    if (steps % 4 === 3) {
      rt.cache.clear();
      expect(kind.offered(rt)).toContain(kind.id(handle));
    }
    await waitOnBothClocks(stack, rt, handle.progress.waitingForRateLimitMs);
    handle = ok<H>(rt.callServer(kind.next, [kind.id(handle)]));
    peakBytes = Math.max(peakBytes, propertyBytes(rt));
    expect(propertyBytes(rt, isUndoRecord)).toBeLessThan(UNDO_RECORD_MAX_BYTES);
    steps++;
  }
  // eslint-disable-next-line no-console -- the figure a reviewer reads
  console.log(`${label}: ${steps} steps, peak user properties ${peakBytes} bytes`);
  return { handle, steps, peakBytes };
}

/** How the sidebar steps a kind of job, and finds it among the unfinished jobs it offers. */
type Stepper<H> = { next: string; id: (handle: H) => string; offered: (rt: GasRuntime) => string[] };
const PUSH: Stepper<AuditPushHandle> = { next: 'continueAuditPush', id: (h) => h.pushId, offered: (rt) => unfinished(rt).pushes.map((push) => push.pushId) };
const IMPORT: Stepper<ImportHandle> = { next: 'continueImport', id: (h) => h.importId, offered: (rt) => unfinished(rt).imports.map((i) => i.importId) };

/** A runtime whose user cache loses entries as `seed` draws them, the seed printed so a failing run replays. */
function evictingRuntime(seed: number, defaultCompany?: string): GasRuntime {
  // eslint-disable-next-line no-console -- a failing run replays from its seed
  console.log(`cache eviction seed ${seed}`);
  return stack.runtime({ ...(defaultCompany ? { defaultCompany } : {}), cacheEviction: { seed, dropRate: 0.3, byteBudget: 256 * 1024 } });
}

/** Sheet1 with room for a header and `rows` rows below it. */
function sheetWithRows(rt: GasRuntime, rows: number) {
  const sheet = rt.spreadsheet.getSheetByName('Sheet1')!;
  if (sheet.getMaxRows() < rows + 1) sheet.insertRowsAfter(sheet.getMaxRows(), rows + 1 - sheet.getMaxRows());
  return sheet;
}

function unfinished(rt: GasRuntime): UnfinishedPortfolioJobs {
  return ok<UnfinishedPortfolioJobs>(rt.callServer('findUnfinishedPortfolioJobs', []));
}

/** Accepted PUTs of property values, as "profile/property". */
function confirmedCells(requests: LoggedRequest[]): string[] {
  return requests
    .filter((r) => r.method === 'PUT' && r.status >= 200 && r.status < 300 && r.path.endsWith('/portfolio_property_values'))
    .map((r) => (r.body as { portfolio_property_value: { portfolio_company_profile_id: string; portfolio_property_id: string } }).portfolio_property_value)
    .map((v) => `${v.portfolio_company_profile_id}/${v.portfolio_property_id}`);
}

it('pushes 4,300 changed cells within the job store, with the cache losing entries: every cell stored once, Resume found after the cache is cleared, nothing left behind', async () => {
  const seed = 1617;
  // The smallest push whose cells' text would not fit a job's 170 KB if the state kept a copy of it: each
  // text below is 72.7 bytes of UTF-8 on average, and 307,200 / 72.7 = 4,226 cells; 100 × 43 = 4,300.
  const PROFILES = 100;
  const PROPERTIES = 43;
  const CELLS = PROFILES * PROPERTIES;
  const fund = randomUUID();
  const profiles = Array.from({ length: PROFILES }, (_, i) => ({ id: randomUUID(), name: `Société ${i}`, company_id: fund }));
  const properties = Array.from({ length: PROPERTIES }, (_, i) => ({ id: randomUUID(), name: `Propriété ${i}`, data_type: 'string', company_id: fund }));
  await stack.emulator.control.fixtures({
    companies: [{ id: fund, name: 'Fonds compact', kind: 'investor' }],
    portfolio_company_profiles: profiles,
    portfolio_properties: properties,
  });
  const rt = evictingRuntime(seed, fund);
  // The rate budget's log is in the evicting cache, so the API's own limit refuses cells mid-wave, one window in
  // nine. The API names its wait (Retry-After): each window then costs one refused step, not a probe step per
  // doubling of the job's own backoff (about 40 of the push's 50 steps; resume-probe and job-storms test those
  // probes). Still ten steps: the cache is cleared and the push found again twice.
  await stack.emulator.control.rateLimit({ retryAfter: true });
  ok(rt.callServer('buildAudit', [fund]));

  // Every cell edited, with text that is neither short nor ASCII: a copy of it would not fit 170 KB.
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = sheet.getDataRange().getValues();
  const columnOf = new Map(properties.map((p) => [p.id, grid[0]!.indexOf(p.id)]));
  const rowOf = new Map(profiles.map((p) => [p.id, grid.findIndex((line) => line[0] === p.id)]));
  const expected = new Map<string, string>();
  for (const [p, profile] of profiles.entries()) {
    for (const [q, property] of properties.entries()) {
      const text = `Siège de la société n° ${p} — propriété ${q} · 東京都千代田区`;
      grid[rowOf.get(profile.id)!]![columnOf.get(property.id)!] = text;
      expected.set(`${profile.id}/${property.id}`, text);
    }
  }
  sheet.getDataRange().setValues(grid);
  await stack.emulator.control.clearRequests();

  const started = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
  expect(started.progress).toMatchObject({ status: 'running', cellsDone: 0, cellsTotal: CELLS });
  const { handle, steps, peakBytes } = await drive(rt, started, PUSH, '4,300-cell push');
  expect(handle.progress).toMatchObject({ status: 'done', cellsDone: CELLS, cellsTotal: CELLS });
  expect(handle.report!.totals).toMatchObject({ updated: 0, created: CELLS, failed: 0, pending: 0 });
  expect(steps).toBeGreaterThan(7);
  // The state is a fingerprint and an outcome code a cell: far under a job's share of the store.
  expect(peakBytes).toBeLessThan(64 * 1024);
  expect(peakBytes).toBeLessThan(JOB_MAX_BYTES);

  const requests = await stack.emulator.control.requests();
  const cells = confirmedCells(requests);
  expect(cells).toHaveLength(CELLS);
  expect(new Set(cells).size).toBe(CELLS);
  const state = await stack.emulator.control.state();
  const stored = state.portfolio_property_values.filter((v) => expected.has(`${v.portfolio_company_profile_id}/${v.portfolio_property_id}`));
  expect(stored).toHaveLength(CELLS);
  for (const value of stored) expect(value.value).toBe(expected.get(`${value.portfolio_company_profile_id}/${value.portfolio_property_id}`));
  expect(leftovers(rt, handle.pushId)).toEqual([]);
});

it('pauses a push whose sheet was edited between steps instead of sending the cells as they now are, and refuses to resume it', async () => {
  const rt = stack.runtime();
  ok(rt.callServer('buildAudit', [stack.emulator.companyId]));
  const sheet = rt.spreadsheet.getSheetByName('Portfolio audit')!;
  const grid = sheet.getDataRange().getValues();
  const state = await stack.emulator.control.state();
  const property = state.portfolio_properties.find((p) => p.company_id === stack.emulator.companyId && p.name === 'Headquarters')!;
  const column = grid[0]!.indexOf(property.id) + 1;
  const rows = grid.flatMap((line, index) => (typeof line[0] === 'string' && /^[0-9a-f-]{36}$/.test(line[0]) ? [index + 1] : []));
  rows.forEach((row, i) => sheet.getRange(row, column).setValue(`Edited ${i}`));
  const started = ok<AuditPushHandle>(rt.callServer('startAuditPush', [null]));
  expect(started.progress.status).toBe('running');
  sheet.getRange(rows[0]!, column).setValue('Edited again');
  await stack.emulator.control.clearRequests();
  const next = ok<AuditPushHandle>(rt.callServer('continueAuditPush', [started.pushId]));
  expect(next.progress).toMatchObject({ status: 'paused', problem: expect.stringMatching(/audit sheet changed/) });
  expect(next.report!.summary).toMatch(/audit sheet changed/);
  // Told from the stored outcome codes alone: every edited cell still pending.
  expect(next.report!.totals).toMatchObject({ pending: rows.length, created: 0, failed: 0 });
  expect((await stack.emulator.control.requests()).filter((r) => r.method === 'PUT')).toEqual([]);
  expect(rt.callServer('resumeAuditPush', [started.pushId])).toMatchObject({ ok: false, error: expect.stringMatching(/audit sheet changed/) });
});

// Before the import's state was compact, it kept every row's request body: 2,000 of these rows needed 605 KB
// (about 310 bytes a row), so startImport refused them ("This job's state needs 605 KB, more than the 300 KB
// it may keep"). 1,100 rows are the fewest past that limit: 1,100 × 310 = 333 KB.
it('imports 1,100 contacts within the job store, with the cache losing entries: each created once, Resume found after the cache is cleared, nothing left behind', async () => {
  const seed = 1618;
  const ROWS = 1_100;
  const rt = evictingRuntime(seed);
  const sheet = sheetWithRows(rt, ROWS);
  const emails = Array.from({ length: ROWS }, (_, i) => `contact.${i}.${seed}@exemple-societe.example.com`);
  sheet
    .getRange(1, 1, ROWS + 1, 4)
    .setValues([
      ['Email', 'First name', 'Last name', 'Title'],
      ...emails.map((email, i) => [email, `Prénom ${i}`, `Nom de famille ${i}`, 'Directrice générale déléguée']),
    ]);
  await stack.emulator.control.clearRequests();

  const started = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'contacts', companyId: stack.emulator.companyId, range: `Sheet1!A1:D${ROWS + 1}` }]));
  expect(started.progress).toMatchObject({ status: 'running', rowsDone: 0, rowsTotal: ROWS });
  const { handle, peakBytes } = await drive(rt, started, IMPORT, '1,100-row import');
  expect(handle.progress).toMatchObject({ status: 'done', rowsDone: ROWS });
  expect(handle.report!.totals).toMatchObject({ created: ROWS, failed: 0, pending: 0 });
  // Codes, a fingerprint and 1,100 created ids (22 characters each): well under a job's share of the store,
  // at most 48 bytes a row (as 96 KB was for 2,000 rows).
  expect(peakBytes).toBeLessThan(ROWS * 48);
  expect(peakBytes).toBeLessThan(JOB_MAX_BYTES);

  const requests = await stack.emulator.control.requests();
  const posted = requests
    .filter((r) => r.method === 'POST' && r.status === 201 && r.path.endsWith('/contacts'))
    .map((r) => (r.body as { contact: { email: string } }).contact.email);
  expect(posted).toHaveLength(ROWS);
  expect(new Set(posted).size).toBe(ROWS);
  const state = await stack.emulator.control.state();
  for (const email of emails.slice(0, 50)) expect(state.contacts.filter((c) => c.email === email)).toHaveLength(1);
  // Every row's id went into the sheet as it settled.
  const ids = sheet
    .getRange(2, 5, ROWS, 1)
    .getValues()
    .map(([id]) => id);
  expect(ids.every((id) => typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id))).toBe(true);
  expect(leftovers(rt, handle.importId)).toEqual([]);
});

it('imports 1,000 profiles, a quarter of them updates, within the job store with the cache losing entries: each created or updated once, Resume found after the cache is cleared, nothing left behind', async () => {
  const seed = 1619;
  const ROWS = 1_000;
  const UPDATES = 250;
  const fund = randomUUID();
  const existing = Array.from({ length: UPDATES }, (_, i) => ({
    id: randomUUID(),
    name: `Société existante ${i}`,
    company_id: fund,
    website_url: null,
    currency: 'EUR',
  }));
  // Profiles no row names: the state keeps none of them.
  const others = Array.from({ length: 300 }, (_, i) => ({ id: randomUUID(), name: `Autre société ${i}`, company_id: fund }));
  await stack.emulator.control.fixtures({
    companies: [{ id: fund, name: 'Fonds des profils', kind: 'investor' }],
    portfolio_company_profiles: [...existing, ...others],
  });
  const rt = evictingRuntime(seed, fund);
  const sheet = sheetWithRows(rt, ROWS);
  const names = Array.from({ length: ROWS }, (_, i) => (i < UPDATES ? existing[i]!.name : `Nouvelle société ${i} — Zürich`));
  const website = (i: number): string => `https://societe-${i}.example.com/presentation`;
  sheet.getRange(1, 1, ROWS + 1, 3).setValues([['Name', 'Website', 'Currency'], ...names.map((name, i) => [name, website(i), 'chf'])]);
  await stack.emulator.control.clearRequests();

  const started = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'profiles', companyId: fund, range: `Sheet1!A1:C${ROWS + 1}` }]));
  expect(started.progress).toMatchObject({ status: 'running', rowsDone: 0, rowsTotal: ROWS });
  const { handle, steps, peakBytes } = await drive(rt, started, IMPORT, '1,000-row profile import');
  expect(handle.progress).toMatchObject({ status: 'done', rowsDone: ROWS });
  expect(handle.report!.totals).toMatchObject({ created: ROWS - UPDATES, updated: UPDATES, failed: 0, pending: 0 });
  expect(steps).toBeGreaterThan(3);
  expect(peakBytes).toBeLessThan(96 * 1024);

  const requests = await stack.emulator.control.requests();
  const accepted = (method: string) =>
    requests.filter((r) => r.method === method && r.status >= 200 && r.status < 300 && r.path.includes('/portfolio_company_profiles'));
  const postedNames = accepted('POST').map((r) => (r.body as { portfolio_company_profile: { name: string } }).portfolio_company_profile.name);
  expect(postedNames).toHaveLength(ROWS - UPDATES);
  expect(new Set(postedNames).size).toBe(ROWS - UPDATES);
  const putPaths = accepted('PUT').map((r) => r.path);
  expect(putPaths).toHaveLength(UPDATES);
  expect(new Set(putPaths).size).toBe(UPDATES);
  const state = await stack.emulator.control.state();
  const ofFund = state.portfolio_company_profiles.filter((p) => p.company_id === fund);
  expect(ofFund).toHaveLength(ROWS + others.length);
  for (const i of [0, UPDATES - 1, UPDATES, ROWS - 1]) {
    expect(ofFund.find((p) => p.name === names[i])).toMatchObject({ website_url: website(i), currency: 'CHF' });
  }
  // Every row's id went into the new id column, right of the range.
  const ids = sheet
    .getRange(2, 4, ROWS, 1)
    .getValues()
    .map(([id]) => id);
  expect(ids.every((id) => typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id))).toBe(true);
  expect(leftovers(rt, handle.importId)).toEqual([]);
});

it('pauses an import whose range was edited between steps instead of sending its rows as they now are, and refuses to resume it', async () => {
  const ROWS = 1_500;
  const rt = stack.runtime();
  const sheet = sheetWithRows(rt, ROWS);
  sheet.getRange(1, 1, ROWS + 1, 2).setValues([['Email', 'First name'], ...Array.from({ length: ROWS }, (_, i) => [`edited.${i}@example.com`, `Nom ${i}`])]);
  const started = ok<ImportHandle>(rt.callServer('startImport', [{ kind: 'contacts', companyId: stack.emulator.companyId, range: `Sheet1!A1:B${ROWS + 1}` }]));
  expect(started.progress.status).toBe('running');
  // The API takes 25 requests this window: the first step ends there, far from the last row, without creating
  // 500 contacts first (only what happens at the next step is tested here).
  await stack.emulator.control.rateLimit({ limit: 25, retryAfter: true, freshWindow: true });
  const first = ok<ImportHandle>(rt.callServer('continueImport', [started.importId]));
  expect(first.progress.status).toBe('running');
  const sent = first.progress.rowsDone;
  expect(sent).toBeGreaterThan(0);
  expect(sent).toBeLessThan(ROWS);
  // The ids and statuses the import writes are not an edit; a changed email is.
  sheet.getRange(ROWS + 1, 1).setValue('someone.else@example.com');
  await stack.emulator.control.clearRequests();
  const next = ok<ImportHandle>(rt.callServer('continueImport', [started.importId]));
  expect(next.progress).toMatchObject({ status: 'paused', rowsDone: sent, problem: expect.stringMatching(/range changed/) });
  expect(next.report!.summary).toMatch(/range changed/);
  expect(next.report!.totals).toMatchObject({ created: sent, pending: ROWS - sent, failed: 0 });
  expect((await stack.emulator.control.requests()).filter((r) => r.method === 'POST')).toEqual([]);
  expect(rt.callServer('resumeImport', [started.importId])).toMatchObject({ ok: false, error: expect.stringMatching(/range changed/) });
  // Put back as it was, the import is its own again and goes on with the rows it had not sent.
  sheet.getRange(ROWS + 1, 1).setValue(`edited.${ROWS - 1}@example.com`);
  const resumed = ok<ImportHandle>(rt.callServer('resumeImport', [started.importId]));
  expect(resumed.progress).toMatchObject({ status: 'running', rowsDone: sent });
});
