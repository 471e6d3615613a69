// Drives a step-by-step server job (an export, an import, an audit push) with the shared progress bar:
// steps until it ends, waits out the rate limit as a wait, cancels on request, then shows the report.

import { countOf, el, focusOn, showingProgress } from './dom';
import { jobLine, partialTone, toneOf, writeLine, type Outcome, type Shortfall } from './outcome';
import { createProgress } from './progress';
import { server } from './server';
import type { JobProgress, RpcResult, UndoablePush, UndoHandle } from '../src/shared/rpc';

export interface JobView<H> {
  label: string;
  /** note: a line beside the counts (the export's time waited for the rate limit). */
  progress(handle: H): { done: number; total: number; status: string; waitMs?: number; note?: string };
  /** Null while the job runs. */
  report(handle: H): { summary: string; problems: string[]; problem: string | null } | null;
  /** What did not go as asked, from the report's totals: it decides the report's colour. */
  shortfall(handle: H): Shortfall;
  next(handle: H): Promise<RpcResult<H>>;
  /** What the running step has done so far (getJobProgress), or null when it has not said yet. */
  watch(handle: H): Promise<{ done: number; total: number } | null>;
  cancel(handle: H): Promise<RpcResult<H>>;
  /** Continues a cancelled or paused job with what was not confirmed. */
  resume(handle: H): Promise<RpcResult<H>>;
  /** What the kind adds below its report (the export's status column and formula refresh). */
  extras?(handle: H): HTMLElement[];
  /** Called once the job has ended with a report, before it is shown. */
  ended?(handle: H): void;
  /** Offers Resume somewhere of the kind's own instead of under the report. */
  offerResume?(handle: H): void;
  /** Whether what the job sends is logged in the Pushes sheet (exports, audit pushes, imports): the report links to it. */
  logged?: true;
  /** What a cancelled job keeps for Resume, and what Resume does (a job that sends, by default). */
  whatResumes?: { cancelled: string; hint: string };
}

/** The line under a sending job's report that opens the Pushes sheet (openPushLog), and offers Undo. */
function pushLogLink(run: ActionRunner): HTMLElement {
  const open = el('button', { type: 'button', 'data-push-log': '' }, 'Open the Pushes sheet');
  open.addEventListener('click', () =>
    run('Opening the Pushes sheet…', async () => {
      const result = await server.openPushLog();
      return result.ok ? { line: result.value, tone: 'success' } : { line: result.error, tone: 'error' };
    }),
  );
  const undo = el('button', { type: 'button', 'data-undo-push': '' }, 'Undo a push…');
  const undoResults = el('div', { class: 'results' });
  undo.addEventListener('click', () => {
    undo.disabled = true;
    run('Reading your last pushes…', () => chooseUndo(undoResults, run));
  });
  return el('div', {}, el('p', { class: 'hint' }, 'Every value sent is logged, with who sent it and its outcome. ', open, ' ', undo), undoResults);
}

/** A push as the list of Undo names it: kind, when, how many values. */
function pushOption(push: UndoablePush): string {
  return `${push.kind}, ${push.started}, ${countOf(push.stored, 'value')}${push.undoneBy ? ' (undone)' : ''}`;
}

/**
 * Undo's confirmation, in `container`: the person's last pushes in a labelled list (newest first, one already
 * undone shown but not offered), the chosen one described (kind, when, how many values, what Undo restores and
 * cannot), and the undo runs only once "Undo this push" is pressed. A step of its own, not a window.confirm.
 */
export async function chooseUndo(container: HTMLElement, run: ActionRunner): Promise<Outcome> {
  const listed = await server.listUndoablePushes();
  if (!listed.ok) return { line: listed.error, tone: 'error' };
  const { pushes, altered } = listed.value;
  const warning: HTMLElement[] = altered ? [el('p', { class: 'status warning', role: 'alert' }, altered)] : [];
  const choosable = pushes.filter((push) => !push.undoneBy);
  if (choosable.length === 0) {
    const line =
      pushes.length === 0
        ? "None of your pushes is in this spreadsheet's journal: there is nothing to undo (pushes made in other spreadsheets are undone there)."
        : 'Your last pushes here were all undone already.';
    container.replaceChildren(...warning, el('p', { class: 'hint' }, line));
    return { line, tone: 'warning', report: container };
  }
  const select = el(
    'select',
    { 'data-undo-choice': '' },
    ...pushes.map((push) => el('option', { value: push.pushId, disabled: Boolean(push.undoneBy) }, pushOption(push))),
  );
  select.value = choosable[0]!.pushId;
  const description = el('p', { class: 'hint', 'data-undo-description': '', 'aria-live': 'polite' });
  const describe = (): void => {
    description.textContent = pushes.find((push) => push.pushId === select.value)?.description ?? '';
  };
  describe();
  select.addEventListener('change', describe);
  const confirm = el('button', { type: 'button', 'data-undo-confirm': '' }, 'Undo this push');
  const keep = el('button', { type: 'button', 'data-undo-keep': '' }, 'Keep it');
  const box = el(
    'div',
    { class: 'undo-chooser', role: 'group', 'aria-label': 'Undo a push' },
    ...warning,
    el('label', {}, 'Push to undo (your last pushes in this spreadsheet, newest first) ', select),
    description,
    el('div', { class: 'buttons' }, confirm, keep),
  );
  container.replaceChildren(box);
  keep.addEventListener('click', () => {
    const kept = el('p', { class: 'hint' }, 'Nothing was undone.');
    container.replaceChildren(kept);
    // Keep it has gone with the chooser: the focus goes to the line that says what happened.
    focusOn(kept);
  });
  confirm.addEventListener('click', () => {
    const pushId = select.value;
    confirm.disabled = keep.disabled = select.disabled = true;
    run(`Undoing Push ${pushId}…`, async () => {
      const started = await server.undoPush(pushId);
      if (!started.ok) return { line: started.error, tone: 'error' };
      return runJob(container, started.value, UNDO_VIEW, run);
    });
  });
  select.focus();
  return { line: 'Pick the push to undo, read what Undo restores, then press "Undo this push".', tone: 'success', report: container };
}

