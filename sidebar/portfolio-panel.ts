// Portfolio tools: the property audit and its push, profile and contact imports, notes.

import { busy, byId, countOf, el, say } from './dom';
import { chooseUndo, readProgress, resumeOffer, runJob, UNDO_VIEW, type ActionRunner, type JobView } from './job-runner';
import { server } from './server';
import type { AuditBuildHandle, AuditPushHandle, ImportHandle, ImportKind, PortfolioGridRequest, RpcResult } from '../src/shared/rpc';
import { fillCompanyFilter } from './metric-companies';
import { withActivity } from './progress';
import type { FundMetricName } from '../src/core/formulas/grid-builder';

const PUSH_VIEW: JobView<AuditPushHandle> = {
  label: 'Pushing changed cells',
  progress: (h) => ({ done: h.progress.cellsDone, total: h.progress.cellsTotal, status: h.progress.status, waitMs: h.progress.waitingForRateLimitMs }),
  report: (h) =>
    h.report && {
      summary: h.report.summary,
      problem: h.report.problem,
      problems: [
        ...h.report.problems.map((p) => `${p.cell} (${p.profileName}, ${p.propertyName}): ${p.outcome}${p.reason ? `: ${p.reason}` : ''}`),
        ...h.report.notes,
      ],
    },
  // A skipped cell is an edit the push declined to send (auto-calculated, or not in the audit), and a conflict
  // one it held back (changed on the server since the build): refusals the analyst must act on.
  shortfall: (h) => ({
    failed: h.report?.totals.failed,
    refused: (h.report?.totals.skipped ?? 0) + (h.report?.totals.conflict ?? 0),
    notSent: h.report?.totals.pending,
  }),
  next: (h) => server.continueAuditPush(h.pushId),
  watch: (h) => readProgress(server.getJobProgress('push', h.pushId), (p) => ('cellsDone' in p ? { done: p.cellsDone, total: p.cellsTotal } : null)),
  cancel: (h) => server.cancelAuditPush(h.pushId),
  resume: (h) => server.resumeAuditPush(h.pushId),
  logged: true,
};

type ConflictItem = NonNullable<AuditPushHandle['report']>['conflicts'][number];

/** A conflict as a line of the report: the cell, then its three values. */
function conflictLine(item: ConflictItem): string {
  const atBuild = item.conflict?.atBuild === null ? 'a longer value (only its fingerprint is kept)' : `"${item.conflict?.atBuild ?? ''}"`;
  return `${item.cell} (${item.profileName}, ${item.propertyName}): when built ${atBuild}, on the server now "${item.conflict?.server ?? ''}", typed "${item.value}"`;
}

/**
 * The push's conflicts and the two ways out: Overwrite these cells (a push of only those, on purpose) and
 * Take the server's values (written into the sheet). Each button acts once.
 */
function conflictOffer(handle: AuditPushHandle, results: HTMLElement, run: ActionRunner, view: () => JobView<AuditPushHandle>): HTMLElement[] {
  const conflicts = handle.report?.conflicts ?? [];
  if (conflicts.length === 0) return [];
  const cells = conflicts.map((item) => ({ profileId: item.profileId, propertyId: item.propertyId }));
  const n = conflicts.length;
  const overwrite = el('button', { type: 'button', id: 'audit-overwrite' }, `Overwrite ${n === 1 ? 'this cell' : `these ${n} cells`}`);
  const take = el('button', { type: 'button', id: 'audit-take-server' }, `Take the server's ${n === 1 ? 'value' : 'values'}`);
  const box = el(
    'div',
    { class: 'conflicts', role: 'group', 'aria-label': 'Cells changed on the server' },
    el(
      'p',
      { class: 'hint' },
      `${countOf(n, 'cell')} changed on the server since the audit was built ${n === 1 ? 'was' : 'were'} not sent, so nobody's change is lost. Each is marked with a note in the sheet.`,
    ),
    el('ul', { class: 'problems' }, ...conflicts.map((item) => el('li', {}, conflictLine(item)))),
    overwrite,
    take,
  );
  overwrite.addEventListener('click', () => {
    overwrite.disabled = take.disabled = true;
    run(`Overwriting ${countOf(n, 'cell')}…`, async () =>
      runJob<AuditPushHandle>(results, unwrap(await server.startAuditOverwrite(cells, handle.sheetName)), view(), run),
    );
  });
  take.addEventListener('click', () => {
    overwrite.disabled = take.disabled = true;
    run("Reading the server's values…", async () => {
      const taken = unwrap(await server.takeServerAuditValues(cells, handle.sheetName));
      box.append(el('p', { class: 'status success' }, taken.message));
      return { line: taken.message, tone: 'success' };
    });
  });
  return [box];
}

