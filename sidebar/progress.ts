// The progress bar that long work shares (export, audit push): progress, waits, cancel, final report.

import { el, focusOn } from './dom';
import type { Tone } from './outcome';

export interface ProgressView {
  /** Work done so far, e.g. rows confirmed of rows to send. */
  update(done: number, total: number, note?: string): void;
  /** A pause that is not slowness: waiting out the API's rate limit (the seconds left of this wait). */
  waiting(seconds: number): void;
  /** Ends the run with a summary; the cancel button goes away. */
  finish(summary: string, kind: Tone): void;
  readonly cancelled: boolean;
  readonly root: HTMLElement;
}

export function createProgress(label: string, onCancel?: () => void): ProgressView {
  const bar = el('progress', { max: '1', value: '0', 'aria-label': label });
  // The line changes with every progress read and every second of a wait: shown, not read out. What is read out
  // goes to `heard`, once per change worth hearing (started, each quarter done, a wait begun, cancelling); the
  // tab's status line announces how the job ended.
  const text = el('p', { class: 'progress-text' }, 'Starting…');
  const heard = el('p', { class: 'visually-hidden', role: 'status' });
  const cancel = el('button', { type: 'button', class: 'cancel', 'aria-label': `Cancel: ${label}` }, 'Cancel');
  // Sticky while it runs (styles.css): the bar, the estimate and Cancel stay in view wherever the tab scrolls.
  const root = el('div', { class: 'progress running' }, el('p', { class: 'progress-label' }, label), bar, text, heard, cancel);
  let quarterHeard = 0;
  let waitHeard = false;
  const hear = (line: string): void => {
    if (heard.textContent !== line) heard.textContent = line;
  };
  // Set once the page has drawn the region empty: a region that arrives holding its text is not read by every screen reader.
  setTimeout(() => hear(`${label}: started.`), 0);
  let cancelled = false;
  const started = Date.now();
  let done = 0;
  let total = 0;
  /**
   * One figure for the whole job: the time taken so far per unit done, waits included, times what is left.
   * It never restarts per wait, as a countdown of each rate-limit wait did.
   */
  const estimate = (waitSeconds = 0): string => {
    if (done <= 0 || total <= done) return waitSeconds > 0 ? `about ${duration(waitSeconds * 1000)} left` : '';
    const leftMs = ((Date.now() - started) / done) * (total - done);
    return `about ${duration(Math.max(leftMs, waitSeconds * 1000))} left`;
  };
  const counted = (): string => `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`;
  cancel.addEventListener('click', () => {
    if (cancelled) return;
    cancelled = true;
    // Not disabled: a disabled button drops the focus to the page's body; this one keeps it until the job ends.
    cancel.setAttribute('aria-disabled', 'true');
    // The server stops at its next group of requests; those already sent still count in the report.
    text.textContent = 'Cancelling once the requests under way are answered…';
    hear(text.textContent);
    onCancel?.();
  });
  return {
    root,
    get cancelled() {
      return cancelled;
    },
    update(doneNow, totalNow, note) {
      done = doneNow;
      total = totalNow;
      bar.max = Math.max(total, 1);
      bar.value = Math.min(done, total);
      // The bar still moves after Cancel (the wave under way is answered), but the text must keep saying so.
      const said = cancelled ? 'cancelling once the requests under way are answered…' : [note, estimate()].filter(Boolean).join(' · ');
      text.textContent = `${counted()}${said ? ` · ${said}` : ''}`;
      waitHeard = false;
      const quarter = total > 0 ? Math.floor((4 * Math.min(done, total)) / total) : 0;
      if (!cancelled && quarter > quarterHeard && quarter < 4) {
        quarterHeard = quarter;
        hear(`${label}: ${counted()} done.`);
      }
    },
    waiting(seconds) {
      if (cancelled) return;
      text.textContent = [counted(), "waiting for the API's rate limit", estimate(seconds)].filter(Boolean).join(' · ');
      // Heard once per wait, not once a second as the countdown shows it.
      if (!waitHeard) hear(text.textContent);
      waitHeard = true;
    },
    finish(summary, kind) {
      root.classList.remove('running');
      // Cancel goes: the focus it held goes to this line, which says how the job ended (runJob may move it on to the report).
      if (root.contains(document.activeElement)) focusOn(text);
      cancel.remove();
      heard.remove();
      text.textContent = summary;
      text.className = `progress-text ${kind}`;
    },
  };
}

/** "less than a minute", "4 min", "1 h 20 min": an estimate's words, never more precise than it is. */
function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * What one long server call shows from the click when the server cannot report its stages (a single
 * google.script.run call, not a job): the job bar's box with an indeterminate bar (a <progress> with no value,
 * so role progressbar with no figure) and the seconds since the click. The label is announced once, by the
 * tab's status line (busy()); this box is no live region of its own and its seconds are hidden from screen
 * readers, so nothing is read out every second.
 */
export interface ActivityView {
  readonly root: HTMLElement;
  /** Stops the clock and takes the box away: the status line then holds the outcome. */
  stop(): void;
}

export function createActivity(label: string): ActivityView {
  const bar = el('progress', { 'aria-label': label, 'data-activity-bar': '' });
  const elapsed = el('p', { class: 'progress-text', 'aria-hidden': 'true', 'data-activity-elapsed': '' }, 'Started just now');
  const root = el(
    'div',
    { class: 'progress running activity', 'aria-live': 'off', 'data-activity': '' },
    el('p', { class: 'progress-label' }, label),
    bar,
    elapsed,
  );
  const started = Date.now();
  const timer = setInterval(() => {
    elapsed.textContent = `${Math.round((Date.now() - started) / 1000)} s so far`;
  }, 1000);
  return {
    root,
    stop() {
      clearInterval(timer);
      root.remove();
    },
  };
}

/** Runs `work` with an activity box (createActivity) in `container`, which it replaces; the box goes when the work ends, however it ends. */
export async function withActivity<T>(container: HTMLElement, label: string, work: () => Promise<T>): Promise<T> {
  const activity = createActivity(label);
  container.replaceChildren(activity.root);
  try {
    return await work();
  } finally {
    activity.stop();
  }
}
