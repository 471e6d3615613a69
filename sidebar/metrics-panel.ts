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
  const status = byId<HTMLElement>('metrics-status');
  const latestStatus = byId<HTMLElement>('metric-latest-status');
  let metrics: MetricSummary[] = [];
  /** Each loaded metric's latest value and source, once they arrive (after the list, which does not wait for them). */
  let latest = new Map<string, LatestValue>();
  let loadedFor = '';
  const chosen = new Set<string>();

  function render(): void {
    const needle = search.value.trim().toLowerCase();
    const company = companyFilter.value;
    const shown = sortedByCompany(metrics).filter((m) =>
      (!company || m.portfolioCompanyName === company) && (m.name.toLowerCase().includes(needle) || (m.portfolioCompanyName ?? '').toLowerCase().includes(needle)));
    list.replaceChildren(
      ...shown.flatMap((metric, i) => {
        // A heading where the company changes: the fund's metrics grouped under each portfolio company.
        const heading = metric.portfolioCompanyName && metric.portfolioCompanyName !== shown[i - 1]?.portfolioCompanyName
          ? [el('li', { class: 'metric-group' }, metric.portfolioCompanyName)] : [];
        const box = el('input', { type: 'checkbox', id: `metric-${metric.id}`, value: metric.id, checked: chosen.has(metric.id) });
        box.addEventListener('change', () => {
          if (box.checked) chosen.add(metric.id);
          else chosen.delete(metric.id);
          updateCount();
        });
        return [...heading, el('li', { class: 'metric' },
          box,
          el('label', { for: `metric-${metric.id}` },
            el('span', { class: 'metric-name' }, metric.name),
            el('span', { class: 'metric-meta' }, metric.portfolioCompanyName ? el('span', { class: 'metric-company' }, metric.portfolioCompanyName) : null, metric.portfolioCompanyName ? ' · ' : null, `${metric.frequency} · ${metric.unit}`),
            latestLine(latest.get(metric.id))))];
      }),
    );
    if (!metrics.length) list.replaceChildren(el('li', { class: 'empty' }, 'No metrics loaded.'));
    else if (!shown.length) list.replaceChildren(el('li', { class: 'empty' }, company ? `No metric of ${company} contains "${search.value.trim()}".` : `No metric name contains "${search.value.trim()}".`));
    updateCount();
  }

  /** "Latest 60327.71 on 2024-06-01 · user_provided: Entered by … · Open", the type marked when it needs review. */
  function latestLine(value: LatestValue | undefined): HTMLElement | null {
    if (!value) return null;
    if (value.date === null) return el('span', { class: 'metric-latest' }, 'No value yet.');
    const source = value.source;
    return el('span', { class: 'metric-latest' },
      `Latest ${value.value} on ${value.date}`,
      source ? ' · ' : null,
      source ? el('span', { class: source.review ? 'source-type review' : 'source-type', title: source.review ? 'Read by the AI inbox from a document: check it before it goes into a report.' : undefined }, source.type) : null,
      source ? `: ${source.label}` : null,
      source?.link ? ' · ' : null,
      // The server passes only https links; the page opens them outside the sidebar's frame.
      source?.link ? el('a', { href: source.link, target: '_blank', rel: 'noopener noreferrer' }, 'Open') : null);
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
    count.textContent = metrics.length ? `${chosen.size} of ${metrics.length} chosen` : '';
  }

  async function load(): Promise<Outcome> {
    const companyId = await company();
    if (!companyId) return { line: 'Enter a company id, or set a default company in Settings.', tone: 'error' };
    const result = await server.listMetrics(companyId);
    if (!result.ok) return { line: result.error, tone: 'error' };
    metrics = result.value;
    fillCompanyFilter(companyFilter, byId<HTMLElement>('metric-company-field'), metrics.map((m) => m.portfolioCompanyName));
    loadedFor = companyId;
    latest = new Map();
    chosen.clear();
    render();
    if (metrics.length) void loadLatest(metrics.map((m) => m.id), companyId);
    return { line: `${metrics.length} metric${metrics.length === 1 ? '' : 's'} loaded.`, tone: 'success' };
  }

  byId<HTMLFormElement>('browse-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Loading metrics…', load);
  });
  search.addEventListener('input', render);
  companyFilter.addEventListener('change', render);

  byId<HTMLFormElement>('insert-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = (byId<HTMLInputElement>('mode-formula').checked ? 'formula' : 'snapshot') as 'formula' | 'snapshot';
    void busy(panel, status, mode === 'formula' ? 'Inserting the formula…' : 'Fetching values…', async (): Promise<Outcome> => {
      if (!chosen.size) return { line: 'Choose one or more metrics first.', tone: 'error' };
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
    const what = snapshot.kind === 'portfolio_metric' ? `${snapshot.metricName ?? ''} across the fund`
      : names.every((n) => n) ? names.join(', ') : `${snapshot.metricIds.length} metric${snapshot.metricIds.length === 1 ? '' : 's'}`;
    const dates = snapshot.kind === 'portfolio_metric' ? snapshot.periods.join(', ')
      : snapshot.startDate || snapshot.endDate ? `${snapshot.startDate ?? 'start'} to ${snapshot.endDate ?? 'today'}` : 'all dates';
    const when = snapshot.refreshedAt ? `refreshed ${snapshot.refreshedAt.slice(0, 16).replace('T', ' ')} UTC` : `inserted ${snapshot.insertedAt.slice(0, 16).replace('T', ' ')} UTC`;
    return el('li', { class: 'snapshot' },
      el('span', { class: 'metric-name' }, snapshot.range),
      el('span', { class: 'metric-meta' }, `${what} · ${dates} · ${snapshot.sheetExists ? when : 'its sheet was deleted'}${snapshot.verified === false ? ' · not refreshed for you: inserted by someone else or changed since (insert it again)' : ''}`));
  }

  async function showSnapshots(): Promise<SnapshotSummary[]> {
    const result = await server.listSnapshots();
    if (!result.ok) throw new Error(result.error);
    snapshotList.replaceChildren(...(result.value.length ? result.value.map(snapshotLine) : [el('li', { class: 'empty' }, 'No snapshots in this spreadsheet.')]));
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
      fillCompanyFilter(companyFilter, byId<HTMLElement>('metric-company-field'), metrics.map((m) => m.portfolioCompanyName));
      loadedFor = companyId;
      render();
      return metrics;
    },
  };
}
