// One step of an import on the jobs' wave engine (runWaveStep): waves of pending rows in sheet order, each
// wave's rows sent one request at a time, so an interruption leaves at most the one in flight unsettled.

import type { ApiClient } from '../api/client';
import type { ApiError } from '../errors';
import type { ImportJob, ImportProgress, ImportReport, ImportRowBase, RowWrite } from './types';
import { cloneJob, resumeWaveJob } from '../jobs/job-state';
import { countOf } from '../../shared/words';
import { jobProgress } from '../jobs/progress';
import { classifyFailure, type Failure } from '../jobs/classify-failure';
import { runWaveStep, type WaveAttempt, type WaveFailureEffect, type WaveStepOptions } from '../jobs/wave-step';
import { buildImportReport, reportRow, type RowDescriber } from './import-report';
import { IMPORT_WAVE_ROWS } from '../pacing';

export type ImportStepOptions<State> = Omit<WaveStepOptions<State>, 'onCheckpoint'> & {
  /**
   * Called with the state to save: before a POST (`written` null, so a state saved by an execution that
   * died knows the row in flight) and after every settled row, with its id and status to write at once.
   */
  onCheckpoint?: (state: State, written: RowWrite | null) => void;
};

export type ImportStepResult<State> = { state: State; progress: ImportProgress };

/** How one kind of import (contacts, profiles) sends, settles and describes its rows; the rest is shared. */
export type ImportKind<Row extends ImportRowBase, Outcome extends string> = RowDescriber<Row, Outcome> & {
  /** True when the row's write is a POST: it is marked in flight first, and never sent twice. */
  isCreate(row: Row): boolean;
  /**
   * Absent: the rows are sent as planned. Present: `readAndCompare`, just before a wave's writes, reads what the kind
   * compares the rows it guards with (the server as it is now, once for the wave) and settles those that
   * must not be sent as planned; true when it asked the API. It throws what the client throws, and nothing
   * of the wave is sent then; a refused read settles the rows it guards through `unreadable` (they are not
   * sent unchecked).
   */
  guard?: { readAndCompare(rows: readonly Row[], client: ApiClient): boolean; unreadable(rows: readonly Row[], reason: string): void };
  /** Sends the row and records its outcome on it; throws what the client throws. */
  send(row: Row, client: ApiClient): void;
  /** Fails a row (a refusal, 4xx, fails only its row: the import goes on). */
  fail(row: Row, reason: string): void;
  /** What the API's refusal means for this kind, by "status field", added to its reason. */
  refusalHints: Readonly<Record<string, string>>;
  /** Settles a refused row otherwise than as failed (a contact that already exists); true when it did. */
  refused?(row: Row, error: ApiError): boolean;
  /** Marks a row whose request got no clear answer; returns what the pause message adds about it. */
  unanswered(row: Row, sheetRow: number): string;
  /** Marks a row whose POST was in flight when an execution died. */
  interrupted(row: Row): void;
};

/**
 * Runs one step: waves of pending rows in sheet order, one request at a time, until none is left or the
 * deadline nears; cancel is checked before every write. A refusal (4xx) fails its row and the import goes
 * on; a request with no clear answer pauses it (a PUT stays pending and is sent again on resume, a POST
 * is settled by the kind as maybe created); the rate limit waits, probes and pauses in a storm as every
 * job does. The given state is not changed.
 */
export function runImportStep<Row extends ImportRowBase, State extends ImportJob<Row>>(
  state: State,
  client: ApiClient,
  options: ImportStepOptions<State>,
  kind: ImportKind<Row, string>,
): ImportStepResult<State> {
  const next = cloneJob(state);
  const settledInterrupted = settleInterrupted(next, kind);
  if (settledInterrupted !== undefined) options.onCheckpoint?.(next, rowWrite(next, settledInterrupted, kind));
  const deadline = Math.min(options.deadline, client.now() + client.remainingMs());
  // The wave saves the state itself, before each POST and after each row: no save of its own after a wave.
  return runWaveStep(
    next,
    client,
    { ...options, onCheckpoint: undefined },
    {
      waveSize: IMPORT_WAVE_ROWS,
      // No failure of an import is transient (an unclear answer pauses it): never reached.
      maxStepsWithoutProgress: 1,
      // A row settled as "may have been created" pauses the import, finished or not, so the person looks first.
      isComplete: (job) => job.status !== 'paused' && isImportComplete(job),
      wave: (job, waveSize) => sendWave(job, waveSize, client, { ...options, deadline }, kind),
      effectOf: importEffect,
      progress: importProgress,
      stormSentence: (job, minutes) =>
        `The API refused every request for ${minutes} minutes because of its rate limit, so the import paused with ${countOf(pendingCount(job), 'row')} left. Resume sends only those once the API accepts requests again.`,
    },
  );
}

/** What an import's failure does to it: a refusal settled its row already; anything unclear pauses. */
function importEffect(failure: Failure): WaveFailureEffect {
  switch (failure.kind) {
    case 'wait':
      return failure;
    case 'refused':
      return { kind: 'none' };
    case 'unknown':
      return { kind: 'pause', message: failure.message };
    case 'stop':
      return { kind: 'pause', message: failure.message };
  }
}

