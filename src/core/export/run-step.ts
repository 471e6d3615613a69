// One step of an export: read existing points and send batches until the step's time is nearly up.

import type { ApiError } from '../errors';
import type { ApiClient } from '../api/client';
import type { DataPoint } from '../api/types';
import { classifyFailure, waveEffect, worseFailure, type Failure } from '../jobs/classify-failure';
import { mapRefusal } from './batch-errors';
import { applyDiff, compareItem, foundValues, nextDiffChunk } from './diff';
import { isComplete, itemsOf } from './export-state';
import { cloneJob } from '../jobs/job-state';
import { countItems, placeNamer, type PlaceNamer } from './places';
import type { ExportProgress, ExportState } from './types';
import { jobProgress } from '../jobs/progress';
import { runWaveStep, type WaveAttempt, type WaveStepOptions } from '../jobs/wave-step';
import { EXPORT_PUTS_IN_FLIGHT, EXPORT_WAVE_BATCHES } from '../pacing';

/** `noun`: what the job is to the person (an undo of an export steps as an export does). */
export type ExportStepOptions = WaveStepOptions<ExportState> & { noun?: 'export' | 'undo' };

type Attempt = WaveAttempt<Failure>;

/**
 * Runs one step on a copy of the state: existing points are read first (onlyChanged), then waves of
 * upserts go out, each after its own read of the values it replaces (compare-and-set, see sendWave). A refusal (404, 422, …) stops that metric only; the rate limit, 5xx and lost
 * connections leave the batch pending for the next step. A confirmed batch is never sent again.
 */
export function runExportStep(state: ExportState, client: ApiClient, options: ExportStepOptions): { state: ExportState; progress: ExportProgress } {
  const next = cloneJob(state);
  const places = placeNamer(next.spec.layout, next.origin);
  const fullWave = Math.max(1, Math.floor(options.waveSize ?? EXPORT_WAVE_BATCHES));
  return runWaveStep(next, client, options, {
    // Batches sent together in one wave (see pickWave).
    waveSize: EXPORT_WAVE_BATCHES,
    maxStepsWithoutProgress: 3,
    isComplete,
    wave: (job, waveSize) => {
      const toRead = job.metrics.findIndex((metric) => metric.phase === 'diff');
      return toRead >= 0
        ? readExisting(job, toRead, client)
        : sendWave(job, { cover: fullWave, first: waveSize }, client, places, {
            shouldStop: options.shouldStop ?? (() => false),
            checkpoint: (saved) => options.onCheckpoint?.(saved),
            // Like a new wave, a later group of the same wave starts only with the step's margin left.
            timeLeft: () => client.now() + options.marginMs <= Math.min(options.deadline, client.now() + client.remainingMs()),
          });
    },
    effectOf: waveEffect,
    progress: exportProgress,
    stormSentence: (job, minutes) => {
      const left = countItems(job.spec.layout, job.items.filter((item) => item.outcome === 'pending').length);
      return `The API refused every request for ${minutes} minutes because of its rate limit, so the ${options.noun ?? 'export'} paused with ${left} left. Resume sends only those once the API accepts requests again.`;
    },
  });
}

/** What the progress bar shows: items with a final outcome of all items. */
export function exportProgress(state: ExportState, nowMs: number): ExportProgress {
  return jobProgress(state, nowMs, {
    itemsDone: state.items.filter((item) => item.outcome !== 'pending').length,
    itemsTotal: state.items.length,
    batchesDone: state.batches.filter((batch) => batch.status !== 'pending').length,
    batchesTotal: state.batches.length,
  });
}

/**
 * For a preview: only the reads "only what changed" makes, so the preview counts what the export will,
 * until the deadline or a temporary failure (its sentence returned; the export compares the rest). What
 * these reads found on each item (`approved`) is what the person approves: the export compares its writes
 * with it (compare.ts), never with a copy of these reads.
 */
export function readStoredPoints(state: ExportState, client: ApiClient, deadline: number): { state: ExportState; problem?: string } {
  const next = cloneJob(state);
  for (;;) {
    const metric = next.metrics.findIndex((candidate) => candidate.phase === 'diff');
    if (metric < 0) break;
    if (client.now() >= deadline) return { state: next, problem: 'The preview ran out of time before comparing every value with what is stored.' };
    // readExisting settles a refused metric itself (its items fail): what is left is worth trying again later.
    const { failure } = readExisting(next, metric, client);
    if (failure) return { state: next, problem: failure.kind === 'refused' ? failure.reason : failure.message };
  }
  if (isComplete(next)) next.status = 'done';
  return { state: next };
}