/**
 * Build audit always runs as a job, whatever the fund's size: a small fund is read in one step, and one path
 * means a large fund is never refused half way by the rate budget (about 2,100 reads for 500 × 100).
 */
const BUILD_VIEW: JobView<AuditBuildHandle> = {
  label: 'Reading every profile, property and value',
  progress: (h) => ({ done: h.progress.pagesRead, total: h.progress.pagesTotal, status: h.progress.status, waitMs: h.progress.waitingForRateLimitMs }),
  report: (h) =>
    h.report
      ? // The message names any value shown cut; they are not cells left unstored, so no list of problems.
        { summary: h.report.message, problem: null, problems: [] }
      : // A build that stopped (here or from another sidebar) ends the runner too, saying how far it got.
        h.progress.status === 'running'
        ? null
        : {
            summary: `The audit was not written: ${h.progress.pagesRead} of ${countOf(h.progress.pagesTotal, 'page')} read.`,
            problem: h.progress.problem ?? null,
            problems: [],
          },
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
    report: (h) =>
      h.report && {
        summary: h.report.summary,
        problem: h.report.problem,
        problems: h.report.problems.map((p) => `Row ${p.sheetRow}${p.label ? ` (${p.label})` : ''}: ${p.outcome}${p.reason ? `: ${p.reason}` : ''}`),
      },
    // A skipped contact row was created before (its id cell is filled): not a refusal.
    // A profile held back as a conflict was refused on purpose, as the undo's and the push's conflicts are.
    shortfall: (h) => ({
      failed: h.report?.totals['failed'],
      unknown: h.report?.totals['unknown'],
      refused: h.report?.totals['conflict'],
      notSent: h.report?.totals['pending'],
    }),
    next: (h) => server.continueImport(h.importId),
    watch: (h) => readProgress(server.getJobProgress('import', h.importId), (p) => ('rowsDone' in p ? { done: p.rowsDone, total: p.rowsTotal } : null)),
    cancel: (h) => server.cancelImport(h.importId),
    resume: (h) => server.resumeImport(h.importId),
    logged: true,
  };
}

/** How an unfinished job ended, in the user's words. */
function howItStopped(status: string): string {
  if (status === 'cancelled') return 'was cancelled';
  if (status === 'paused') return 'paused on a problem';
  return 'stopped when the sidebar closed';
}

