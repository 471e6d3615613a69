// One step of a row-by-row import: one write at a time, in sheet order, until the step's time is nearly up.

import type { ApiClient } from '../api/client';
import type { ApiError } from '../errors';
import type { ImportJob, ImportProgress, ImportReport, ImportRowBase, RowWrite } from './types';
import { cloneJob } from '../jobs/job-state';
import { settleRateLimit } from '../jobs/rate-limit-state';
import { countOf } from '../export/places';
import { jobProgress } from '../jobs/progress';
import { classifyFailure, type Failure } from '../jobs/classify-failure';
import { buildImportReport, reportRow, type RowDescriber } from './import-report';

export type ImportStepOptions<State> = {
  /** When (ms since epoch) the step must have returned; give the client the same, so its rate-limit waits stop in time. */
  deadline: number;
  /** No row starts with less than this left before the deadline (picked by the server with the deadline). */
  marginMs: number;
  /** Checked before every row: true cancels (a cancel pressed in the sidebar while this step runs). */
  shouldStop?: () => boolean;
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
 * Runs one step: pending rows in sheet order, one request at a time (so an interruption leaves at most
 * the one in flight unsettled), until none is left or the deadline nears. A refusal (4xx) fails its row
 * and the import goes on; a request with no clear answer pauses it. The given state is not changed.
 */
export function runImportStep<Row extends ImportRowBase, State extends ImportJob<Row>>(
  state: State,
  client: ApiClient,
  options: ImportStepOptions<State>,
  kind: ImportKind<Row, string>,
): ImportStepResult<State> {
  const next = cloneJob(state);
  const now = (): number => client.now();
  const settledInterrupted = settleInterrupted(next, kind);
  if (settledInterrupted !== undefined) options.onCheckpoint?.(next, rowWrite(next, settledInterrupted, kind));
  if (next.status !== 'running' || (next.notBefore !== undefined && now() < next.notBefore)) {
    return { state: next, progress: importProgress(next, now()) };
  }
  delete next.notBefore;
  delete next.problem;
  next.counters.steps++;
  const deadline = Math.min(options.deadline, now() + client.remainingMs());
  const stepStart = now();
  let answered = false;
  let wait: Extract<Failure, { kind: 'wait' }> | undefined;

  for (;;) {
    const index = nextPending(next);
    if (index < 0) break;
    if (options.shouldStop?.()) {
      next.status = 'cancelled';
      break;
    }
    if (now() + options.marginMs > deadline) break;
    const row = next.rows[index]!;
    if (kind.isCreate(row)) {
      next.inFlight = index;
      options.onCheckpoint?.(next, null);
    }
    next.counters.requests++;
    let failure: Failure | undefined;
    try {
      kind.send(row, client);
    } catch (error) {
      failure = classifyFailure(error, 'import');
    }
    let problem: string | undefined;
    if (failure?.kind === 'refused') {
      if (!(failure.error && kind.refused?.(row, failure.error))) kind.fail(row, failure.reason + (kind.refusalHints[`${failure.error?.status} ${failure.error?.field}`] ?? ''));
    }
    else if (failure?.kind === 'unknown') problem = `${failure.message} ${kind.unanswered(row, next.origin.row + row.row - 1)}`;
    else if (failure) problem = failure.message;
    delete next.inFlight;
    const settled = row.outcome !== 'pending';
    // A row settled, or sent on, was answered by the API with something other than the rate limit.
    if (problem === undefined || settled) answered = true;
    options.onCheckpoint?.(next, settled ? rowWrite(next, index, kind) : null);
    if (problem === undefined) continue;
    next.problem = problem;
    if (failure?.kind === 'wait') wait = failure;
    else next.status = 'paused';
    break;
  }
  settleRateLimit(next, {
    wait,
    answered,
    stepStart,
    nowMs: now(),
    stormSentence: (minutes) => `The API refused every request for ${minutes} minutes because of its rate limit, so the import paused with ${countOf(next.rows.filter((row) => row.outcome === 'pending').length, 'row')} left. Resume sends only those once the API accepts requests again.`,
  });

  if (nextPending(next) < 0 && next.status !== 'paused') {
    next.status = 'done';
    delete next.notBefore;
  }
  return { state: next, progress: importProgress(next, now()) };
}

/** The report at any point: before sending (a preview), during, after, or after a cancel. */
export function importReport<Row extends ImportRowBase, Outcome extends string>(
  state: ImportJob<Row>,
  kind: ImportKind<Row, Outcome>,
): ImportReport<Outcome> {
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
  return jobProgress(state, nowMs, { rowsDone: state.rows.filter((row) => row.outcome !== 'pending').length, rowsTotal: state.rows.length });
}

/** Lets a cancelled or paused import run again, with the rows still pending. */
export function resumeImport<State extends ImportJob<ImportRowBase>>(state: State): State {
  const next = cloneJob(state);
  if (next.status === 'cancelled' || next.status === 'paused') {
    next.status = nextPending(next) < 0 && next.inFlight === undefined ? 'done' : 'running';
    delete next.problem;
    delete next.notBefore;
    // The user's word that the API may accept requests again: the storm clock starts over.
    delete next.rateLimitedSince;
  }
  return next;
}

function nextPending(state: ImportJob<ImportRowBase>): number {
  return state.rows.findIndex((row) => row.outcome === 'pending');
}