/** Reads one chunk of a metric's existing points, then plans only the items that differ. */
function readExisting(state: ExportState, metric: number, client: ApiClient): Attempt {
  const metricState = state.metrics[metric]!;
  const chunk = nextDiffChunk(state, metric);
  if (!chunk) {
    metricState.phase = 'send';
    return { progressed: true };
  }
  state.counters.reads++;
  let points: DataPoint[];
  try {
    points = client.dataPoints.list(metricState.id, { startDate: chunk.startDate, endDate: chunk.endDate });
  } catch (error) {
    const failure = classifyFailure(error, 'export');
    if (failure.kind !== 'refused') return { progressed: false, failure };
    refuseRead(state, metric, failure);
    return { progressed: true };
  }
  applyDiff(state, metric, points, chunk.indices);
  return { progressed: true };
}

/**
 * Which batches go in the next wave. A metric sends its first batch alone, so a 404 or 403 (a wrong id,
 * no access) stops it after one request; once one is confirmed, the rest follow in the same wave, after
 * the same compare read (EXPORT_PUTS_IN_FLIGHT at a time, see sendWave). Metrics share a wave round by
 * round in sheet order, so the wide layout's columns progress together. `asIfProven`: the batches the wave
 * would send were every metric proven, which its compare read covers (see sendWave).
 */
export function pickWave(state: ExportState, waveSize: number, asIfProven = false): number[] {
  const queues = new Map<number, number[]>();
  const proven = provenMetrics(state);
  state.batches.forEach((batch, index) => {
    if (batch.status !== 'pending' || state.metrics[batch.metric]?.phase !== 'send') return;
    const queue = queues.get(batch.metric) ?? [];
    queue.push(index);
    queues.set(batch.metric, queue);
  });
  const wave: number[] = [];
  for (let round = 0; wave.length < waveSize; round++) {
    let added = false;
    for (const [metric, queue] of queues) {
      if (wave.length >= waveSize) break;
      if (round >= queue.length || (round > 0 && !asIfProven && !proven.has(metric))) continue;
      wave.push(queue[round]!);
      added = true;
    }
    if (!added) break;
  }
  return wave;
}

/** Metrics with a confirmed batch: the API accepted a write of theirs. */
function provenMetrics(state: ExportState): Set<number> {
  return new Set(state.batches.filter((batch) => batch.status === 'confirmed').map((batch) => batch.metric));
}

/**
 * One wave, compare-and-set: the server's values for every batch the wave covers are read first, in this
 * very wave (one paginated read per metric and date window, covering several batches of 50); each item is
 * compared with what its plan expects (compareItem), and only what still holds it is written. The PUTs
 * then go EXPORT_PUTS_IN_FLIGHT at a time (one), the cancel mark read right before each: once it is set, no
 * further PUT leaves, so at most the one already in flight lands after a Cancel. A metric not yet proven
 * sends its first batch alone, then, once it is stored, the rest of the batches the read covered, with
 * no second read.
 */
type WaveHooks = { shouldStop: () => boolean; checkpoint: (state: ExportState) => void; timeLeft: () => boolean };

/**
 * `size.first`: the batches the first group may send (1 for the probe after a 429; never more than
 * EXPORT_PUTS_IN_FLIGHT, as every group); the read still covers a
 * whole wave (`size.cover`), so reads stay whole pages of two batches each, and the rest goes once the probe
 * is accepted.
 */
function sendWave(state: ExportState, size: { cover: number; first: number }, client: ApiClient, places: PlaceNamer, hooks: WaveHooks): Attempt {
  const cover = pickWave(state, size.cover, true);
  if (cover.length === 0) return { progressed: false, failure: { kind: 'stop', message: 'The export has batches it cannot send.' } };
  const read = compareBeforeWrite(state, cover, client);
  if (read.failure) return read;
  let progressed = read.progressed;
  for (let groups = 0; ; groups++) {
    const proven = provenMetrics(state);
    const firsts = new Set<number>();
    const group = cover.filter((index) => {
      const batch = state.batches[index]!;
      if (batch.status !== 'pending' || state.metrics[batch.metric]?.phase !== 'send') return false;
      if (proven.has(batch.metric)) return true;
      if (firsts.has(batch.metric)) return false;
      firsts.add(batch.metric);
      return true;
    });
    group.splice(groups === 0 ? Math.min(size.first, EXPORT_PUTS_IN_FLIGHT) : EXPORT_PUTS_IN_FLIGHT);
    if (group.length === 0) return { progressed };
    if (groups > 0) {
      // The rest of the covered batches go with the next wave (and its own read) when time is short.
      if (!hooks.timeLeft()) return { progressed };
      // The last group's outcome saved before the next goes: a step killed now never sends a confirmed batch again.
      hooks.checkpoint(state);
    }
    // Checked after the read, right before each PUT: a Cancel pressed meanwhile (during the read or the
    // PUT before) sends nothing more. The step's own check then ends it as cancelled.
    if (hooks.shouldStop()) return { progressed };
    const sent = sendGroup(state, group, client, places);
    progressed ||= sent.progressed;
    if (sent.failure) return { progressed, failure: sent.failure };
  }
}

