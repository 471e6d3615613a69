// Portfolio tools: the property audit and its push, profile and contact imports, notes.

import { busy, byId, countOf, el, say } from './dom';
import { readProgress, resumeOffer, runJob, type ActionRunner, type JobView } from './job-runner';
import { server } from './server';
import type { AuditBuildHandle, AuditPushHandle, ImportHandle, ImportKind, RpcResult } from '../src/shared/rpc';

const PUSH_VIEW: JobView<AuditPushHandle> = {
  label: 'Pushing changed cells',
  progress: (h) => ({ done: h.progress.cellsDone, total: h.progress.cellsTotal, status: h.progress.status, waitMs: h.progress.waitingForRateLimitMs }),
  report: (h) => h.report && { summary: h.report.summary, problem: h.report.problem, problems: [...h.report.problems.map((p) => `${p.cell} (${p.profileName}, ${p.propertyName}): ${p.outcome}${p.reason ? `: ${p.reason}` : ''}`), ...h.report.notes] },
  // A skipped cell is an edit the push declined to send (auto-calculated, or not in the audit): a refusal.
  shortfall: (h) => ({ failed: h.report?.totals.failed, refused: h.report?.totals.skipped, notSent: h.report?.totals.pending }),
  next: (h) => server.continueAuditPush(h.pushId),
  watch: (h) => readProgress(server.getJobProgress('push', h.pushId), (p) => ('cellsDone' in p ? { done: p.cellsDone, total: p.cellsTotal } : null)),
  cancel: (h) => server.cancelAuditPush(h.pushId),
  resume: (h) => server.resumeAuditPush(h.pushId),
};

/**
 * Build audit always runs as a job, whatever the fund's size: a small fund is read in one step, and one path
 * means a large fund is never refused half way by the rate budget (about 2,100 reads for 500 × 100).
 */
const BUILD_VIEW: JobView<AuditBuildHandle> = {
  label: 'Reading every profile, property and value',
  progress: (h) => ({ done: h.progress.pagesRead, total: h.progress.pagesTotal, status: h.progress.status, waitMs: h.progress.waitingForRateLimitMs }),
  report: (h) => (h.report
    // The message names any value shown cut; they are not cells left unstored, so no list of problems.
    ? { summary: h.report.message, problem: null, problems: [] }
    // A build that stopped (here or from another sidebar) ends the runner too, saying how far it got.
    : h.progress.status === 'running' ? null
      : { summary: `The audit was not written: ${h.progress.pagesRead} of ${countOf(h.progress.pagesTotal, 'page')} read.`, problem: h.progress.problem ?? null, problems: [] }),
  shortfall: (h) => ({ notSent: h.report ? 0 : h.progress.pagesTotal - h.progress.pagesRead }),
  next: (h) => server.continueAuditBuild(h.buildId),
  watch: (h) => readProgress(server.getJobProgress('build', h.buildId), (p) => ('pagesRead' in p ? { done: p.pagesRead, total: p.pagesTotal } : null)),
  cancel: (h) => server.cancelAuditBuild(h.buildId),
  resume: (h) => server.resumeAuditBuild(h.buildId),
  // A build reads: nothing of it was sent.
  whatResumes: { cancelled: 'Cancelled: it can be resumed.', hint: 'Resuming reads only the pages not read.' },
};

const IMPORT_LABELS: Record<ImportKind, string> = { profiles: 'Importing profiles', contacts: 'Importing contacts' };

function importView(kind: ImportKind, range: string): JobView<ImportHandle> {
  return {
    label: `${IMPORT_LABELS[kind]} from ${range}`,
    progress: (h) => ({ done: h.progress.rowsDone, total: h.progress.rowsTotal, status: h.progress.status, waitMs: h.progress.waitingForRateLimitMs }),
    report: (h) => h.report && { summary: h.report.summary, problem: h.report.problem, problems: h.report.problems.map((p) => `Row ${p.sheetRow}${p.label ? ` (${p.label})` : ''}: ${p.outcome}${p.reason ? `: ${p.reason}` : ''}`) },
    // A skipped contact row was created before (its id cell is filled): not a refusal.
    shortfall: (h) => ({ failed: h.report?.totals['failed'], unknown: h.report?.totals['unknown'], notSent: h.report?.totals['pending'] }),
    next: (h) => server.continueImport(h.importId),
    watch: (h) => readProgress(server.getJobProgress('import', h.importId), (p) => ('rowsDone' in p ? { done: p.rowsDone, total: p.rowsTotal } : null)),
    cancel: (h) => server.cancelImport(h.importId),
    resume: (h) => server.resumeImport(h.importId),
  };
}

