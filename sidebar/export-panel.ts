// The range exporter: read the selection, preview, then drive the export step by step with a
// progress bar, a cancel button, waits for the rate limit shown as such, and a report at the end.

import { busy, byId, countOf, el, say } from './dom';
import { jobLine, toneOf, type Outcome, type Tone } from './outcome';
import { awaitStep, CANCEL_WAIT_MS, readProgress } from './job-runner';
import { createProgress, type ProgressView } from './progress';
import { server } from './server';
import type { MetricsPanel } from './metrics-panel';
import type { ExportPreview, ExportSpec } from '../src/core/export';
import type { ExportHandle, ExportOutcome, ExportRequest, RpcResult } from '../src/shared/rpc';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function mountExport(metricsPanel: MetricsPanel): { show(): Promise<void> } {
  const panel = byId<HTMLElement>('panel-export');
  const status = byId<HTMLElement>('export-status');
  const rangeInput = byId<HTMLInputElement>('export-range');
  const metricSelect = byId<HTMLSelectElement>('export-metric');
  const longRadio = byId<HTMLInputElement>('layout-long');
  const wideRadio = byId<HTMLInputElement>('layout-wide');
  const header = byId<HTMLInputElement>('export-header');
  const onlyChanged = byId<HTMLInputElement>('export-only-changed');
  const statusColumn = byId<HTMLInputElement>('export-status-column');
  const results = byId<HTMLElement>('export-results');
  const resumeBox = byId<HTMLElement>('export-resume');

  function layoutChanged(): void {
    byId<HTMLElement>('export-metric-field').hidden = wideRadio.checked;
  }
  longRadio.addEventListener('change', layoutChanged);
  wideRadio.addEventListener('change', layoutChanged);

  async function fillMetrics(): Promise<void> {
    const chosen = metricSelect.value;
    const metrics = await metricsPanel.ensureLoaded();
    metricSelect.replaceChildren(el('option', { value: '' }, 'Choose a metric'), ...metrics.map((m) => el('option', { value: m.id }, `${m.name} (${m.frequency})`)));
    metricSelect.value = chosen;
  }

  function request(): ExportRequest {
    const spec: ExportSpec = {
      layout: wideRadio.checked ? 'wide' : 'long',
      hasHeaderRow: header.checked,
      skipBlanks: byId<HTMLInputElement>('export-skip-blanks').checked,
      duplicates: byId<HTMLInputElement>('export-last-wins').checked ? 'last_wins' : 'reject',
      offPeriod: byId<HTMLInputElement>('export-normalise').checked ? 'normalise' : 'reject',
      onlyChanged: onlyChanged.checked,
    };
    if (longRadio.checked) spec.metricId = metricSelect.value;
    return { companyId: metricsPanel.companyId(), range: rangeInput.value.trim(), spec, writeStatus: statusColumn.checked };
  }

  function unwrap<T>(result: RpcResult<T>): T {
    if (!result.ok) throw new Error(result.error);
    return result.value;
  }

  function showReport(outcome: ExportOutcome, kind: Tone): void {
    const list = outcome.problems.map((item) => el('li', {}, `${item.cell}: ${item.outcome}${item.reason ? `: ${item.reason}` : ''}`));
    const parts: HTMLElement[] = [el('p', { class: `status ${kind}` }, outcome.summary)];
    if (outcome.problem) parts.push(el('p', { class: 'status error' }, outcome.problem));
    if (outcome.statusRange) parts.push(el('p', { class: 'hint' }, `Each row's outcome is in ${outcome.statusRange}.`));
    if (list.length) parts.push(el('ul', { class: 'problems', 'aria-label': 'Rows not sent' }, ...list));
    const offer = refreshOffer(outcome.writtenMetricIds);
    if (offer) parts.push(offer);
    results.replaceChildren(...parts);
  }

  /**
   * After an export that stored something: formulas reading those metrics show the new values when
   * they next run (the export dropped their cached series); the button makes them run now.
   */
  function refreshOffer(metricIds: string[]): HTMLElement | null {
    if (metricIds.length === 0) return null;
    const written = metricIds.length === 1 ? 'the metric written' : `the ${metricIds.length} metrics written`;
    const button = el('button', { type: 'button', class: 'action', id: 'export-refresh-formulas' }, 'Refresh those formulas');
    const said = el('p', { class: 'hint', id: 'export-refresh-result' }, `Formulas reading ${written} show the new values when they next run; this runs them now.`);
    button.addEventListener('click', () => {
      void busy(panel, status, 'Refreshing formulas…', async () => {
        const report = unwrap(await server.refreshFormulasFor(metricIds));
        said.textContent = report.message;
        say(status, report.message, 'success');
      });
    });
    return el('div', { class: 'refresh-offer' }, said, button);
  }

  /**
   * Calls continueExport until the export ends, waiting out the rate limit between steps, the bar moving
   * with every wave meanwhile (awaitStep); returns how it ended.
   */
  async function drive(first: ExportHandle): Promise<Outcome> {
    let handle = first;
    let cancelled = false;
    let onCancel: () => void = () => undefined;
    const cancelPressed = new Promise<void>((resolve) => {
      onCancel = resolve;
    });
    const progress: ProgressView = createProgress(`Exporting ${handle.range}`, () => {
      cancelled = true;
      onCancel();
      void server.cancelExport(handle.exportId);
    });
    results.replaceChildren(progress.root);
    resumeBox.replaceChildren();
    for (;;) {
      progress.update(handle.progress.itemsDone, handle.progress.itemsTotal, handle.progress.waitedForRateLimitMs ? `waited ${Math.round(handle.progress.waitedForRateLimitMs / 1000)} s for the rate limit` : undefined);
      if (handle.report) break;
      if (cancelled) {
        handle = unwrap(await server.cancelExport(handle.exportId));
        break;
      }
      const wait = handle.progress.waitingForRateLimitMs;
      if (wait) {
        for (let left = Math.ceil(wait / 1000); left > 0 && !cancelled; left--) {
          progress.waiting(left);
          await sleep(1000);
        }
        // The handle still names the wait it was given: asking for a step is what ends the wait (a step
        // the server finds still early just answers with the time left). Going round with this handle
        // would count the same wait down again, for ever.
        if (cancelled) continue;
      }
      const exportId = handle.exportId;
      const step = awaitStep(server.continueExport(exportId), () => readProgress(server.getJobProgress('export', exportId), (p) => ('itemsDone' in p ? p : null)), (live) => progress.update(live.itemsDone, live.itemsTotal));
      // After Cancel the page waits for the running step as long as the other jobs' runner does, no longer:
      // a step that never answers (a lost connection) must not keep the page waiting for ever.
      const afterCancel = cancelPressed.then(() => Promise.race([step, sleep(CANCEL_WAIT_MS).then(() => null)]));
      const answer = await Promise.race([step, afterCancel]);
      if (answer === null) {
        progress.finish('Cancelled: the step that was running stops at its next group of requests. Close and reopen the sidebar to be offered Resume for what was not confirmed.', 'warning');
        return { line: 'Export cancelled; its last step had not answered yet.', tone: 'warning', report: results };
      }
      handle = unwrap(answer);
    }
    const report = handle.report;
    if (!report) return { line: 'The export stopped without a report.', tone: 'error' };
    // The store's answer, re-read by the server once the export stopped: the next export of this range
    // from this open sidebar sends only what changed, as one started from Use selection would.
    if (report.rangeExportedBefore && handle.range === rangeInput.value.trim()) onlyChanged.checked = true;
    const ended = { done: 'Finished.', cancelled: 'Cancelled: what was not sent can be resumed.', paused: 'Paused: see the problem below.', running: '' }[handle.progress.status];
    const tone = toneOf({ failed: report.totals.failed, notSent: report.totals.pending }, handle.progress.status === 'paused' || Boolean(report.problem));
    progress.finish(ended, tone);
    showReport(report, tone);
    results.prepend(progress.root);
    if (handle.progress.status !== 'done') offerResume(handle);
    return { line: jobLine(handle.progress.status, report.summary), tone, report: results };
  }

  function offerResume(handle: ExportHandle): void {
    const button = el('button', { type: 'button', class: 'action' }, 'Resume');
    button.addEventListener('click', () => {
      void busy(panel, status, 'Resuming…', async () => drive(unwrap(await server.resumeExport(handle.exportId))));
    });
    const parts: HTMLElement[] = [el('p', { class: 'hint' }, `The export of ${handle.range} stopped with ${handle.progress.itemsDone} of ${handle.progress.itemsTotal} done. Resuming sends only what was not confirmed.`)];
    const problem = handle.report?.problem ?? handle.progress.problem;
    if (problem) parts.push(el('p', { class: 'status error' }, problem));
    resumeBox.replaceChildren(...parts, button);
  }

  byId<HTMLButtonElement>('export-use-selection').addEventListener('click', () => {
    void busy(panel, status, 'Reading the selection…', async () => {
      const selection = unwrap(await server.readExportSelection(metricsPanel.companyId()));
      rangeInput.value = selection.range;
      (selection.layout === 'wide' ? wideRadio : longRadio).checked = true;
      header.checked = selection.hasHeaderRow || selection.layout === 'wide';
      onlyChanged.checked = selection.previouslyExported;
      layoutChanged();
      // The long layout needs its metric before a preview can check periods.
      const previewed = wideRadio.checked || metricSelect.value ? await previewNow() : null;
      const read = `${selection.range}: ${countOf(selection.rows, 'row')}, ${countOf(selection.columns, 'column')}${selection.previouslyExported ? ', exported before' : ''}.`;
      return previewed ? { ...previewed, line: `${read} ${previewed.line}` } : { line: read, tone: 'success' };
    });
  });

  /** A table cell whose whole text is also its title, so a reader can always see all of it. */
  function textCell(text: string, className?: string): HTMLTableCellElement {
    return el('td', { title: text, class: className }, text);
  }

  /**
   * What one preview row sends: the date and the exact value text, each whole on its own line; or the
   * outcome and why it will not be sent.
   */
  function sendsCell(item: ExportPreview['sample'][number]): HTMLTableCellElement {
    if (item.outcome !== 'pending') return textCell(`${item.outcome}${item.reason ? `: ${item.reason}` : ''}`, 'sends');
    const date = item.date ?? '';
    const value = item.value ?? '';
    return el('td', { class: 'sends', title: `${date} ${value}` }, el('span', { class: 'sent-date' }, `→ ${date}`), el('span', { class: 'sent-value' }, value));
  }

  async function previewNow(): Promise<Outcome> {
    const preview = unwrap(await server.previewExport(request()));
    const rows = preview.sample.map((item) => el('tr', {}, textCell(item.cell), textCell(item.shownDate ?? '', 'shown-date'), textCell(item.shownValue ?? '', 'shown-value'), sendsCell(item)));
    const shows = (item: ExportPreview['problems'][number]): string => (item.shownValue === null || item.shownValue === '' ? '' : ` (shows ${item.shownValue})`);
    const summaryLine = el('p', { class: 'status' }, preview.summary);
    const parts: HTMLElement[] = [
      summaryLine,
      ...(preview.problem ? [el('p', { class: 'status error' }, `${preview.problem} The export compares the rest itself.`)] : []),
      el('p', { class: 'hint' }, preview.columns.map((c) => `${c.letter}: ${c.metricName ?? c.error ?? c.header}`).join(' · ')),
      el(
        'table',
        { class: 'preview', 'aria-label': 'First rows as read' },
        el('tr', {}, el('th', { class: 'col-cell' }, 'Cell'), el('th', { class: 'col-date', title: 'The date cell as the sheet shows it' }, 'Date'), el('th', { class: 'col-value', title: 'The value cell as the sheet shows it' }, 'Shows'), el('th', { class: 'col-sends', title: 'The date and the exact value text sent to the API' }, 'Sends')),
        ...rows,
      ),
    ];
    if (preview.problems.length) parts.push(el('ul', { class: 'problems', 'aria-label': 'Rows that will not be sent' }, ...preview.problems.map((item) => el('li', {}, `${item.cell}${shows(item)}: ${item.outcome}: ${item.reason ?? ''}`))));
    results.replaceChildren(...parts);
    // Nothing is sent yet, so rows that would fail are a warning to fix first, not an error.
    const tone: Tone = preview.failed > 0 ? 'warning' : 'success';
    summaryLine.className = `status ${tone}`;
    return { line: preview.summary, tone, report: results };
  }

  byId<HTMLButtonElement>('export-preview').addEventListener('click', () => {
    void busy(panel, status, 'Reading the range…', previewNow);
  });

  byId<HTMLFormElement>('export-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Checking every row…', async () => {
      say(status, '');
      return drive(unwrap(await server.startExport(request())));
    });
  });

  let loading: Promise<void> | undefined;
  return {
    /** Loads the tab once; the promise settles when its first load has (a menu item waits for it). */
    show() {
      loading ??= (async () => {
        // The offer comes from the user's cache, not the API, so it is made first: an API that still
        // refuses requests (listing the metrics can wait a minute, then fail) must not hide it.
        const unfinished = await server.findUnfinishedExport();
        if (unfinished.ok && unfinished.value) offerResume(unfinished.value);
        // Not busy(): it would disable the Resume button while the metrics load.
        const loadingText = 'Loading the metrics…';
        say(status, loadingText);
        try {
          await fillMetrics();
          // Not busy() either means Use selection (run at once by the Export selection menu item) may
          // have reported meanwhile: its word stands, unless there is an error to show.
          if (!unfinished.ok) say(status, unfinished.error, 'error');
          else if (status.textContent === loadingText) say(status, '');
        } catch (error) {
          say(status, `The metrics could not be loaded: ${error instanceof Error ? error.message : String(error)}`, 'error');
        }
      })();
      return loading;
    },
  };
}