/** Periods of a frequency between two dates, both included (an estimate of the points a read returns). */
function periodsBetween(frequency: string, start: string, end: string): number {
  const days = Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000);
  const months = (Number(end.slice(0, 4)) - Number(start.slice(0, 4))) * 12 + Number(end.slice(5, 7)) - Number(start.slice(5, 7));
  switch (frequency) {
    case 'weekly':
      return Math.floor(days / 7) + 1;
    case 'monthly':
      return months + 1;
    case 'quarterly':
      return Math.floor(months / 3) + 1;
    case 'annually':
      return Math.floor(months / 12) + 1;
    // Daily, and any frequency not known (an undo's): a point a day at most.
    default:
      return days + 1;
  }
}

const READ_PAGE = 100;

/**
 * The date windows that cover a metric's dates (sorted): one window grows while reading it whole costs no
 * more pages than reading the next date apart, so dense dates share pages of 100 and far ones do not drag
 * years of points between them into the read.
 */
function dateWindows(frequency: string, dates: readonly string[]): Array<{ start: string; end: string }> {
  const pages = (start: string, end: string): number => Math.max(1, Math.ceil(periodsBetween(frequency, start, end) / READ_PAGE));
  const windows: Array<{ start: string; end: string }> = [];
  for (const date of dates) {
    const last = windows[windows.length - 1];
    if (last && pages(last.start, date) <= pages(last.start, last.end) + 1) last.end = date;
    else windows.push({ start: date, end: date });
  }
  return windows;
}

/**
 * The wave's compare read and comparison: every pending item of the covered batches is compared with the
 * value the server holds now; what is not to be written leaves its batch (a batch left empty is not sent).
 * Metrics proven by a write share a read when their windows are the same (a wide layout's columns); one not
 * yet proven is read alone, so a refused id fails only its own items.
 */
function compareBeforeWrite(state: ExportState, cover: readonly number[], client: ApiClient): Attempt {
  const byMetric = new Map<number, number[]>();
  for (const batchIndex of cover) {
    const batch = state.batches[batchIndex]!;
    byMetric.set(batch.metric, [...(byMetric.get(batch.metric) ?? []), ...batch.items.filter((index) => state.items[index]!.outcome === 'pending')]);
  }
  const proven = provenMetrics(state);
  const reads = new Map<string, { metrics: number[]; start: string; end: string }>();
  for (const [metric, items] of byMetric) {
    const dates = [...new Set(items.map((index) => state.items[index]!.date!))].sort();
    for (const window of dateWindows(state.metrics[metric]!.frequency, dates)) {
      const key = proven.has(metric) ? `${window.start}|${window.end}` : `${window.start}|${window.end}|${metric}`;
      const read = reads.get(key) ?? { metrics: [], start: window.start, end: window.end };
      read.metrics.push(metric);
      reads.set(key, read);
    }
  }
  const found = new Map<number, Map<string, string | null>>();
  let progressed = false;
  for (const read of reads.values()) {
    const live = read.metrics.filter((metric) => state.metrics[metric]!.phase === 'send');
    if (live.length === 0) continue;
    state.counters.reads++;
    let points: DataPoint[];
    try {
      points = client.dataPoints.list(
        live.map((metric) => state.metrics[metric]!.id),
        { startDate: read.start, endDate: read.end },
      );
    } catch (error) {
      const failure = classifyFailure(error, 'export');
      if (failure.kind !== 'refused') return { progressed, failure };
      for (const metric of live) refuseRead(state, metric, failure);
      progressed = true;
      continue;
    }
    for (const metric of live) {
      const values = found.get(metric) ?? new Map<string, string | null>();
      for (const [date, value] of foundValues(state.metrics[metric]!.id, points)) if (date >= read.start && date <= read.end) values.set(date, value);
      found.set(metric, values);
    }
  }
  for (const batchIndex of cover) {
    const batch = state.batches[batchIndex]!;
    const values = found.get(batch.metric);
    if (batch.status !== 'pending' || !values) continue;
    batch.items = batch.items.filter((index) => {
      const item = state.items[index]!;
      if (item.outcome !== 'pending') return false;
      if (compareItem(state, item, values.get(item.date!), 'write')) return true;
      // Settled by the comparison (a conflict, or already stored): that is progress. A read alone is not,
      // or a PUT failing step after step behind a successful read would never pause the export.
      progressed = true;
      return false;
    });
    if (batch.items.length === 0) batch.status = 'not_sent';
  }
  return { progressed };
}