/** Undo of a push: the values it replaced get their value before back; a value changed since is a conflict, kept. */
export const UNDO_VIEW: JobView<UndoHandle> = {
  label: 'Restoring the values before the push',
  progress: (h) => ({ done: h.progress.cellsDone, total: h.progress.cellsTotal, status: h.progress.status, waitMs: h.progress.waitingForRateLimitMs }),
  report: (h) =>
    h.report && {
      summary: h.report.summary,
      problem: h.report.problem,
      problems: h.report.problems.map((p) => `${p.cell} (${p.profileName}, ${p.propertyName}): ${p.outcome}${p.reason ? `: ${p.reason}` : ''}`),
    },
  shortfall: (h) => ({
    failed: h.report?.totals.failed,
    refused: (h.report?.totals.conflict ?? 0) + (h.report?.notUndone.length ?? 0),
    notSent: h.report?.totals.pending,
  }),
  next: (h) => server.continueUndo(h.undoId),
  watch: (h) => readProgress(server.getJobProgress('undo', h.undoId), (p) => ('cellsDone' in p ? { done: p.cellsDone, total: p.cellsTotal } : null)),
  cancel: (h) => server.cancelUndo(h.undoId),
  resume: (h) => server.resumeUndo(h.undoId),
  // What the API cannot undo, each with where it is and why: the person clears or restores it in the web application.
  extras: (h) =>
    h.report?.notUndone.length
      ? [
          el(
            'ul',
            { class: 'problems', 'aria-label': 'Values the API cannot undo' },
            ...h.report.notUndone.map((v) =>
              el('li', {}, `${v.cell ? `${v.cell} ` : ''}(${v.what}${v.period ? `, ${v.period}` : ''}) "${v.value}": ${v.reason}`),
            ),
          ),
        ]
      : [],
};

const SENDS = { cancelled: 'Cancelled: what was not sent can be resumed.', hint: 'Resuming sends only what was not confirmed.' };

/**
 * After Cancel, how long the page waits for the step that was running to answer. A step runs for about
 * 20 seconds and stops at its next group of requests once it sees the cancel, so this is ample; a step
 * that still has not answered (a lost connection) must not keep the page waiting for ever.
 */
export const CANCEL_WAIT_MS = 45_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How often the page reads a running step's progress. */
export const PROGRESS_POLL_MS = 1000;

/**
 * Awaits a step while reading the progress it publishes after every wave, about once a second, so the bar
 * moves while the step runs: on Google every google.script.run call is an execution of its own, so a read
 * runs beside the step. One read at a time; a read that fails or finds nothing changes nothing, and none
 * is shown once the step has answered (its answer is newer).
 */
export async function awaitStep<T, P>(step: Promise<T>, read: () => Promise<P | null>, show: (progress: P) => void, intervalMs = PROGRESS_POLL_MS): Promise<T> {
  let answered = false;
  const ended = step.then(
    () => {
      answered = true;
    },
    () => {
      answered = true;
    },
  );
  void (async () => {
    while (!answered) {
      await Promise.race([sleep(intervalMs), ended]);
      if (answered) return;
      const progress = await read().catch(() => null);
      if (!answered && progress) show(progress);
    }
  })();
  return step;
}

/** A job's progress as getJobProgress answers it, when it is of the shape `pick` recognises. */
export async function readProgress<P>(answer: Promise<RpcResult<JobProgress | null>>, pick: (progress: JobProgress) => P | null): Promise<P | null> {
  const result = await answer;
  return result.ok && result.value ? pick(result.value) : null;
}

