// The metric browser: list a company's metrics, search them, insert their values, create one.

import { busy, byId, el } from './dom';
import type { Outcome } from './outcome';
import { server } from './server';
import { fillCompanyFilter, sortedByCompany } from './metric-companies';
import type { LatestValue, MetricSummary, NewMetric, SnapshotRefreshReport, SnapshotRefreshScheduleView, SnapshotSummary } from '../src/shared/rpc';

export interface MetricsPanel {
  setCompany(id: string): void;
  companyId(): string;
  /** The metrics loaded so far (empty until the user loads a company). */
  metrics(): MetricSummary[];
  /** Loads the company's metrics if they are not loaded yet. */
  ensureLoaded(): Promise<MetricSummary[]>;
}

/**
 * `settingsLoaded` settles once the settings (and so the default company) have arrived: google.script.run
 * calls run side by side, so an action clicked before then would otherwise read an empty company field.
 */
export function mountMetrics(defaultCompany: () => string, settingsLoaded: Promise<unknown> = Promise.resolve()): MetricsPanel {
  const panel = byId<HTMLElement>('panel-metrics');
  const companyInput = byId<HTMLInputElement>('browse-company');
  const company = async (): Promise<string> => {
    await settingsLoaded.catch(() => undefined);
    return companyInput.value.trim();
  };
  const search = byId<HTMLInputElement>('metric-search');
  const companyFilter = byId<HTMLSelectElement>('metric-company');
  const list = byId<HTMLUListElement>('metric-list');
  const count = byId<HTMLElement>('metric-count');
  const chosenCount = byId<HTMLElement>('metric-chosen');
  const status = byId<HTMLElement>('metrics-status');
  const latestStatus = byId<HTMLElement>('metric-latest-status');
  let metrics: MetricSummary[] = [];
  /** Each loaded metric's latest value and source, once they arrive (after the list, which does not wait for them). */
  let latest = new Map<string, LatestValue>();
  let loadedFor = '';
  const chosen = new Set<string>();
  /** The metric whose box is the list's one tab stop (the last one focused); the first shown when it is not shown. */
  let tabStop = '';

  function render(): void {
    // Redrawn under the focus (the latest values arriving, a metric created): the focus stays on its metric's box.
    const focusedId = list.contains(document.activeElement) ? (document.activeElement as HTMLInputElement).value : null;
    const needle = search.value.trim().toLowerCase();
    const company = companyFilter.value;
    const shown = sortedByCompany(metrics).filter(
      (m) =>
        (!company || m.portfolioCompanyName === company) &&
        (m.name.toLowerCase().includes(needle) || (m.portfolioCompanyName ?? '').toLowerCase().includes(needle)),
    );
    list.replaceChildren(
      ...shown.flatMap((metric, i) => {
        // A heading where the company changes: the fund's metrics grouped under each portfolio company.
        const heading =
          metric.portfolioCompanyName && metric.portfolioCompanyName !== shown[i - 1]?.portfolioCompanyName
            ? [el('li', { class: 'metric-group' }, metric.portfolioCompanyName)]
            : [];
        // Named by the metric and its company alone ("Headcount, Acme Robotics"); its frequency, unit and latest
        // value are its description, read after the name, so a screen reader moving down the list hears names.
        const box = el('input', {
          type: 'checkbox',
          id: `metric-${metric.id}`,
          value: metric.id,
          checked: chosen.has(metric.id),
          tabindex: '-1',
          'aria-labelledby': metric.portfolioCompanyName ? `metric-name-${metric.id} metric-company-${metric.id}` : `metric-name-${metric.id}`,
          'aria-describedby': latest.has(metric.id) ? `metric-about-${metric.id} metric-latest-${metric.id}` : `metric-about-${metric.id}`,
        });
        box.addEventListener('change', () => {
          if (box.checked) chosen.add(metric.id);
          else chosen.delete(metric.id);
          updateCount();
        });
        return [
          ...heading,
          el(
            'li',
            { class: 'metric' },
            box,
            el(
              'label',
              { for: `metric-${metric.id}` },
              el('span', { class: 'metric-name', id: `metric-name-${metric.id}` }, metric.name),
              el(
                'span',
                { class: 'metric-meta' },
                metric.portfolioCompanyName ? el('span', { class: 'metric-company', id: `metric-company-${metric.id}` }, metric.portfolioCompanyName) : null,
                metric.portfolioCompanyName ? ' · ' : null,
                el('span', { id: `metric-about-${metric.id}` }, `${metric.frequency} · ${metric.unit}`),
              ),
              latestLine(latest.get(metric.id), metric.id),
            ),
          ),
        ];
      }),
    );
    const boxes = metricBoxes();
    const stop = boxes.find((box) => box.value === tabStop) ?? boxes[0];
    if (stop) makeTabStop(stop);
    if (focusedId) boxes.find((box) => box.value === focusedId)?.focus({ preventScroll: true });
    if (!metrics.length) list.replaceChildren(el('li', { class: 'empty' }, 'No metrics loaded.'));
    else if (!shown.length)
      list.replaceChildren(
        el(
          'li',
          { class: 'empty' },
          company ? `No metric of ${company} contains "${search.value.trim()}".` : `No metric name contains "${search.value.trim()}".`,
        ),
      );
    updateCount();
  }

  const metricBoxes = (): HTMLInputElement[] => Array.from(list.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'));

  /**
   * The list is one tab stop, as a listbox is (WAI-ARIA's roving tabindex): Tab passes over it in one step,
   * the arrow keys, Home and End move between its boxes, Space ticks the one focused.
   */
  list.addEventListener('keydown', (event) => {
    const boxes = metricBoxes();
    const at = boxes.indexOf(event.target as HTMLInputElement);
    if (at < 0) return;
    const to =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? Math.min(at + 1, boxes.length - 1)
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? Math.max(at - 1, 0)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? boxes.length - 1
              : -1;
    if (to < 0) return;
    event.preventDefault();
    boxes[to]!.focus();
  });
  list.addEventListener('focusin', (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement)) return;
    tabStop = box.value;
    makeTabStop(box);
  });

  /** `box` the list's tab stop; its own source link (Open) the one link Tab reaches in the list, right after it. */
  function makeTabStop(box: HTMLInputElement): void {
    for (const other of metricBoxes()) other.tabIndex = other === box ? 0 : -1;
    const row = box.closest('li');
    for (const link of Array.from(list.querySelectorAll<HTMLAnchorElement>('a[href]'))) link.tabIndex = link.closest('li') === row ? 0 : -1;
  }

  /**
   * What the search shows, said once it has settled (half a second after the last key), not at every key, and
   * only when it changed: the region is heard each time its text changes.
   */
  let countTimer: ReturnType<typeof setTimeout> | undefined;
  function announceCount(): void {
    clearTimeout(countTimer);
    countTimer = setTimeout(() => {
      const shown = metricBoxes().length;
      const line = !metrics.length ? '' : `${shown} of ${metrics.length} metric${metrics.length === 1 ? '' : 's'} shown.`;
      if (count.textContent !== line) count.textContent = line;
    }, 500);
  }

  /** "Latest 60327.71 on 2024-06-01 · user_provided: Entered by … · Open", the type marked when it needs review. */
  function latestLine(value: LatestValue | undefined, metricId: string): HTMLElement | null {
    if (!value) return null;
    if (value.date === null) return el('span', { class: 'metric-latest', id: `metric-latest-${metricId}` }, 'No value yet.');
    const source = value.source;
    return el(
      'span',
      { class: 'metric-latest', id: `metric-latest-${metricId}` },
      `Latest ${value.value} on ${value.date}`,
      source ? ' · ' : null,
      source
        ? el(
            'span',
            {
              class: source.review ? 'source-type review' : 'source-type',
              title: source.review ? 'Read by the AI inbox from a document: check it before it goes into a report.' : undefined,
            },
            source.type,
          )
        : null,
      source ? `: ${source.label}` : null,
      source?.link ? ' · ' : null,
      // The server passes only https links; the page opens them outside the sidebar's frame.
      source?.link ? el('a', { href: source.link, target: '_blank', rel: 'noopener noreferrer' }, 'Open') : null,
    );
  }

  async function loadLatest(ids: string[], companyId: string): Promise<void> {
    latestStatus.textContent = 'Reading the latest values and their sources…';
    const result = await server.latestMetricValues(ids);
    // A later Load for another company wins: its list is what the page shows now.
    if (loadedFor !== companyId) return;
    if (!result.ok) {
      latestStatus.textContent = `Latest values could not be read: ${result.error}`;
      return;
    }
    latest = new Map(result.value.map((value) => [value.metricId, value] as const));
    const review = result.value.filter((value) => value.source?.review).length;
    latestStatus.textContent = review ? `${review} latest value${review === 1 ? ' was' : 's were'} read by the AI inbox: marked "(review)".` : '';
    render();
  }

  function updateCount(): void {
    chosenCount.textContent = metrics.length ? `${chosen.size} of ${metrics.length} chosen` : '';
  }

  async function load(): Promise<Outcome> {
    const companyId = await company();
    if (!companyId) return { line: 'Enter a company id, or set a default company in Settings.', tone: 'error', field: companyInput };
    const result = await server.listMetrics(companyId);
    if (!result.ok) return { line: result.error, tone: 'error' };
    metrics = result.value;
    fillCompanyFilter(
      companyFilter,
      byId<HTMLElement>('metric-company-field'),
      metrics.map((m) => m.portfolioCompanyName),
    );
    loadedFor = companyId;
    latest = new Map();
    chosen.clear();
    // The status line says how many were loaded: the search's count starts again with the next search.
    count.textContent = '';
    render();
    if (metrics.length)
      void loadLatest(
        metrics.map((m) => m.id),
        companyId,
      );
    return { line: `${metrics.length} metric${metrics.length === 1 ? '' : 's'} loaded.`, tone: 'success' };
  }

  byId<HTMLFormElement>('browse-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Loading metrics…', load);
  });
  search.addEventListener('input', () => {
    render();
    announceCount();
  });
  companyFilter.addEventListener('change', () => {
    render();
    announceCount();
  });

  byId<HTMLFormElement>('insert-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = (byId<HTMLInputElement>('mode-formula').checked ? 'formula' : 'snapshot') as 'formula' | 'snapshot';
    void busy(panel, status, mode === 'formula' ? 'Inserting the formula…' : 'Fetching values…', async (): Promise<Outcome> => {
      if (!chosen.size) return { line: 'Choose one or more metrics first.', tone: 'error', field: list };
      const result = await server.insertMetricValues({
        companyId: await company(),
        metricIds: metrics.filter((m) => chosen.has(m.id)).map((m) => m.id),
        startDate: byId<HTMLInputElement>('insert-start').value || null,
        endDate: byId<HTMLInputElement>('insert-end').value || null,
        mode,
        headers: byId<HTMLInputElement>('insert-headers').checked,
      });
      if (!result.ok) return { line: result.error, tone: 'error' };
      if (mode === 'snapshot') await showSnapshots();
      return { line: result.value.message, tone: 'success' };
    });
  });

  const snapshotList = byId<HTMLUListElement>('snapshot-list');

  /** "Sheet1!B2:D6 · Revenue, Churn · 2024-01-01 to 2024-04-30 · refreshed 2024-05-02 10:14", names when the metrics are loaded. */
  function snapshotLine(snapshot: SnapshotSummary): HTMLElement {
    const names = snapshot.metricIds.map((id) => metrics.find((m) => m.id === id)?.name);
    const what =
      snapshot.kind === 'portfolio_metric'
        ? `${snapshot.metricName ?? ''} across the fund`
        : names.every((n) => n)
          ? names.join(', ')
          : `${snapshot.metricIds.length} metric${snapshot.metricIds.length === 1 ? '' : 's'}`;
    const dates =
      snapshot.kind === 'portfolio_metric'
        ? snapshot.periods.join(', ')
        : snapshot.startDate || snapshot.endDate
          ? `${snapshot.startDate ?? 'start'} to ${snapshot.endDate ?? 'today'}`
          : 'all dates';
    const when = snapshot.refreshedAt
      ? `refreshed ${snapshot.refreshedAt.slice(0, 16).replace('T', ' ')} UTC`
      : `inserted ${snapshot.insertedAt.slice(0, 16).replace('T', ' ')} UTC`;
    return el(
      'li',
      { class: 'snapshot' },
      el('span', { class: 'metric-name' }, snapshot.range),
      el(
        'span',
        { class: 'metric-meta' },
        `${what} · ${dates} · ${snapshot.sheetExists ? when : 'its sheet was deleted'}${snapshot.verified === false ? ' · not refreshed for you: inserted by someone else or changed since (insert it again)' : ''}`,
      ),
    );
  }

  async function showSnapshots(): Promise<SnapshotSummary[]> {
    const result = await server.listSnapshots();
    if (!result.ok) throw new Error(result.error);
    snapshotList.replaceChildren(
      ...(result.value.length ? result.value.map(snapshotLine) : [el('li', { class: 'empty' }, 'No snapshots in this spreadsheet.')]),
    );
    return result.value;
  }

  byId<HTMLButtonElement>('list-snapshots').addEventListener('click', () => {
    void busy(panel, status, 'Reading the snapshots…', async (): Promise<Outcome> => {
      const listed = await showSnapshots();
      await readSchedule();
      return { line: `${listed.length} snapshot${listed.length === 1 ? '' : 's'} in this spreadsheet.`, tone: 'success', report: snapshotList };
    });
  });

  byId<HTMLButtonElement>('refresh-snapshots').addEventListener('click', () => {
    void busy(panel, status, 'Refreshing snapshots…', async (): Promise<Outcome> => {
      const result = await server.refreshSnapshots();
      if (!result.ok) return { line: result.error, tone: 'error' };
      const report: SnapshotRefreshReport = result.value;
      await showSnapshots().catch(() => undefined);
      const tone = report.problem ? 'error' : report.outcomes.some((o) => o.status === 'refused' || o.status === 'failed') ? 'warning' : 'success';
      return { line: report.message, tone, report: snapshotList };
    });
  });

  const scheduleStatus = byId<HTMLParagraphElement>('schedule-status');
  const frequency = byId<HTMLSelectElement>('schedule-frequency');

  /** The person's own schedule (each user's trigger is theirs alone), its last run and outcome. */
  function showSchedule(view: SnapshotRefreshScheduleView): void {
    scheduleStatus.textContent = view.message;
    scheduleStatus.dataset.state = view.schedule ? (view.schedule.lastRun?.status ?? 'scheduled') : 'off';
    if (view.schedule) frequency.value = view.schedule.frequency;
  }

  async function readSchedule(): Promise<void> {
    const result = await server.getSnapshotRefreshSchedule();
    if (result.ok) showSchedule(result.value);
    else scheduleStatus.textContent = result.error;
  }

  byId<HTMLButtonElement>('schedule-refresh').addEventListener('click', () => {
    void busy(panel, status, 'Scheduling the refresh…', async (): Promise<Outcome> => {
      const result = await server.scheduleSnapshotRefresh(frequency.value);
      if (!result.ok) return { line: result.error, tone: 'error' };
      showSchedule(result.value);
      return { line: result.value.message, tone: 'success' };
    });
  });

  byId<HTMLButtonElement>('cancel-refresh').addEventListener('click', () => {
    void busy(panel, status, 'Turning the scheduled refresh off…', async (): Promise<Outcome> => {
      const result = await server.cancelSnapshotRefresh();
      if (!result.ok) return { line: result.error, tone: 'error' };
      showSchedule(result.value);
      return { line: result.value.message, tone: 'success' };
    });
  });

  byId<HTMLFormElement>('create-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Creating the metric…', async (): Promise<Outcome> => {
      const input: NewMetric = {
        companyId: await company(),
        name: byId<HTMLInputElement>('new-name').value,
        frequency: byId<HTMLSelectElement>('new-frequency').value as NewMetric['frequency'],
        unit: byId<HTMLInputElement>('new-unit').value,
      };
      const result = await server.createMetric(input);
      if (!result.ok) return { line: result.error, tone: 'error' };
      metrics = [...metrics, result.value];
      chosen.add(result.value.id);
      byId<HTMLInputElement>('new-name').value = '';
      render();
      return { line: `Created "${result.value.name}".`, tone: 'success' };
    });
  });

  render();
  return {
    setCompany(id: string) {
      if (!companyInput.value) companyInput.value = id || defaultCompany();
    },
    companyId: () => companyInput.value.trim(),
    metrics: () => metrics,
    async ensureLoaded() {
      const companyId = await company();
      if (metrics.length && loadedFor === companyId) return metrics;
      const result = await server.listMetrics(companyId);
      if (!result.ok) throw new Error(result.error);
      metrics = result.value;
      fillCompanyFilter(
        companyFilter,
        byId<HTMLElement>('metric-company-field'),
        metrics.map((m) => m.portfolioCompanyName),
      );
      loadedFor = companyId;
      render();
      return metrics;
    },
  };
}