/** Asks `question` inside `container` with Push and Cancel; resolves true for Push. */
function askFirst(container: HTMLElement, question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const push = el('button', { type: 'button', id: 'audit-push-confirm' }, 'Push');
    const cancel = el('button', { type: 'button', id: 'audit-push-decline' }, 'Cancel');
    push.addEventListener('click', () => resolve(true));
    cancel.addEventListener('click', () => resolve(false));
    container.replaceChildren(
      el('div', { class: 'confirm', role: 'group', 'aria-label': 'Confirm the push' }, el('p', { class: 'status info' }, question), push, cancel),
    );
    push.focus();
  });
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
  const pushView: JobView<AuditPushHandle> = { ...PUSH_VIEW, extras: (h) => conflictOffer(h, results, run, () => pushView) };

  byId<HTMLButtonElement>('audit-build').addEventListener('click', () => {
    void busy(panel, status, 'Reading every profile, property and value…', async () => {
      say(status, '');
      return runJob<AuditBuildHandle>(results, unwrap(await server.startAuditBuild(await company())), BUILD_VIEW, run);
    });
  });

  byId<HTMLButtonElement>('audit-push').addEventListener('click', () => {
    void busy(panel, status, 'Comparing the audit sheet with what was built…', async () => {
      say(status, '');
      const handle = unwrap(await server.startAuditPush(null));
      // Nothing is sent before the user has seen where it goes: the fund the push checked against their own record.
      const cells = handle.progress.cellsTotal;
      if (handle.progress.status === 'running' && cells > 0 && !(await askFirst(results, `Push ${countOf(cells, 'changed cell')} to ${handle.fund}?`))) {
        unwrap(await server.cancelAuditPush(handle.pushId));
        results.replaceChildren();
        return { line: 'Nothing was pushed.', tone: 'warning' };
      }
      return runJob<AuditPushHandle>(results, handle, pushView, run);
    });
  });

  // The fund grid: names from the cached listings the PORTFOLIO_* functions read.
  const namesBox = byId<HTMLElement>('grid-names');
  const aggregateSelect = byId<HTMLSelectElement>('grid-aggregate');
  const gridCompany = byId<HTMLSelectElement>('grid-company');
  let fundNames: FundMetricName[] = [];
  // Ticking a name offers its usual aggregate (last for a balance, sum for a flow) until the person chooses one.
  let aggregateChosen = false;
  aggregateSelect.addEventListener('change', () => (aggregateChosen = true));
  const chosenNames = (): string[] => Array.from(namesBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')).map((box) => box.value);
  // Each name's own aggregate for the fund model, kept across filtering: the model writes it into that name's cell
  // ("Cash (last)"), so one metric's choice never reaches another's block.
  const nameAggregates = new Map<string, string>();
  const AGGREGATE_WORDS: Array<[string, string]> = [
    ['', 'no aggregate'],
    ['last', 'last'],
    ['sum', 'sum'],
    ['average', 'average'],
    ['first', 'first'],
  ];
  const modelNames = (): string[] =>
    chosenNames().map((name) => {
      const how = nameAggregates.get(name) ?? '';
      return how ? `${name} (${how})` : name;
    });
  const field = (id: string): string => byId<HTMLInputElement>(id).value.trim();
  const chosenPeriods = (): string[] =>
    field('grid-periods')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
  const chosenAggregate = (): PortfolioGridRequest['aggregate'] => (aggregateSelect.value || null) as PortfolioGridRequest['aggregate'];
  byId<HTMLButtonElement>('grid-load').addEventListener('click', () => {
    void busy(panel, status, "Reading the fund's metric names…", async () => {
      fundNames = unwrap(await server.listFundMetricNames(await company()));
      fillCompanyFilter(
        gridCompany,
        byId<HTMLElement>('grid-company-field'),
        fundNames.flatMap((n) => n.companyNames),
      );
      renderNames();
      return { line: `${countOf(fundNames.length, 'metric name')} across the fund's companies.`, tone: 'success' };
    });
  });
  gridCompany.addEventListener('change', renderNames);
  /** The names (those the company chosen has, when one is), each with the companies that have it; ticks kept. */
  function renderNames(): void {
    const ticked = new Set(chosenNames());
    const company = gridCompany.value;
    const shown = fundNames.filter((n) => !company || n.companyNames.includes(company));
    namesBox.replaceChildren(
      ...shown.map((n, i) => {
        const id = `grid-name-${i}`;
        const box = el('input', { type: 'checkbox', id, value: n.name, checked: ticked.has(n.name) });
        box.addEventListener('change', () => {
          if (box.checked && !aggregateChosen) aggregateSelect.value = n.aggregate;
        });
        if (!nameAggregates.has(n.name)) nameAggregates.set(n.name, n.aggregate);
        const how = el(
          'select',
          { class: 'name-aggregate', 'data-name': n.name, 'aria-label': `How the fund model combines a period's values of ${n.name}` },
          ...AGGREGATE_WORDS.map(([value, words]) => el('option', { value, selected: nameAggregates.get(n.name) === value }, words)),
        );
        how.addEventListener('change', () => nameAggregates.set(n.name, how.value));
        const few = n.companyNames.slice(0, 3).join(', ') + (n.companyNames.length > 3 ? ` and ${n.companyNames.length - 3} more` : '');
        return el(
          'div',
          { class: 'choice' },
          box,
          el(
            'label',
            { for: id, title: n.companyNames.join(', ') },
            `${n.name} (${countOf(n.companies, 'company', 'companies')})`,
            el('span', { class: 'metric-meta' }, few),
          ),
          how,
        );
      }),
    );
  }
  // The size of long work, said from the click. Not a count of companies: the names loaded know only those with a
  // metric, and the model and the coverage sheet have a row for every company of the fund.
  const EVERY_COMPANY = 'for every company of the fund';
  byId<HTMLButtonElement>('grid-insert').addEventListener('click', () => {
    const label = byId<HTMLInputElement>('grid-mode-snapshot').checked
      ? `Reading ${countOf(chosenNames().length, 'metric')} ${EVERY_COMPANY}…`
      : 'Inserting the formula…';
    void busy(panel, status, label, () =>
      withActivity(results, label, async () => {
        const periods = chosenPeriods();
        const written = unwrap(
          await server.insertPortfolioGrid({
            companyId: await company(),
            kind: byId<HTMLInputElement>('grid-kind-coverage').checked ? 'coverage' : 'metric',
            metricNames: chosenNames(),
            periods,
            startPeriod: field('grid-start') || null,
            endPeriod: field('grid-end') || null,
            aggregate: chosenAggregate(),
            mode: byId<HTMLInputElement>('grid-mode-snapshot').checked ? 'snapshot' : 'formula',
          }),
        );
        return { line: written.message, tone: 'success' };
      }),
    );
  });
  byId<HTMLButtonElement>('grid-model').addEventListener('click', () => {
    const blocks = modelNames().length;
    const label = blocks ? `Inserting ${countOf(blocks, 'block')} (one per metric), a row ${EVERY_COMPANY}…` : 'Inserting the fund model…';
    void busy(panel, status, label, () =>
      withActivity(results, label, async () => {
        const written = unwrap(
          await server.insertFundModel({ ...(await modelChoice()), formulas: byId<HTMLInputElement>('grid-model-cells').checked ? 'cell' : 'block' }),
        );
        return { line: written.message, tone: 'success' };
      }),
    );
  });
  byId<HTMLButtonElement>('grid-coverage').addEventListener('click', () => {
    const label = `Building the coverage sheet: reading ${countOf(chosenNames().length, 'metric')} ${EVERY_COMPANY}…`;
    void busy(panel, status, label, () =>
      withActivity(results, label, async () => {
        const built = unwrap(
          await server.buildCoverageSheet({
            companyId: await company(),
            metricNames: chosenNames(),
            startPeriod: field('grid-start'),
            endPeriod: field('grid-end'),
            aggregate: chosenAggregate(),
          }),
        );
        return { line: built.message, tone: 'success' };
      }),
    );
  });

  byId<HTMLButtonElement>('grid-provenance').addEventListener('click', () => {
    const label = `Building the provenance sheet: the values and sources of ${countOf(modelNames().length, 'metric')} ${EVERY_COMPANY}…`;
    void busy(panel, status, label, () =>
      withActivity(results, label, async () => {
        const built = unwrap(await server.buildProvenanceSheet(await modelChoice()));
        return { line: built.message, tone: 'success' };
      }),
    );
  });

  /** What the fund model and its provenance sheet are built for: the ticked names (each with its aggregate) and the periods. */
  async function modelChoice() {
    return {
      companyId: await company(),
      metricNames: modelNames(),
      periods: chosenPeriods(),
      startPeriod: field('grid-start') || null,
      endPeriod: field('grid-end') || null,
      aggregate: null,
    };
  }

  function importFromSelection(kind: ImportKind): void {
    void busy(panel, status, 'Reading the selection…', async () => {
      const range = unwrap(await server.activeRange());
      const request = { kind, companyId: await company(), range };
      // Columns the import would leave out are named first; it starts only if the person chooses to ignore them.
      const check = unwrap(await server.checkImportColumns(request));
      say(status, '');
      const renames = check.renames ?? [];
      if (check.unrecognised.length === 0 && renames.length === 0)
        return runJob<ImportHandle>(results, unwrap(await server.startImport(request)), importView(kind, range), run);
      // Left-out columns and renames are shown before anything is sent; the import starts only if the person confirms them.
      const these = check.unrecognised.length === 1 ? 'this column' : 'these columns';
      const parts: HTMLElement[] = [];
      if (check.unrecognised.length > 0) {
        parts.push(
          el('p', {}, `Not recognised, so not sent: ${check.unrecognised.join(', ')}.`),
          el(
            'p',
            { class: 'hint' },
            `Recognised headers: ${check.recognised.join(', ')}. Rename a column to one of them and import again, or import without ${these}.`,
          ),
        );
      }
      if (renames.length > 0) {
        parts.push(
          el('p', {}, `The import renames ${countOf(renames.length, 'profile')}:`),
          el('ul', { class: 'renames' }, ...renames.map((rename) => el('li', {}, `Row ${rename.sheetRow}: "${rename.from}" → "${rename.to}"`))),
          el('p', { class: 'hint' }, "To keep a profile's name, put its current name in the sheet and import again."),
        );
      }
      const label = [check.unrecognised.length > 0 ? `without ${these}` : '', renames.length > 0 ? 'and rename' : ''].filter(Boolean).join(' ');
      const confirm = el(
        'button',
        { type: 'button', id: check.unrecognised.length > 0 ? 'import-ignore-columns' : 'import-confirm-renames' },
        `Import ${label}`,
      );
      const box = el(
        'div',
        { class: 'confirm', role: 'group', 'aria-label': check.unrecognised.length > 0 ? 'Unrecognised columns' : 'Profile renames' },
        ...parts,
        confirm,
      );
      results.replaceChildren(box);
      const confirmed = {
        ...request,
        ...(check.unrecognised.length > 0 ? { ignoreUnrecognisedColumns: true } : {}),
        ...(renames.length > 0 ? { renames } : {}),
      };
      confirm.addEventListener('click', () => {
        run('Starting the import…', async () => runJob<ImportHandle>(results, unwrap(await server.startImport(confirmed)), importView(kind, range), run));
      });
      const line =
        check.unrecognised.length > 0
          ? `Nothing imported yet: ${countOf(check.unrecognised.length, 'column')} of the selection ${check.unrecognised.length === 1 ? 'has a header' : 'have headers'} the import does not recognise.`
          : `Nothing imported yet: the import renames ${countOf(renames.length, 'profile')}.`;
      return { line, tone: 'warning', report: box };
    });
  }
  byId<HTMLButtonElement>('import-profiles').addEventListener('click', () => importFromSelection('profiles'));
  byId<HTMLButtonElement>('import-contacts').addEventListener('click', () => importFromSelection('contacts'));

  /** Undo of any of the person's last pushes in this spreadsheet (exports, audit pushes, imports): pick, read, confirm. */
  const undoButton = el('button', { type: 'button', id: 'undo-a-push' }, 'Choose a push to undo…');
  byId<HTMLButtonElement>('audit-build')
    .closest('fieldset')!
    .after(
      el(
        'fieldset',
        { class: 'block' },
        el('legend', {}, 'Undo a push'),
        el(
          'p',
          { class: 'hint' },
          'Pick one of your last 10 pushes here (exports, audit pushes, imports), read what Undo restores and what it cannot, then confirm. Every value it replaced is written back as it was, unless someone changed it since.',
        ),
        undoButton,
      ),
    );
  undoButton.addEventListener('click', () => run('Reading your last pushes…', () => chooseUndo(results, run)));

  /** Pushes, imports and audit builds of the last six hours that did not finish, each offered with Resume. */
  const unfinishedBox = el('div', { class: 'unfinished', role: 'group', 'aria-label': 'Unfinished pushes and imports' });
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
      offer(
        push,
        pushView,
        `The push of changed cells of "${push.sheetName}" to ${push.fund} ${howItStopped(push.progress.status)} with ${push.progress.cellsDone} of ${countOf(push.progress.cellsTotal, 'cell')} done.`,
      );
    }
    for (const job of jobs.imports) {
      offer(
        job,
        importView(job.kind, job.range),
        `The import of ${job.kind} from ${job.range} ${howItStopped(job.progress.status)} with ${job.progress.rowsDone} of ${countOf(job.progress.rowsTotal, 'row')} done.`,
      );
    }
    for (const undo of jobs.undos) {
      offer(
        undo,
        UNDO_VIEW,
        `The undo of Push ${undo.pushId} ${howItStopped(undo.progress.status)} with ${undo.progress.cellsDone} of ${countOf(undo.progress.cellsTotal, 'value')} done.`,
      );
    }
    for (const build of jobs.builds) {
      const box = el('div', { class: 'resume-offer' });
      box.append(
        ...resumeOffer(
          box,
          build,
          BUILD_VIEW,
          run,
          `The audit build ${howItStopped(build.progress.status)} with ${build.progress.pagesRead} of ${countOf(build.progress.pagesTotal, 'page')} read. Resuming reads only the pages not read.`,
        ),
      );
      offers.push(box);
    }
    unfinishedBox.replaceChildren(...offers);
  }

  byId<HTMLFormElement>('note-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void busy(panel, status, 'Adding the note…', async () => {
      // The report below is of an earlier import or push: left in place, it would read as this note's.
      results.replaceChildren();
      const report = unwrap(
        await server.addNoteToSelectedContacts({
          content: byId<HTMLTextAreaElement>('note-content').value,
          noteTagId: tagSelect.value || null,
          skipRowsWithoutId: byId<HTMLInputElement>('note-skip').checked,
        }),
      );
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
      void server
        .listNoteTags(companyId())
        .then((result) => {
          const tags = unwrap(result);
          tagSelect.replaceChildren(el('option', { value: '' }, 'No tag'), ...tags.map((t) => el('option', { value: t.id }, t.name)));
        })
        .catch((error: unknown) => say(status, `Note tags could not be loaded: ${error instanceof Error ? error.message : String(error)}`, 'error'));
    },
  };
}
