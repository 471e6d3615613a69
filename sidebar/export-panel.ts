// The range exporter: read the selection, preview, then drive the export step by step with a
// progress bar, a cancel button, waits for the rate limit shown as such, and a report at the end.

import { busy, byId, countOf, el, say } from './dom';
import type { Outcome, Tone } from './outcome';
import { readProgress, runJob, type ActionRunner, type JobView } from './job-runner';
import { server } from './server';
import type { MetricsPanel } from './metrics-panel';
import type { ExportPreview, ExportSpec } from '../src/core/export';
import type { ExportHandle, ExportOutcome, ExportRequest, MetricSummary, RpcResult } from '../src/shared/rpc';
import { companyNames, fillCompanyFilter, sortedByCompany } from './metric-companies';

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

  const companySelect = byId<HTMLSelectElement>('export-metric-company');
  /**
   * The company's own metrics, then each portfolio company's under its name (an optgroup), each option naming its
   * company too: thirteen "Net Burn (monthly)" are thirteen companies' metrics. The company filter narrows the menu.
   */
  function renderMetricMenu(metrics: readonly MetricSummary[]): void {
    const chosen = metricSelect.value;
    const company = companySelect.value;
    const shown = sortedByCompany(metrics).filter((m) => !company || m.portfolioCompanyName === company);
    const option = (m: MetricSummary) =>
      el('option', { value: m.id }, `${m.name} (${m.frequency})${m.portfolioCompanyName ? ` · ${m.portfolioCompanyName}` : ''}`);
    const groups = companyNames(shown.map((m) => m.portfolioCompanyName)).map((name) =>
      el('optgroup', { label: name }, ...shown.filter((m) => m.portfolioCompanyName === name).map(option)),
    );
    metricSelect.replaceChildren(el('option', { value: '' }, 'Choose a metric'), ...shown.filter((m) => !m.portfolioCompanyName).map(option), ...groups);
    metricSelect.value = shown.some((m) => m.id === chosen) ? chosen : '';
  }

  async function fillMetrics(): Promise<void> {
    const metrics = await metricsPanel.ensureLoaded();
    fillCompanyFilter(
      companySelect,
      byId<HTMLElement>('export-metric-company-field'),
      metrics.map((m) => m.portfolioCompanyName),
    );
    renderMetricMenu(metrics);
  }
  companySelect.addEventListener('change', () => renderMetricMenu(metricsPanel.metrics()));

  function request(): ExportRequest {
    const spec: ExportSpec = {
      layout: wideRadio.checked ? 'wide' : 'long',
      hasHeaderRow: header.checked,
      skipBlanks: byId<HTMLInputElement>('export-skip-blanks').checked,
      duplicates: byId<HTMLInputElement>('export-last-wins').checked ? 'last_wins' : 'reject',
      offPeriod: byId<HTMLInputElement>('export-normalise').checked ? 'normalise' : 'reject',
      onlyChanged: onlyChanged.checked,
    };
    if (byId<HTMLInputElement>('export-keep-different').checked) spec.keepDifferent = true;
    if (longRadio.checked) spec.metricId = metricSelect.value;
    return { companyId: metricsPanel.companyId(), range: rangeInput.value.trim(), spec, writeStatus: statusColumn.checked };
  }

  function unwrap<T>(result: RpcResult<T>): T {
    if (!result.ok) throw new Error(result.error);
    return result.value;
  }

  /** What the export adds below its report: where each row's outcome went, and the formula refresh. */
  function extras(outcome: ExportOutcome): HTMLElement[] {
    const parts: HTMLElement[] = [];
    if (outcome.statusRange) parts.push(el('p', { class: 'hint' }, `Each row's outcome is in ${outcome.statusRange}.`));
    const offer = refreshOffer(outcome.writtenMetricIds);
    if (offer) parts.push(offer);
    return parts;
  }

  /**
   * After an export that stored something: formulas reading those metrics show the new values when
   * they next run (the export dropped their cached series); the button makes them run now.
   */
  function refreshOffer(metricIds: string[]): HTMLElement | null {
    if (metricIds.length === 0) return null;
    const written = metricIds.length === 1 ? 'the metric written' : `the ${metricIds.length} metrics written`;
    const button = el('button', { type: 'button', id: 'export-refresh-formulas' }, 'Refresh those formulas');
    const said = el(
      'p',
      { class: 'hint', id: 'export-refresh-result' },
      `Formulas reading ${written} show the new values when they next run; this runs them now.`,
    );
    button.addEventListener('click', () => {
      void busy(panel, status, 'Refreshing formulas…', async () => {
        const report = unwrap(await server.refreshFormulasFor(metricIds));
        said.textContent = report.message;
        say(status, report.message, 'success');
      });
    });
    return el('div', { class: 'refresh-offer' }, said, button);
  }

  /** The export as the jobs' runner drives it (job-runner): its Resume goes in its own box above the form. */
  function exportView(range: string): JobView<ExportHandle> {
    return {
      label: `Exporting ${range}`,
      progress: (h) => ({
        done: h.progress.itemsDone,
        total: h.progress.itemsTotal,
        status: h.progress.status,
        waitMs: h.progress.waitingForRateLimitMs,
        note: h.progress.waitedForRateLimitMs ? `waited ${Math.round(h.progress.waitedForRateLimitMs / 1000)} s for the rate limit` : undefined,
      }),
      report: (h) =>
        h.report && {
          summary: h.report.summary,
          problem: h.report.problem,
          problems: h.report.problems.map((item) => `${item.cell}: ${item.outcome}${item.reason ? `: ${item.reason}` : ''}`),
        },
      shortfall: (h) => ({ failed: h.report?.totals.failed, notSent: h.report?.totals.pending }),
      next: (h) => server.continueExport(h.exportId),
      watch: (h) => readProgress(server.getJobProgress('export', h.exportId), (p) => ('itemsDone' in p ? { done: p.itemsDone, total: p.itemsTotal } : null)),
      cancel: (h) => server.cancelExport(h.exportId),
      resume: (h) => server.resumeExport(h.exportId),
      logged: true,
      extras: (h) => (h.report ? extras(h.report) : []),
      // The store's answer, re-read by the server once the export stopped: the next export of this range
      // from this open sidebar sends only what changed, as one started from Use selection would.
      ended: (h) => {
        if (h.report?.rangeExportedBefore && h.range === rangeInput.value.trim()) onlyChanged.checked = true;
      },
      offerResume,
    };
  }

  const run: ActionRunner = (label, work) => void busy(panel, status, label, work);

  /** Runs the export to its end with the jobs' runner; returns how it ended. */
  function drive(first: ExportHandle): Promise<Outcome> {
    resumeBox.replaceChildren();
    return runJob(results, first, exportView(first.range), run);
  }

  function offerResume(handle: ExportHandle): void {
    const button = el('button', { type: 'button' }, 'Resume');
    button.addEventListener('click', () => run('Resuming…', async () => drive(unwrap(await server.resumeExport(handle.exportId)))));
    const parts: HTMLElement[] = [
      el(
        'p',
        { class: 'hint' },
        `The export of ${handle.range} stopped with ${handle.progress.itemsDone} of ${handle.progress.itemsTotal} done. Resuming sends only what was not confirmed.`,
      ),
    ];
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
      onlyChanged.checked = selection.previouslyExported || selection.insertedFromApi === true;
      // Cells inserted from the API and then edited: a value that differs on the server now is someone else's newer one.
      byId<HTMLInputElement>('export-keep-different').checked = selection.insertedFromApi === true;
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
    const rows = preview.sample.map((item) =>
      el('tr', {}, textCell(item.cell), textCell(item.shownDate ?? '', 'shown-date'), textCell(item.shownValue ?? '', 'shown-value'), sendsCell(item)),
    );
    const shows = (item: ExportPreview['problems'][number]): string =>
      item.shownValue === null || item.shownValue === '' ? '' : ` (shows ${item.shownValue})`;
    const summaryLine = el('p', { class: 'status' }, preview.summary);
    const parts: HTMLElement[] = [
      summaryLine,
      ...(preview.problem ? [el('p', { class: 'status error' }, `${preview.problem} The export compares the rest itself.`)] : []),
      el('p', { class: 'hint' }, preview.columns.map((c) => `${c.letter}: ${c.metricName ?? c.error ?? c.header}`).join(' · ')),
      el(
        'table',
        { class: 'preview', 'aria-label': 'First rows as read' },
        el(
          'tr',
          {},
          el('th', { class: 'col-cell' }, 'Cell'),
          el('th', { class: 'col-date', title: 'The date cell as the sheet shows it' }, 'Date'),
          el('th', { class: 'col-value', title: 'The value cell as the sheet shows it' }, 'Shows'),
          el('th', { class: 'col-sends', title: 'The date and the exact value text sent to the API' }, 'Sends'),
        ),
        ...rows,
      ),
    ];
    if (preview.overwrites.total > 0) {
      const more = preview.overwrites.total - preview.overwrites.shown.length;
      parts.push(
        el(
          'ul',
          { class: 'problems', 'aria-label': 'Values the export overwrites' },
          ...preview.overwrites.shown.map((o) => el('li', {}, `${o.cell}: ${o.old} → ${o.new}`)),
          ...(more > 0 ? [el('li', {}, `and ${more.toLocaleString('en-US')} more`)] : []),
        ),
      );
    }
    if (preview.problems.length)
      parts.push(
        el(
          'ul',
          { class: 'problems', 'aria-label': 'Rows that will not be sent' },
          ...preview.problems.map((item) => el('li', {}, `${item.cell}${shows(item)}: ${item.outcome}: ${item.reason ?? ''}`)),
        ),
      );
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