function unwrap<T>(result: RpcResult<T>): T {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/**
 * Runs an action of the panel (busy() with its status line): a Resume offered at the end of a job runs
 * through it, so its outcome reaches the status line like the first run's.
 */
export type ActionRunner = (label: string, work: () => Promise<Outcome>) => void;

/** Runs the job to its end inside `container`; returns how it ended, with `container` as its report. */
export async function runJob<H>(container: HTMLElement, first: H, view: JobView<H>, run: ActionRunner): Promise<Outcome> {
  let handle = first;
  let cancelSent: Promise<RpcResult<H>> | null = null;
  let onCancel: () => void = () => undefined;
  const cancelPressed = new Promise<void>((resolve) => {
    onCancel = resolve;
  });
  const bar = createProgress(view.label, () => {
    // At once, not after the step: the server's cancel mark stops the running step at its next group of requests.
    cancelSent ??= view.cancel(handle);
    onCancel();
  });
  // A job started from a button inside `container` (Resume, Undo this push, Overwrite) replaces that button, or the
  // button was disabled as it was pressed: either way the focus would fall to the body, so it goes to the bar.
  const takeFocus = !document.activeElement || document.activeElement === document.body || container.contains(document.activeElement);
  container.replaceChildren(bar.root);
  if (takeFocus) focusOn(bar.root.querySelector<HTMLElement>('.progress-label') ?? bar.root);
  const progressHeard = showingProgress(container);
  let stepStillRunning = false;
  for (;;) {
    const state = view.progress(handle);
    bar.update(state.done, state.total, state.note);
    if (view.report(handle) || cancelSent) break;
    if (state.waitMs) {
      for (let left = Math.ceil(state.waitMs / 1000); left > 0 && !cancelSent; left--) {
        bar.waiting(left);
        await sleep(1000);
      }
      // The handle still names the wait it was given: the next step ends it (a step the server finds
      // still early answers with the time left); going round with this handle would wait again for ever.
      if (cancelSent) continue;
    }
    const step = awaitStep(
      view.next(handle),
      () => view.watch(handle),
      (live) => bar.update(live.done, live.total),
    );
    const afterCancel = cancelPressed.then(() => Promise.race([step, sleep(CANCEL_WAIT_MS).then(() => null)]));
    const answer = await Promise.race([step, afterCancel]);
    if (answer === null) {
      stepStillRunning = true;
      break;
    }
    handle = unwrap(answer);
  }
  if (cancelSent && !view.report(handle)) {
    // Only its arrival matters: whatever the first cancel answered (even a failure), it is asked again
    // now the step has answered, since that first answer may predate the step's last checkpoint.
    // (The cast: TypeScript narrows cancelSent to null, not seeing the click handler assign it.)
    await (cancelSent as Promise<RpcResult<H>>).catch(() => undefined);
    handle = unwrap(await view.cancel(handle));
  }
  const report = view.report(handle);
  if (report) view.ended?.(handle);
  const status = view.progress(handle).status;
  const ending =
    status === 'done'
      ? 'Finished.'
      : status === 'cancelled'
        ? (view.whatResumes ?? SENDS).cancelled
        : status === 'running' || stepStillRunning
          ? 'Cancelled: the step that was running stops at its next group of requests. Close and reopen the sidebar to be offered Resume for what was not confirmed.'
          : 'Paused: see the problem below.';
  // Red only for what was not stored: a job that stored part of its work ends as partial, its counts coloured apart.
  const stopped = status === 'paused' || Boolean(report?.problem);
  const tone = report && status === 'done' && !stopped ? partialTone(report.summary, toneOf(view.shortfall(handle))) : toneOf(view.shortfall(handle), stopped);
  bar.finish(ending, tone);
  progressHeard();
  if (report) {
    const summary = el('p', { class: `status ${tone}` });
    writeLine(summary, report.summary, tone);
    container.append(summary);
    // Cancel had the focus and has gone (bar.finish put the focus on its ending line): the report is what to read next.
    if (bar.root.contains(document.activeElement)) focusOn(summary);
    if (report.problem) container.append(el('p', { class: 'status error' }, report.problem));
    if (report.problems.length)
      container.append(el('ul', { class: 'problems', 'aria-label': 'Rows or cells not stored' }, ...report.problems.map((p) => el('li', {}, p))));
    container.append(...(view.extras?.(handle) ?? []));
    if (view.logged) container.append(pushLogLink(run));
  }
  if (status !== 'done' && status !== 'running') {
    if (view.offerResume) view.offerResume(handle);
    else container.append(...resumeOffer(container, handle, view, run, (view.whatResumes ?? SENDS).hint));
  }
  const line = report ? jobLine(stepStillRunning ? 'cancelled' : status, report.summary) : ending;
  return { line, tone, report: container };
}

/** A Resume button that runs the job again from what was not confirmed, in `container`. */
export function resumeOffer<H>(container: HTMLElement, handle: H, view: JobView<H>, run: ActionRunner, hint = SENDS.hint): HTMLElement[] {
  const button = el('button', { type: 'button' }, 'Resume');
  button.addEventListener('click', () => {
    run('Resuming…', async () => runJob(container, unwrap(await view.resume(handle)), view, run));
  });
  return [el('p', { class: 'hint' }, hint), button];
}
