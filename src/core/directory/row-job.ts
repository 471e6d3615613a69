// One step of a row-by-row import: one write at a time, in sheet order, until the step's time is nearly up.

import type { ApiClient } from '../api/client';
import type { ImportJob, ImportProgress, ImportRowBase, RowWrite } from './types';
import { cancelJob, cloneJob } from '../jobs/job-state';
import { settleRateLimit } from '../jobs/rate-limit-state';
import { countOf } from '../export/places';
import { jobProgress } from '../jobs/progress';

export type ImportStepOptions<State> = {
  /**
   * Absolute time (ms since epoch) by which the step must have returned. Apps Script allows 6 minutes
   * per execution; create the client with the same `deadline`, so that its waits for the rate limit
   * stop in time too.
   */
  deadline: number;
  /** No row starts with less than this left before the deadline (picked by the server with the deadline). */
  marginMs: number;
  /** Checked before every row: true cancels (a cancel pressed in the sidebar while this step runs). */
  shouldStop?: () => boolean;
  /**
   * Called with the state to save: before a POST (`written` null: if the execution dies during the
   * request, the saved state knows which row was in flight) and after every row that was settled,
   * with what to write into the sheet for it right away (its id and status).
   */
  onCheckpoint?: (state: State, written: RowWrite | null) => void;
};

export type ImportStepResult<State> = { state: State; progress: ImportProgress };

/** What sending one row did to the run. */
export type RowResult =
  | { go: true }
  /** The row is still pending; try again after the wait (outOfTime: the step's time ran out, not the rate limit). */
  | { go: false; kind: 'wait'; retryAfterMs?: number; message: string; outOfTime?: true }
  /** Stop and let the user look (the row is settled, or still pending and safe to resend). */
  | { go: false; kind: 'pause'; message: string };

/** How one kind of import sends and marks its rows; the loop around them is shared. */
export type RowSender<State> = {
  /** Sends the row and records its outcome on the state (which it may change). */
  send(state: State, index: number, client: ApiClient): RowResult;
  /** True when the row's write is a POST: it is marked in flight first, and never sent twice. */
  isCreate(state: State, index: number): boolean;
  /** Marks a row whose POST was in flight when an execution died. */
  interrupted(state: State, index: number): void;
  /** What the sheet shows for a settled row. */
  write(state: State, index: number): RowWrite;
};

/**
 * Runs one step: rows are sent one at a time, never together, so an interruption can leave at most
 * the one in flight unsettled, and the state is checkpointed around every row. The given state is
 * not changed: the new one is returned with the progress to show.
 */
export function runImportStep<Row extends ImportRowBase, State extends ImportJob<Row>>(
  state: State,
  client: ApiClient,
  options: ImportStepOptions<State>,
  sender: RowSender<State>,
): ImportStepResult<State> {
  const next = cloneJob(state);
  const now = (): number => client.now();
  const settledInterrupted = settleInterrupted(next, sender);
  if (settledInterrupted !== undefined) options.onCheckpoint?.(next, sender.write(next, settledInterrupted));
  if (next.status !== 'running' || (next.notBefore !== undefined && now() < next.notBefore)) {
    return { state: next, progress: importProgress(next, now()) };
  }
  delete next.notBefore;
  delete next.problem;
  next.counters.steps++;
  const deadline = Math.min(options.deadline, now() + client.remainingMs());
  const marginMs = options.marginMs;
  const stepStart = now();
  let answered = false;
  let wait: { retryAfterMs?: number; outOfTime?: true } | undefined;

  for (;;) {
    const index = nextPending(next);
    if (index < 0) break;
    if (options.shouldStop?.()) {
      next.status = 'cancelled';
      break;
    }
    if (now() + marginMs > deadline) break;
    const create = sender.isCreate(next, index);
    if (create) {
      next.inFlight = index;
      options.onCheckpoint?.(next, null);
    }
    next.counters.requests++;
    const result = sender.send(next, index, client);
    delete next.inFlight;
    const settled = next.rows[index]?.outcome !== 'pending';
    // A row settled, or sent on, was answered by the API with something other than the rate limit.
    if (result.go || settled) answered = true;
    options.onCheckpoint?.(next, settled ? sender.write(next, index) : null);
    if (result.go) continue;
    next.problem = result.message;
    if (result.kind === 'wait') wait = result;
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

/**
 * A state saved with a POST in flight comes from an execution that died during the request: the row
 * may have been created, so it is marked as such (by the sender) instead of being sent again.
 * Returns the row's index when there was one.
 */
export function settleInterrupted<Row extends ImportRowBase, State extends ImportJob<Row>>(state: State, sender: Pick<RowSender<State>, 'interrupted'>): number | undefined {
  const index = state.inFlight;
  if (index === undefined) return undefined;
  delete state.inFlight;
  if (state.rows[index]?.outcome !== 'pending') return undefined;
  sender.interrupted(state, index);
  return index;
}

/** What the progress bar shows: rows with a final outcome, and any wait the rate limit asked for. */
export function importProgress<Row extends ImportRowBase>(state: ImportJob<Row>, nowMs: number): ImportProgress {
  return jobProgress(state, nowMs, { rowsDone: state.rows.filter((row) => row.outcome !== 'pending').length, rowsTotal: state.rows.length });
}

/** Stops an import between steps; pending rows stay pending, so a resume sends only those. */
export function cancelImport<State extends ImportJob<ImportRowBase>>(state: State): State {
  return cancelJob(state);
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

export { cloneJob };

function nextPending(state: ImportJob<ImportRowBase>): number {
  return state.rows.findIndex((row) => row.outcome === 'pending');
}
