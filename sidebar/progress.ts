// The progress bar that long work shares (export, audit push): progress, waits, cancel, final report.

import { el } from './dom';
import type { Tone } from './outcome';

export interface ProgressView {
  /** Work done so far, e.g. rows confirmed of rows to send. */
  update(done: number, total: number, note?: string): void;
  /** A pause that is not slowness: waiting out the API's rate limit. */
  waiting(seconds: number): void;
  /** Ends the run with a summary; the cancel button goes away. */
  finish(summary: string, kind: Tone): void;
  readonly cancelled: boolean;
  readonly root: HTMLElement;
}

export function createProgress(label: string, onCancel?: () => void): ProgressView {
  const bar = el('progress', { max: '1', value: '0', 'aria-label': label });
  const text = el('p', { class: 'progress-text', role: 'status', 'aria-live': 'polite' }, 'Starting…');
  const cancel = el('button', { type: 'button', class: 'cancel' }, 'Cancel');
  const root = el('div', { class: 'progress' }, el('p', { class: 'progress-label' }, label), bar, text, cancel);
  let cancelled = false;
  cancel.addEventListener('click', () => {
    cancelled = true;
    cancel.disabled = true;
    // The server stops at its next group of requests; those already sent still count in the report.
    text.textContent = 'Cancelling once the requests under way are answered…';
    onCancel?.();
  });
  return {
    root,
    get cancelled() {
      return cancelled;
    },
    update(done, total, note) {
      bar.max = Math.max(total, 1);
      bar.value = Math.min(done, total);
      // The bar still moves after Cancel (the wave under way is answered), but the text must keep saying so.
      const said = cancelled ? 'cancelling once the requests under way are answered…' : note;
      text.textContent = `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}${said ? ` · ${said}` : ''}`;
    },
    waiting(seconds) {
      text.textContent = `Waiting ${seconds} s for the API's rate limit…`;
    },
    finish(summary, kind) {
      cancel.remove();
      text.textContent = summary;
      text.className = `progress-text ${kind}`;
    },
  };
}
