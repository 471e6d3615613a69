// The functions the sidebar calls, typed by ServerApi; failures come back as data.

import { ApiError, InputError, userMessage } from '../core/api/errors';
import type { Metric } from '../core/api/types';
import { metricValuesFormula } from '../core/sheets/formula-text';
import { isIsoDate } from '../core/validate/dates';
import { readUnit } from '../core/validate/unit';
import { requireUuid } from '../core/validate/uuid';
import { activeAnchor, writeFormula } from '../gas/sheet-io';
import { addFormulaAccess, checkBaseUrl, readFormulaAccess, readSettingsSummary, saveCheckedSettings, saveFormulaAccess } from '../gas/user-settings';
import { callerIsOwner, spreadsheetOwnerEmail } from '../gas/ownership';
import { formulaAccessRefusal, sharingNote } from '../core/settings/sharing-note';
import { validateToken } from '../core/settings/base-url';
import type { ConnectionReport, FormulaAccess, JobProgress, MetricSummary, RpcResult, ServerApi, SettingsSummary } from '../shared/rpc';
import { createClientForExecution } from './api-factory';
import * as exporter from './export-api';
import { refreshFormulasFor } from './refresh';
import * as importer from './import-api';
import * as notes from './notes-api';
import * as audit from './audit-api';
import { activeSelection } from '../gas/sheet-io';
import { latestMetricValues } from './latest-api';
import * as grid from './portfolio-grid-api';
import * as freeze from './freeze';
import * as snapshots from './snapshots';
import { forgetMetricListing, listMetricsFresh } from './metric-listing';

/** Sidebar calls run up to 6 minutes, but a person is waiting: give up on rate-limit waits past a minute. */
const SIDEBAR_WAIT_MS = 60_000;

function attempt<T>(body: () => T): RpcResult<T> {
  try {
    return { ok: true, value: body() };
  } catch (error) {
    return { ok: false, error: userMessage(error) };
  }
}

/**
 * A job id from the page, checked before it becomes part of a cache key: the add-in makes them with
 * Utilities.getUuid(), and anything else (say 300 characters) would reach CacheService's key limit.
 */
function jobId(id: unknown, kind: 'export' | 'import' | 'push'): string {
  return requireUuid(id, `The ${kind} id`);
}

/** The kind and id checked (the kind is one of three, the id a UUID) before either becomes part of a cache key. */
function jobProgress(kind: unknown, id: unknown): JobProgress | null {
  if (kind === 'export') return exporter.liveProgress(jobId(id, 'export'));
  if (kind === 'push') return audit.liveProgress(jobId(id, 'push'));
  if (kind === 'import') return importer.liveProgress(jobId(id, 'import'));
  throw new InputError('The job kind must be "export", "push" or "import".');
}

function client() {
  return createClientForExecution({ maxTotalWaitMs: SIDEBAR_WAIT_MS });
}

function summary(metric: Metric): MetricSummary {
  return {
    id: metric.id,
    name: metric.name,
    frequency: metric.frequency,
    unit: metric.unit,
    portfolioCompanyProfileId: metric.portfolio_company_profile_id ?? null,
  };
}

function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

function testConnection(companyId: string): ConnectionReport {
  const id = requireUuid(companyId, 'The company id');
  const api = client();
  let metrics: Metric[];
  try {
    metrics = api.metrics.list(id);
  } catch (error) {
    return { ok: false, message: userMessage(error) };
  }
  let portfolio: string;
  try {
    portfolio = `it is a fund with ${plural(api.portfolio.listProfiles(id).length, 'portfolio company', 'portfolio companies')}`;
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'forbidden')) throw error;
    portfolio = 'it has no portfolio data (not a fund, or not visible to this token)';
  }
  return { ok: true, message: `Connected. This token sees ${plural(metrics.length, 'metric')} of company ${id}, and ${portfolio}.`, metricCount: metrics.length };
}

function optionalIsoDate(value: string | null, what: string): string | undefined {
  if (value === null || value === '') return undefined;
  if (!isIsoDate(value)) throw new InputError(`${what} must be a date like 2024-01-31.`);
  return value;
}

function settingsForPage(): SettingsSummary {
  const stored = readSettingsSummary();
  const isOwner = callerIsOwner();
  return { ...stored, isOwner, sharingNote: sharingNote(isOwner, isOwner === false ? spreadsheetOwnerEmail() : null) };
}

function formulaAccess(): FormulaAccess {
  const isOwner = callerIsOwner();
  // A non-owner's sidebar reads only their own properties, not the owner's list formulas use.
  return { companyIds: isOwner === false ? [] : readFormulaAccess(), isOwner };
}

/**
 * Unknown ownership (null) is allowed: this writes the caller's own user properties, which formulas
 * read only when the caller is in fact the owner, so a non-owner's list has no effect on formulas.
 */
function setFormulaAccess(companyIds: unknown): FormulaAccess {
  if (!Array.isArray(companyIds)) throw new InputError('Give the company ids as a list.');
  const ids = companyIds.map((id: unknown) => requireUuid(id, 'A company id'));
  const isOwner = callerIsOwner();
  if (isOwner === false) throw new InputError(formulaAccessRefusal(spreadsheetOwnerEmail()));
  return { companyIds: saveFormulaAccess(ids), isOwner };
}