/** One wave: the kind's read, then each row's write, checking cancel and the time before each. */
function sendWave<Row extends ImportRowBase, State extends ImportJob<Row>>(
  state: State,
  waveSize: number,
  client: ApiClient,
  options: ImportStepOptions<State>,
  kind: ImportKind<Row, string>,
): WaveAttempt<Failure> {
  const wave = pendingIndexes(state).slice(0, waveSize);
  let progressed = false;
  if (kind.guard) {
    const rows = wave.map((index) => state.rows[index]!);
    try {
      // The API answered the read: its window is open.
      progressed = kind.guard.readAndCompare(rows, client);
    } catch (error) {
      const failure = classifyFailure(error, 'import');
      if (failure.kind !== 'refused') return { progressed: false, failure };
      kind.guard.unreadable(rows, failure.reason);
      progressed = true;
    }
    // Rows the guard settled (a conflict) are written into the sheet as any settled row is.
    wave.forEach((index) => {
      if (state.rows[index]!.outcome !== 'pending') options.onCheckpoint?.(state, rowWrite(state, index, kind));
    });
  }
  for (const index of wave) {
    const row = state.rows[index]!;
    if (row.outcome !== 'pending') continue;
    // Left for runWaveStep, which sees the same and ends the step (cancelled, or out of time).
    if (options.shouldStop?.() || client.now() + options.marginMs > options.deadline) break;
    if (kind.isCreate(row)) {
      state.inFlight = index;
      options.onCheckpoint?.(state, null);
    }
    state.counters.requests++;
    let failure: Failure | undefined;
    try {
      kind.send(row, client);
    } catch (error) {
      failure = classifyFailure(error, 'import');
    }
    if (failure?.kind === 'refused') {
      if (!(failure.error && kind.refused?.(row, failure.error)))
        kind.fail(row, failure.reason + (kind.refusalHints[`${failure.error?.status} ${failure.error?.field}`] ?? ''));
      failure = undefined;
    } else if (failure?.kind === 'unknown') {
      failure = { ...failure, message: `${failure.message} ${kind.unanswered(row, state.origin.row + row.row - 1)}` };
    }
    delete state.inFlight;
    const settled = row.outcome !== 'pending';
    // A row settled, or sent on, was answered by the API with something other than the rate limit.
    if (failure === undefined || settled) progressed = true;
    options.onCheckpoint?.(state, settled ? rowWrite(state, index, kind) : null);
    if (failure) return { progressed, failure };
  }
  return { progressed };
}

/** The report at any point: before sending (a preview), during, after, or after a cancel. */
export function importReport<Row extends ImportRowBase, Outcome extends string>(state: ImportJob<Row>, kind: ImportKind<Row, Outcome>): ImportReport<Outcome> {
  const settled = cloneJob(state);
  settleInterrupted(settled, kind);
  return buildImportReport(settled, kind);
}

/**
 * A state saved with a POST in flight comes from an execution that died during the request: the row
 * may have been created, so the kind marks it as such instead of sending it again. Returns the row's
 * index when there was one.
 */
function settleInterrupted<Row extends ImportRowBase>(state: ImportJob<Row>, kind: ImportKind<Row, string>): number | undefined {
  const index = state.inFlight;
  if (index === undefined) return undefined;
  delete state.inFlight;
  const row = state.rows[index];
  if (row?.outcome !== 'pending') return undefined;
  kind.interrupted(row);
  return index;
}

/** What the sheet shows for a settled row: the report's id and status texts. */
function rowWrite<Row extends ImportRowBase>(state: ImportJob<Row>, index: number, kind: ImportKind<Row, string>): RowWrite {
  const { row, sheetRow, idText, status } = reportRow(state, state.rows[index]!, kind);
  return { row, sheetRow, idText, status };
}

/** What the progress bar shows: rows with a final outcome, and any wait the rate limit asked for. */
export function importProgress<Row extends ImportRowBase>(state: ImportJob<Row>, nowMs: number): ImportProgress {
  return jobProgress(state, nowMs, { rowsDone: state.rows.length - pendingCount(state), rowsTotal: state.rows.length });
}

/** Lets a cancelled or paused import run again, with the rows still pending (resumeWaveJob). */
export function resumeImport<State extends ImportJob<ImportRowBase>>(state: State): State {
  return resumeWaveJob(state, isImportComplete);
}

/** Nothing pending, and no POST whose outcome an interrupted execution left unknown. */
function isImportComplete(state: ImportJob<ImportRowBase>): boolean {
  return pendingCount(state) === 0 && state.inFlight === undefined;
}

function pendingIndexes(state: ImportJob<ImportRowBase>): number[] {
  return state.rows.flatMap((row, index) => (row.outcome === 'pending' ? [index] : []));
}

function pendingCount(state: ImportJob<ImportRowBase>): number {
  return state.rows.filter((row) => row.outcome === 'pending').length;
}
