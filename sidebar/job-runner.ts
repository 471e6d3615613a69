// Drives a step-by-step server job (an import, an audit push) with the shared progress bar:
// steps until it ends, waits out the rate limit as a wait, cancels on request, then shows the report.

import { el } from './dom';
import { createProgress } from './progress';
import type { RpcResult } from '../src/shared/rpc';

export interface JobView<H> {
  label: string;
  progress(handle: H): { done: number; total: number; status: string; waitMs?: number };
  /** Null while the job runs. */
  report(handle: H): { summary: string; problems: string[]; problem: string | null } | null;
  next(handle: H): Promise<RpcResult<H>>;
  cancel(handle: H): Promise<RpcResult<H>>;
  /** Continues a cancelled or paused job with what was not confirmed. */
  resume(handle: H): Promise<RpcResult<H>>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function unwrap<T>(result: RpcResult<T>): T {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/** Runs the job to its end inside `container`; returns the last handle. */
export async function runJob<H>(container: HTMLElement, first: H, view: JobView<H>): Promise<H> {
  let handle = first;
  let cancelled = false;
  const bar = createProgress(view.label, () => {
    cancelled = true;
  });
  container.replaceChildren(bar.root);
  for (;;) {
    const state = view.progress(handle);
    bar.update(state.done, state.total);
    if (view.report(handle)) break;
    if (cancelled) {
      handle = unwrap(await view.cancel(handle));
      break;
    }
    if (state.waitMs) {
      for (let left = Math.ceil(state.waitMs / 1000); left > 0 && !cancelled; left--) {
        bar.waiting(left);
        await sleep(1000);
      }
      continue;
    }
    handle = unwrap(await view.next(handle));
  }
  const report = view.report(handle);
  const status = view.progress(handle).status;
  bar.finish(status === 'done' ? 'Finished.' : status === 'cancelled' ? 'Cancelled: it can be resumed.' : 'Paused: see the problem below.', status === 'done' && !report?.problem ? 'success' : 'error');
  if (report) {
    container.append(el('p', { class: `status ${status === 'done' ? 'success' : 'error'}` }, report.summary));
    if (report.problem) container.append(el('p', { class: 'status error' }, report.problem));
    if (report.problems.length) container.append(el('ul', { class: 'problems', 'aria-label': 'Rows or cells not stored' }, ...report.problems.map((p) => el('li', {}, p))));
  }
  if (status !== 'done') {
    const button = el('button', { type: 'button', class: 'action' }, 'Resume');
    button.addEventListener('click', () => {
      button.disabled = true;
      void view.resume(handle).then((result) => {
        if (!result.ok) {
          container.append(el('p', { class: 'status error' }, result.error));
          button.disabled = false;
          return;
        }
        void runJob(container, result.value, view);
      });
    });
    container.append(el('p', { class: 'hint' }, 'Resuming sends only what was not confirmed.'), button);
  }
  return handle;
}