/** A read of a metric's points was refused: its pending items fail with the reason, and it stops. */
function refuseRead(state: ExportState, metric: number, failure: Extract<Failure, { kind: 'refused' }>): void {
  const reason = failure.error
    ? `not sent: the metric's existing data points could not be read: ${failure.reason}`
    : `${failure.reason} (while reading the metric's existing data points)`;
  for (const index of itemsOf(state, metric)) fail(state, index, reason);
  state.metrics[metric]!.phase = 'stopped';
  // Batches planned earlier are not sent either (their items just failed with the reason): left pending,
  // the export would end paused on batches no wave may pick.
  for (const batch of state.batches) if (batch.metric === metric && batch.status === 'pending') batch.status = 'not_sent';
}

/** Sends one group of batches together (at most EXPORT_PUTS_IN_FLIGHT), and settles each by its answer. */
function sendGroup(state: ExportState, wave: readonly number[], client: ApiClient, places: PlaceNamer): Attempt {
  const requests = wave.map((index) => {
    const batch = state.batches[index]!;
    return {
      metricId: state.metrics[batch.metric]!.id,
      dataPoints: batch.items.map((item) => ({ date: state.items[item]!.date!, value: state.items[item]!.value! })),
    };
  });
  state.counters.upserts += wave.length;
  let settled: ReturnType<ApiClient['dataPoints']['upsertMany']>;
  try {
    settled = client.dataPoints.upsertMany(requests);
  } catch (error) {
    // The budget refused to wait (RateLimitedError, OutOfTimeError) before any answer: the whole wave is still pending.
    return { progressed: false, failure: classifyFailure(error, 'export') };
  }
  let progressed = false;
  let failure: Failure | undefined;
  const refused: Array<{ batchIndex: number; error: ApiError }> = [];
  const unanswered = new Set<number>();
  wave.forEach((batchIndex, position) => {
    const result = settled[position];
    if (result?.ok) {
      confirm(state, batchIndex);
      progressed = true;
      return;
    }
    const classified = classifyFailure(result ? result.error : new Error('The client returned no outcome for a batch.'), 'export');
    if (classified.kind !== 'refused') {
      unanswered.add(batchIndex);
      failure = worseFailure(failure, classified);
      return;
    }
    progressed = true;
    if (classified.error) {
      refused.push({ batchIndex, error: classified.error });
      return;
    }
    // Nothing was sent: this batch fails with Apps Script's reason, and the metric's others go on.
    const batch = state.batches[batchIndex]!;
    batch.status = 'not_sent';
    for (const index of batch.items) fail(state, index, classified.reason);
  });
  // Refusals last, once every answer of the wave is known: a batch of the same metric that was confirmed
  // stays confirmed, one whose answer was lost is reported as such, not as "not sent".
  const culprits = new Map<number, number>();
  for (const { batchIndex, error } of refused) {
    const culprit = refuse(state, batchIndex, error, places);
    const metric = state.batches[batchIndex]!.metric;
    if (!culprits.has(metric)) culprits.set(metric, culprit);
  }
  for (const [metric, culprit] of culprits) stopMetric(state, metric, places.one(state.items[culprit]!), unanswered);
  return failure ? { progressed, failure } : { progressed };
}

function confirm(state: ExportState, batchIndex: number): void {
  const batch = state.batches[batchIndex]!;
  batch.status = 'confirmed';
  for (const index of batch.items) {
    const item = state.items[index]!;
    item.outcome = item.planned ?? 'written';
    delete item.planned;
    delete item.reason;
  }
}

/** The batch's items get the API's refusal, mapped to the rows that caused it; returns the culprit item. */
function refuse(state: ExportState, batchIndex: number, error: ApiError, places: PlaceNamer): number {
  const batch = state.batches[batchIndex]!;
  const items = batch.items.map((index) => state.items[index]!);
  const refusal = mapRefusal(error, items, (position) => places.one(items[position]!));
  batch.status = 'failed';
  batch.items.forEach((index, position) => fail(state, index, refusal.reasons[position] ?? 'not stored'));
  return batch.items[refusal.culprit]!;
}

/** Stops a metric after a refusal in `where`: its pending batches fail, saying whether they may be stored. */
function stopMetric(state: ExportState, metric: number, where: string, unanswered: ReadonlySet<number>): void {
  state.metrics[metric]!.phase = 'stopped';
  state.batches.forEach((other, batchIndex) => {
    if (other.metric !== metric || other.status !== 'pending') return;
    const lost = unanswered.has(batchIndex);
    other.status = lost ? 'failed' : 'not_sent';
    const reason = lost
      ? `unknown whether stored: its request got no clear answer, and the metric was then stopped after an error in ${where}; fix that and export again (only what changed is sent)`
      : `not sent: the metric was stopped after an error in ${where}`;
    for (const index of other.items) fail(state, index, reason);
  });
}

function fail(state: ExportState, index: number, reason: string): void {
  const item = state.items[index]!;
  item.outcome = 'failed';
  item.reason = reason;
  delete item.planned;
}