/** How an unfinished job ended, in the user's words. */
function howItStopped(status: string): string {
  if (status === 'cancelled') return 'was cancelled';
  if (status === 'paused') return 'paused on a problem';
  return 'stopped when the sidebar closed';
}

function unwrap<T>(result: RpcResult<T>): T {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/**
 * `settingsLoaded` settles once the settings (and so the default company) have arrived: calls run side by
 * side, so an action clicked before then would otherwise send an empty company.
 */
export function mountPortfolio(companyId: () => string, settingsLoaded: Promise<unknown> = Promise.resolve()): { show(): void } {
  const panel = byId<HTMLElement>('panel-portfolio');
  const status = byId<HTMLElement>('portfolio-status');
  const results = byId<HTMLElement>('portfolio-results');
  const tagSelect = byId<HTMLSelectElement>('note-tag');
  const run: ActionRunner = (label, work) => void busy(panel, status, label, work);
  const company = async (): Promise<string> => {
    await settingsLoaded.catch(() => undefined);
    return companyId();
  };

  byId<HTMLButtonElement>('audit-build').addEventListener('click', () => {
    void busy(panel, status, 'Reading every profile, property and value…', async () => {
      say(status, '');
      return runJob<AuditBuildHandle>(results, unwrap(await server.startAuditBuild(await company())), BUILD_VIEW, run);
    });
  });

  byId<HTMLButtonElement>('audit-push').addEventListener('click', () => {
    void busy(panel, status, 'Comparing the audit sheet with what was built…', async () => {
      say(status, '');
      return runJob<AuditPushHandle>(results, unwrap(await server.startAuditPush(null)), PUSH_VIEW, run);
    });
  });

  // The fund grid: names from the cached listings the PORTFOLIO_* functions read.
  const namesBox = byId<HTMLElement>('grid-names');
  const chosenNames = (): string[] => Array.from(namesBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')).map((box) => box.value);
  const field = (id: string): string => byId<HTMLInputElement>(id).value.trim();
  byId<HTMLButtonElement>('grid-load').addEventListener('click', () => {
    void busy(panel, status, "Reading the fund's metric names…", async () => {
      const names = unwrap(await server.listFundMetricNames(await company()));
      namesBox.replaceChildren(...names.map((n, i) => {
        const id = `grid-name-${i}`;
        return el('div', { class: 'choice' }, el('input', { type: 'checkbox', id, value: n.name }), el('label', { for: id }, `${n.name} (${countOf(n.companies, 'company', 'companies')})`));
      }));
      return { line: `${countOf(names.length, 'metric name')} across the fund's companies.`, tone: 'success' };
    });
  });
  byId<HTMLButtonElement>('grid-insert').addEventListener('click', () => {
    void busy(panel, status, 'Inserting…', async () => {
      results.replaceChildren();
      const periods = field('grid-periods').split(',').map((p) => p.trim()).filter((p) => p !== '');
      const written = unwrap(await server.insertPortfolioGrid({
        companyId: await company(),
        kind: byId<HTMLInputElement>('grid-kind-coverage').checked ? 'coverage' : 'metric',
        metricNames: chosenNames(),
        periods,
        startPeriod: field('grid-start') || null,
        endPeriod: field('grid-end') || null,
        mode: byId<HTMLInputElement>('grid-mode-snapshot').checked ? 'snapshot' : 'formula',
      }));
      return { line: written.message, tone: 'success' };
    });
  });
  byId<HTMLButtonElement>('grid-coverage').addEventListener('click', () => {
    void busy(panel, status, 'Reading every company\'s metrics and points…', async () => {
      results.replaceChildren();
      const built = unwrap(await server.buildCoverageSheet({ companyId: await company(), metricNames: chosenNames(), startPeriod: field('grid-start'), endPeriod: field('grid-end') }));
      return { line: built.message, tone: 'success' };
    });
  });

  function importFromSelection(kind: ImportKind): void {
    void busy(panel, status, 'Reading the selection…', async () => {
      const range = unwrap(await server.activeRange());
      const request = { kind, companyId: await company(), range };
      // Columns the import would leave out are named first; it starts only if the person chooses to ignore them.
      const check = unwrap(await server.checkImportColumns(request));
      say(status, '');
      if (check.unrecognised.length === 0) return runJob<ImportHandle>(results, unwrap(await server.startImport(request)), importView(kind, range), run);
      const these = check.unrecognised.length === 1 ? 'this column' : 'these columns';
      const ignore = el('button', { type: 'button', class: 'action', id: 'import-ignore-columns' }, `Import without ${these}`);
      const box = el('div', { class: 'confirm', 'aria-label': 'Unrecognised columns' },
        el('p', {}, `Not recognised, so not sent: ${check.unrecognised.join(', ')}.`),
        el('p', { class: 'hint' }, `Recognised headers: ${check.recognised.join(', ')}. Rename a column to one of them and import again, or import without ${these}.`),
        ignore);
      results.replaceChildren(box);
      ignore.addEventListener('click', () => {
        run('Starting the import…', async () => runJob<ImportHandle>(results, unwrap(await server.startImport({ ...request, ignoreUnrecognisedColumns: true })), importView(kind, range), run));
      });
      return { line: `Nothing imported yet: ${countOf(check.unrecognised.length, 'column')} of the selection ${check.unrecognised.length === 1 ? 'has a header' : 'have headers'} the import does not recognise.`, tone: 'warning', report: box };
    });
  }
  byId<HTMLButtonElement>('import-profiles').addEventListener('click', () => importFromSelection('profiles'));
  byId<HTMLButtonElement>('import-contacts').addEventListener('click', () => importFromSelection('contacts'));

  /** Pushes, imports and audit builds of the last six hours that did not finish, each offered with Resume. */
  const unfinishedBox = el('div', { class: 'unfinished', 'aria-label': 'Unfinished pushes and imports' });
  results.before(unfinishedBox);
  async function offerUnfinished(): Promise<void> {
    const jobs = unwrap(await server.findUnfinishedPortfolioJobs());
    const offers: HTMLElement[] = [];
    const offer = <H>(handle: H, view: JobView<H>, text: string): void => {
      const box = el('div', { class: 'resume-offer' });
      box.append(...resumeOffer(box, handle, view, run, `${text} Resuming sends only what was not confirmed.`));
      offers.push(box);
    };
    for (const push of jobs.pushes) {
      offer(push, PUSH_VIEW, `The push of changed cells of "${push.sheetName}" ${howItStopped(push.progress.status)} with ${push.progress.cellsDone} of ${countOf(push.progress.cellsTotal, 'cell')} done.`);
    }
    for (const job of jobs.imports) {
      offer(job, importView(job.kind, job.range), `The import of ${job.kind} from ${job.range} ${howItStopped(job.progress.status)} with ${job.progress.rowsDone} of ${countOf(job.progress.rowsTotal, 'row')} done.`);
    }
    for (const build of jobs.builds) {
      const box = el('div', { class: 'resume-offer' });
      box.append(...resumeOffer(box, build, BUILD_VIEW, run, `The audit build ${howItStopped(build.progress.status)} with ${build.progress.pagesRead} of ${countOf(build.progress.pagesTotal, 'page')} read. Resuming reads only the pages not read.`));
      offers.push(box);
    }
    unfinishedBox.replaceChildren(...offers);
  }

  byId<HTMLFormElement>('note-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Adding the note…', async () => {
      // The report below is of an earlier import or push: left in place, it would read as this note's.
      results.replaceChildren();
      const report = unwrap(await server.addNoteToSelectedContacts({
        content: byId<HTMLTextAreaElement>('note-content').value,
        noteTagId: tagSelect.value || null,
        skipRowsWithoutId: byId<HTMLInputElement>('note-skip').checked,
      }));
      if (report.outcome === 'created') byId<HTMLTextAreaElement>('note-content').value = '';
      return { line: report.summary, tone: report.outcome === 'created' ? 'success' : 'error' };
    });
  });

  byId<HTMLFormElement>('notes-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Reading the notes…', async () => {
      results.replaceChildren();
      const written = unwrap(await server.insertPortfolioNotes(byId<HTMLInputElement>('notes-profile').value.trim()));
      return { line: written.message, tone: 'success' };
    });
  });

  let shown = false;
  let offered = false;
  return {
    show() {
      if (!offered) {
        offered = true;
        void offerUnfinished().catch((error: unknown) => say(status, error instanceof Error ? error.message : String(error), 'error'));
      }
      if (shown || !companyId()) return;
      shown = true;
      // A quiet load, not a busy action: google.script.run calls run side by side, and as an action it would
      // lock the panel and, ending after an audit build the user started meanwhile, overwrite its status.
      void server.listNoteTags(companyId()).then((result) => {
        const tags = unwrap(result);
        tagSelect.replaceChildren(el('option', { value: '' }, 'No tag'), ...tags.map((t) => el('option', { value: t.id }, t.name)));
      }).catch((error: unknown) => say(status, `Note tags could not be loaded: ${error instanceof Error ? error.message : String(error)}`, 'error'));
    },
  };
}