export const sidebarApi: ServerApi = {
  getSettings: () => attempt(settingsForPage),

  // Every field is checked before anything is saved: a wrong one must not leave a half-saved mix.
  saveSettings: (update) => attempt(() => {
    const token = update.removeToken ? null : update.token !== undefined && update.token !== '' ? validateToken(update.token) : undefined;
    const baseUrl = update.baseUrl !== undefined ? checkBaseUrl(update.baseUrl) : undefined;
    const defaultCompanyId = update.defaultCompanyId === undefined ? undefined
      : update.defaultCompanyId ? requireUuid(update.defaultCompanyId, 'The default company id') : null;
    saveCheckedSettings({ token, baseUrl, defaultCompanyId });
    return settingsForPage();
  }),

  testConnection: (companyId) => attempt(() => testConnection(companyId)),

  // Kept for the cache period: the exporter's steps that follow read it instead of fetching it again.
  listMetrics: (companyId) => attempt(() => listMetricsFresh(client(), requireUuid(companyId, 'The company id')).map(summary)),

  latestMetricValues: (metricIds) => attempt(() => latestMetricValues(client(), metricIds)),

  createMetric: (input) => attempt(() => {
    const name = input.name.trim();
    if (!name) throw new InputError('Give the new metric a name.');
    const unit = readUnit(input.unit);
    const companyId = requireUuid(input.companyId, 'The company id');
    const created = summary(client().metrics.create({ company_id: companyId, name, frequency: input.frequency, unit }));
    forgetMetricListing(companyId);
    return created;
  }),

  readExportSelection: (companyId) => attempt(() => exporter.readExportSelection(companyId)),
  previewExport: (request) => attempt(() => exporter.preview(request)),
  startExport: (request) => attempt(() => exporter.startExport(request)),
  continueExport: (exportId) => attempt(() => exporter.continueExport(jobId(exportId, 'export'))),
  cancelExport: (exportId) => attempt(() => exporter.cancel(jobId(exportId, 'export'))),
  resumeExport: (exportId) => attempt(() => exporter.resume(jobId(exportId, 'export'))),
  findUnfinishedExport: () => attempt(exporter.findUnfinished),
  refreshFormulasFor: (metricIds) =>
    attempt(() => {
      const formulas = refreshFormulasFor(metricIds);
      const message = formulas === 0 ? 'No formula here reads those metrics.' : `${plural(formulas, 'formula')} refreshed: they now show the values the API holds.`;
      return { formulas, message };
    }),

  activeRange: () => attempt(activeSelection),
  startImport: (request) => attempt(() => importer.startImport(request)),
  continueImport: (importId) => attempt(() => importer.continueImport(jobId(importId, 'import'))),
  cancelImport: (importId) => attempt(() => importer.cancel(jobId(importId, 'import'))),
  resumeImport: (importId) => attempt(() => importer.resume(jobId(importId, 'import'))),
  listNoteTags: (companyId) => attempt(() => notes.listNoteTags(companyId)),
  addNoteToSelectedContacts: (request) => attempt(() => notes.addNoteToSelectedContacts(request)),
  insertPortfolioNotes: (profileId) => attempt(() => notes.insertPortfolioNotes(profileId)),
  buildAudit: (companyId) => attempt(() => audit.buildAudit(companyId)),
  startAuditPush: (sheetName) => attempt(() => audit.startPush(sheetName)),
  continueAuditPush: (pushId) => attempt(() => audit.continuePush(jobId(pushId, 'push'))),
  cancelAuditPush: (pushId) => attempt(() => audit.cancelPush(jobId(pushId, 'push'))),
  resumeAuditPush: (pushId) => attempt(() => audit.resumePush(jobId(pushId, 'push'))),
  getFormulaAccess: () => attempt(formulaAccess),
  setFormulaAccess: (companyIds) => attempt(() => setFormulaAccess(companyIds)),
  freezeSelection: () => attempt(freeze.freezeSelection),
  thawSelection: () => attempt(freeze.thawSelection),
  listSnapshots: () => attempt(snapshots.listSnapshots),
  refreshSnapshots: () => attempt(() => snapshots.refreshAllSnapshots('sidebar')),

  listFundMetricNames: (companyId) => attempt(() => grid.listFundMetricNames(companyId)),
  insertPortfolioGrid: (request) => attempt(() => grid.insertPortfolioGrid(request)),
  buildCoverageSheet: (request) => attempt(() => grid.buildCoverageSheet(request)),

  getJobProgress: (kind, id) => attempt(() => jobProgress(kind, id)),
  findUnfinishedPortfolioJobs: () => attempt(() => ({ pushes: audit.unfinishedPushes(), imports: importer.unfinishedImports() })),

  insertMetricValues: (request) => attempt(() => {
    const ids = request.metricIds.map((id) => requireUuid(id, 'A metric id'));
    if (ids.length === 0) throw new InputError('Choose at least one metric.');
    const start = optionalIsoDate(request.startDate, 'The start date');
    const end = optionalIsoDate(request.endDate, 'The end date');
    const anchor = activeAnchor();
    if (request.mode === 'formula') {
      const companyId = requireUuid(request.companyId, 'The company id');
      const formula = metricValuesFormula({ metricIds: ids, startDate: start, endDate: end, headers: request.headers || ids.length > 1 });
      const range = writeFormula(anchor, formula);
      // The owner's insert is their decision to let formulas here read this company. Unknown ownership
      // writes the caller's own list, which counts only if they are the owner.
      let access = '';
      if (callerIsOwner() !== false) {
        const before = readFormulaAccess();
        if (addFormulaAccess(companyId).length > before.length) access = ` Formulas in this spreadsheet may now read company ${companyId}'s data.`;
      }
      return { range: `${anchor.sheetName}!${range}`, rows: 0, message: `Inserted ${formula} at ${anchor.sheetName}!${range}. It updates with "Refresh data".${access}` };
    }
    return snapshots.insertMetricSnapshot(request);
  }),
};
