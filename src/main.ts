// The add-in's public surface: every top-level function Apps Script sees is assigned here, and nothing else.
// This file is compiled by TypeScript itself (not esbuild) so that the JSDoc below survives into
// dist/Code.js, where Sheets reads it for autocomplete and gas-webpack-plugin copies it onto the
// top-level declarations it generates.

import { customFunctions } from './server/custom-functions';
import { addMenu, freezeSelectionFromMenu, refreshData, showSidebar, thawSelectionFromMenu } from './server/menu';
import { sidebarApi } from './server/sidebar-api';

// Module scope shadows Node's typing of `global`; in the bundle it is webpack's global object.
declare const global: Record<string, unknown>;

/**
 * Data points of one or several metrics, as rows of date and value, oldest first.
 * Several metrics give one wide table: a date column, then one column per metric headed by its name.
 * Blank values stay empty cells, never 0.
 *
 * @param {string|string[][]} metric_id The metric's id, or a range of metric ids.
 * @param {Date|string} [start_date] First date to include: a date cell or text like "2024-01-01".
 * @param {Date|string} [end_date] Last date to include: a date cell or text like "2024-12-31".
 * @param {string} [options] Words separated by commas: "headers" adds a header row (on by default for several metrics), "exclude_blank" drops blank values, "text" gives every value as the API's exact decimal text, "source" follows each value with where it came from: source type (ai_inbox, update_request, user_provided, unknown; "ai_inbox (review)" for values an AI read, to check), label and link into the web application, with a header row naming each column.
 * @return {any[][]} Rows of date and value, oldest first (values are text with "text"; with "source", each value is followed by its source type, label and link).
 * @customfunction
 * @example =METRIC_VALUES("123e4567-e89b-12d3-a456-426614174000", "2024-01-01", "2024-12-31", "headers")
 */
global.METRIC_VALUES = function (metric_id: unknown, start_date: unknown, end_date: unknown, options: unknown) {
  return customFunctions.METRIC_VALUES(metric_id, start_date, end_date, options);
};

/**
 * One value of a metric for a period, for models with one cell per metric and period.
 * Cells of the same metric share one cached series, so a whole model costs one fetch per metric.
 * A period longer than the metric's own (a quarter or fiscal year of a monthly metric, a year of a quarterly one,
 * a month of a weekly or daily one) needs an aggregate; without one it is an error that says so.
 *
 * @param {string|string[][]} metric_id The metric's id (or a column of ids).
 * @param {Date|string|string[][]} period The period's start date, or a label: "2024-03", "2024-Q1", "FY2024" or "Q3 FY2024" (fiscal years follow the portfolio company's fiscal year end month). A row of periods fills a row.
 * @param {string} [aggregate] For a period longer than the metric's own: "sum", "average", "first" or "last" of the metric's periods inside it (weeks count in the period they start in). Empty when any of them is blank or missing (for "first" and "last": when the first or last one is). Sums are exact; an average is rounded once, to what a number holds.
 * @return {number|any[][]} The value of the data point of the period that starts there, or the aggregate (empty when there is none); a grid of values for ranges.
 * @customfunction
 * @example =METRIC_VALUE("123e4567-e89b-12d3-a456-426614174000", "2024-Q1", "sum")
 */
global.METRIC_VALUE = function (metric_id: unknown, period: unknown, aggregate: unknown) {
  return customFunctions.METRIC_VALUE(metric_id, period, aggregate);
};

/**
 * The latest non-blank value of a metric on or before a date, for dashboards where periods report late.
 *
 * @param {string} metric_id The metric's id.
 * @param {Date|string} [as_of] Latest date to consider: a typed date cell or text like "2024-06-30"; leave it empty for today (never a volatile function: Sheets does not allow one as an argument).
 * @param {string} [options] "with_date" returns the value's date and the value side by side.
 * @return {number|any[][]} The latest value, or with "with_date" one row of its date and value.
 * @customfunction
 * @example =METRIC_LATEST("123e4567-e89b-12d3-a456-426614174000", "2024-06-30", "with_date")
 */
global.METRIC_LATEST = function (metric_id: unknown, as_of: unknown, options: unknown) {
  return customFunctions.METRIC_LATEST(metric_id, as_of, options);
};

/**
 * Where one value of a metric came from: its source type, label and link into the web application, as one row.
 * The type is ai_inbox, update_request, user_provided or unknown (or a newer type, shown as the API sends it);
 * a value an AI read from a document shows "ai_inbox (review)": check it before a report goes out.
 * Cells of the same metric share one cached series with sources, fetched apart from METRIC_VALUE's.
 *
 * @param {string} metric_id The metric's id.
 * @param {Date|string} period The period's start date, or a label of one of the metric's own periods: "2024-03" for a monthly metric, "2024-Q1" for a quarterly one ("Q3 FY2024" follows the portfolio company's fiscal year end month).
 * @return {any[][]} One row: source type, label and link; empty cells when the period has no data point.
 * @customfunction
 * @example =METRIC_SOURCE("123e4567-e89b-12d3-a456-426614174000", "2024-06")
 */
global.METRIC_SOURCE = function (metric_id: unknown, period: unknown) {
  return customFunctions.METRIC_SOURCE(metric_id, period);
};

/**
 * Every metric of a company or fund: name, id, frequency, unit and portfolio company profile.
 *
 * @param {string} company_id The company's or fund's id (from the address of its page in the web application).
 * @param {string} [portfolio_company_profile_id] Only the metrics of this portfolio company (funds only).
 * @return {any[][]} A header row, then one row per metric.
 * @customfunction
 * @example =METRICS("123e4567-e89b-12d3-a456-426614174000")
 */
global.METRICS = function (company_id: unknown, portfolio_company_profile_id: unknown) {
  return customFunctions.METRICS(company_id, portfolio_company_profile_id);
};

/**
 * Every contact list of a company: name and id.
 *
 * @param {string} company_id The company's id.
 * @return {any[][]} A header row, then one row per contact list.
 * @customfunction
 * @example =CONTACT_LISTS("123e4567-e89b-12d3-a456-426614174000")
 */
global.CONTACT_LISTS = function (company_id: unknown) {
  return customFunctions.CONTACT_LISTS(company_id);
};

/**
 * Every portfolio company profile of a fund: name, id, website, currency, fiscal year end month, primary contact, creation date.
 *
 * @param {string} company_id The fund's company id.
 * @return {any[][]} A header row, then one row per portfolio company.
 * @customfunction
 * @example =PORTFOLIO_COMPANIES("123e4567-e89b-12d3-a456-426614174000")
 */
global.PORTFOLIO_COMPANIES = function (company_id: unknown) {
  return customFunctions.PORTFOLIO_COMPANIES(company_id);
};

/**
 * Every portfolio property of a fund (custom ones, then the auto-calculated investment properties): name, id, data type, auto-calculated.
 *
 * @param {string} company_id The fund's company id.
 * @return {any[][]} A header row, then one row per property.
 * @customfunction
 * @example =PORTFOLIO_PROPERTIES("123e4567-e89b-12d3-a456-426614174000")
 */
global.PORTFOLIO_PROPERTIES = function (company_id: unknown) {
  return customFunctions.PORTFOLIO_PROPERTIES(company_id);
};

/**
 * The property values of one portfolio company, as a person reads them: option labels, lists joined, numbers, dates and booleans as such, rich text as plain text with its line breaks.
 *
 * @param {string} portfolio_company_profile_id The portfolio company profile's id.
 * @param {string} [company_id] The fund's company id, for the property names; the default company from settings when left out.
 * @return {any[][]} A header row, then one row per property that has a value.
 * @customfunction
 * @example =PORTFOLIO_PROPERTY_VALUES("123e4567-e89b-12d3-a456-426614174000")
 */
global.PORTFOLIO_PROPERTY_VALUES = function (portfolio_company_profile_id: unknown, company_id: unknown) {
  return customFunctions.PORTFOLIO_PROPERTY_VALUES(portfolio_company_profile_id, company_id);
};

/**
 * The options of a select or multiselect portfolio property: label and id.
 *
 * @param {string} portfolio_property_id The property's id.
 * @param {string} [label] Only the option with this label (matched without regard to case).
 * @return {any[][]} A header row, then one row per option.
 * @customfunction
 * @example =PORTFOLIO_PROPERTY_OPTIONS("123e4567-e89b-12d3-a456-426614174000", "Series A")
 */
global.PORTFOLIO_PROPERTY_OPTIONS = function (portfolio_property_id: unknown, label: unknown) {
  return customFunctions.PORTFOLIO_PROPERTY_OPTIONS(portfolio_property_id, label);
};

/**
 * The portfolio notes of one portfolio company: name, content, creation date and id.
 *
 * @param {string} portfolio_company_profile_id The portfolio company profile's id.
 * @return {any[][]} A header row, then one row per note.
 * @customfunction
 * @example =PORTFOLIO_NOTES("123e4567-e89b-12d3-a456-426614174000")
 */
global.PORTFOLIO_NOTES = function (portfolio_company_profile_id: unknown) {
  return customFunctions.PORTFOLIO_NOTES(portfolio_company_profile_id);
};

/**
 * One value of a portfolio company's metric, by the company's name and the metric's name, from the default fund.
 * Ranges fill grids: a column of companies against a row of periods, or against a row of metric names with one period.
 * In a grid, a company without a metric of that name (or with two) shows why in its cell; the series of every cell come in one batched read.
 *
 * @param {string|string[][]} company The portfolio company's name (trimmed, any case) or profile id, or a column of them.
 * @param {string|string[][]} metric_name The metric's name (trimmed, any case), like "Revenue", or a row of names.
 * @param {Date|string|string[][]} period A start date or a label: "2024-03", "2024-Q1", "FY2024" or "Q3 FY2024" (fiscal years follow that company's fiscal year end month), or a row of them.
 * @param {string} [aggregate] For a period longer than the metric's own: "sum", "average", "first" or "last", as for METRIC_VALUE.
 * @return {number|any[][]} The value (empty when blank), or a grid of values for ranges.
 * @customfunction
 * @example =PORTFOLIO_VALUE("Aurora Robotics", "Monthly Recurring Revenue", "2024-Q1", "sum")
 */
global.PORTFOLIO_VALUE = function (company: unknown, metric_name: unknown, period: unknown, aggregate: unknown) {
  return customFunctions.PORTFOLIO_VALUE(company, metric_name, period, aggregate);
};

/**
 * One metric across every portfolio company of a fund, by name: one row per company, one column per period.
 * A company without a metric of that name has an empty row and is named in a final note row; a company with two
 * metrics of that name shows an error naming both ids.
 *
 * @param {string} metric_name The metric's name (trimmed, any case), like "Net Burn".
 * @param {Date|string|string[][]} periods A period label or date, or a row of them ("2024-Q1", "FY2024": fiscal years per company).
 * @param {string} [fund_company_id] The fund's company id; the default company from settings when left out.
 * @return {any[][]} A header row (Company, then the periods), one row per portfolio company, and a note row for companies without the metric.
 * @customfunction
 * @example =PORTFOLIO_METRIC("Net Burn", B1:I1)
 */
global.PORTFOLIO_METRIC = function (metric_name: unknown, periods: unknown, fund_company_id: unknown) {
  return customFunctions.PORTFOLIO_METRIC(metric_name, periods, fund_company_id);
};

/**
 * Who has reported: for every portfolio company and metric name, each period as "reported", "blank" (a null or empty
 * point, or none) or "no such metric", with counts per row, per company ("All metrics" rows) and per period ("All companies" rows).
 *
 * @param {string|string[][]} metric_names A metric name, or a range of names.
 * @param {string} start_period The first period: a calendar label like "2024-01", "2024-Q1" or "2024" (its length sets the columns').
 * @param {string} end_period The last period, a label of the same length.
 * @param {string} [fund_company_id] The fund's company id; the default company from settings when left out.
 * @return {any[][]} A header row (Company, Metric, the periods, Reported, Blank, No such metric), then the rows described above.
 * @customfunction
 * @example =PORTFOLIO_COVERAGE({"Monthly Recurring Revenue","Net Burn"}, "2024-01", "2024-06")
 */
global.PORTFOLIO_COVERAGE = function (metric_names: unknown, start_period: unknown, end_period: unknown, fund_company_id: unknown) {
  return customFunctions.PORTFOLIO_COVERAGE(metric_names, start_period, end_period, fund_company_id);
};

/**
 * Adds the add-in's menu when the spreadsheet opens.
 * @param {GoogleAppsScript.Events.SheetsOnOpen} e The open event.
 */
global.onOpen = function (e: unknown) {
  void e;
  addMenu();
};

/**
 * Adds the menu right after installation, before the document is reopened.
 * @param {GoogleAppsScript.Events.AddonOnInstall} e The install event.
 */
global.onInstall = function (e: unknown) {
  void e;
  addMenu();
};

/** Menu: refreshes every add-in formula in the spreadsheet with fresh data. */
global.refreshData = function () {
  refreshData();
};

/** Menu: the selected add-in formulas become values, with a note on each frozen range. */
global.freezeSelectionFromMenu = function () {
  freezeSelectionFromMenu();
};

/** Menu: the frozen ranges in the selection get their formulas back. */
global.thawSelectionFromMenu = function () {
  thawSelectionFromMenu();
};

/** Opens the sidebar (menu item). */
global.showSidebar = function () {
  showSidebar();
};

/** Opens the sidebar on the portfolio tools, to build an audit (menu item). */
global.showAudit = function () {
  showSidebar('portfolio');
};

/** Opens the sidebar on the exporter, with the selection read (menu item). */
global.showExporter = function () {
  showSidebar('export');
};

/** Sidebar: the settings as the page may see them (never the token). */
global.getSettings = function () {
  return sidebarApi.getSettings();
};

/**
 * Sidebar: saves a new token, base URL or default company.
 * @param {Object} update The fields to change.
 */
global.saveSettings = function (update: Parameters<typeof sidebarApi.saveSettings>[0]) {
  return sidebarApi.saveSettings(update);
};

/**
 * Sidebar: checks that the token and base URL work for a company.
 * @param {string} companyId The company to list metrics of.
 */
global.testConnection = function (companyId: string) {
  return sidebarApi.testConnection(companyId);
};

/**
 * Sidebar: every metric of a company, for the metric browser.
 * @param {string} companyId The company's id.
 */
global.listMetrics = function (companyId: string) {
  return sidebarApi.listMetrics(companyId);
};

/**
 * Sidebar: each metric's latest value with its source, for the metric browser (read-only).
 * @param {string[]} metricIds The metrics' ids.
 */
global.latestMetricValues = function (metricIds: string[]) {
  return sidebarApi.latestMetricValues(metricIds);
};

/**
 * Sidebar: creates a metric (POST /metrics).
 * @param {Object} input Company id, name, frequency and unit.
 */
global.createMetric = function (input: Parameters<typeof sidebarApi.createMetric>[0]) {
  return sidebarApi.createMetric(input);
};

/**
 * Sidebar: reads the active selection to pre-fill the exporter.
 * @param {string} companyId The company whose metric names a two-column header may give (then the layout is wide).
 */
global.readExportSelection = function (companyId: Parameters<typeof sidebarApi.readExportSelection>[0]) {
  return sidebarApi.readExportSelection(companyId);
};

/**
 * Sidebar: what an export of a range would send, skip and refuse, before anything is sent.
 * @param {Object} request The company, range and export options.
 */
global.previewExport = function (request: Parameters<typeof sidebarApi.previewExport>[0]) {
  return sidebarApi.previewExport(request);
};

/**
 * Sidebar: validates a range and stores its export, ready for its first step.
 * @param {Object} request The company, range and export options.
 */
global.startExport = function (request: Parameters<typeof sidebarApi.startExport>[0]) {
  return sidebarApi.startExport(request);
};

/**
 * Sidebar: runs one step of an export (well inside Apps Script's time limit).
 * @param {string} exportId The export's id.
 */
global.continueExport = function (exportId: Parameters<typeof sidebarApi.continueExport>[0]) {
  return sidebarApi.continueExport(exportId);
};

/**
 * Sidebar: stops an export after the current wave; it can be resumed.
 * @param {string} exportId The export's id.
 */
global.cancelExport = function (exportId: Parameters<typeof sidebarApi.cancelExport>[0]) {
  return sidebarApi.cancelExport(exportId);
};

/**
 * Sidebar: resumes an interrupted export with what was not confirmed.
 * @param {string} exportId The export's id.
 */
global.resumeExport = function (exportId: Parameters<typeof sidebarApi.resumeExport>[0]) {
  return sidebarApi.resumeExport(exportId);
};

/**
 * Sidebar: the last export of this spreadsheet, if it did not finish.
 */
global.findUnfinishedExport = function () {
  return sidebarApi.findUnfinishedExport();
};

/**
 * Sidebar: rewrites the add-in formulas that read these metrics, so they show what an export wrote.
 * @param {string[]} metricIds The metrics written.
 */
global.refreshFormulasFor = function (metricIds: Parameters<typeof sidebarApi.refreshFormulasFor>[0]) {
  return sidebarApi.refreshFormulasFor(metricIds);
};

/**
 * Sidebar: the address of the active selection, like Sheet1!A1:C20.
 */
global.activeRange = function () {
  return sidebarApi.activeRange();
};

/**
 * Sidebar: validates a range of profiles or contacts and stores the import, ready for its first step.
 * @param {Object} request The kind, company and range.
 */
global.startImport = function (request: Parameters<typeof sidebarApi.startImport>[0]) {
  return sidebarApi.startImport(request);
};

/**
 * Sidebar: runs one step of an import, writing ids and statuses into the sheet as rows settle.
 * @param {string} importId The import's id.
 */
global.continueImport = function (importId: Parameters<typeof sidebarApi.continueImport>[0]) {
  return sidebarApi.continueImport(importId);
};

/**
 * Sidebar: stops an import before its next row; it can be resumed.
 * @param {string} importId The import's id.
 */
global.cancelImport = function (importId: Parameters<typeof sidebarApi.cancelImport>[0]) {
  return sidebarApi.cancelImport(importId);
};

/**
 * Sidebar: resumes a cancelled or paused import.
 * @param {string} importId The import's id.
 */
global.resumeImport = function (importId: Parameters<typeof sidebarApi.resumeImport>[0]) {
  return sidebarApi.resumeImport(importId);
};

/**
 * Sidebar: the note tags of a company.
 * @param {string} companyId The company's id.
 */
global.listNoteTags = function (companyId: Parameters<typeof sidebarApi.listNoteTags>[0]) {
  return sidebarApi.listNoteTags(companyId);
};

/**
 * Sidebar: adds one note to the contacts of the selected rows.
 * @param {Object} request The note's content and tag.
 */
global.addNoteToSelectedContacts = function (request: Parameters<typeof sidebarApi.addNoteToSelectedContacts>[0]) {
  return sidebarApi.addNoteToSelectedContacts(request);
};

/**
 * Sidebar: writes a portfolio company's notes at the active cell.
 * @param {string} profileId The portfolio company profile's id.
 */
global.insertPortfolioNotes = function (profileId: Parameters<typeof sidebarApi.insertPortfolioNotes>[0]) {
  return sidebarApi.insertPortfolioNotes(profileId);
};

/**
 * Sidebar: builds the portfolio audit sheet of a fund.
 * @param {string} companyId The fund's company id.
 */
global.buildAudit = function (companyId: Parameters<typeof sidebarApi.buildAudit>[0]) {
  return sidebarApi.buildAudit(companyId);
};

/**
 * Sidebar: compares the audit sheet with its snapshot and prepares the push of changed cells.
 * @param {string} sheetName The audit sheet, or null for the default one.
 */
global.startAuditPush = function (sheetName: Parameters<typeof sidebarApi.startAuditPush>[0]) {
  return sidebarApi.startAuditPush(sheetName);
};

/**
 * Sidebar: runs one step of an audit push.
 * @param {string} pushId The push's id.
 */
global.continueAuditPush = function (pushId: Parameters<typeof sidebarApi.continueAuditPush>[0]) {
  return sidebarApi.continueAuditPush(pushId);
};

/**
 * Sidebar: stops an audit push; it can be resumed.
 * @param {string} pushId The push's id.
 */
global.cancelAuditPush = function (pushId: Parameters<typeof sidebarApi.cancelAuditPush>[0]) {
  return sidebarApi.cancelAuditPush(pushId);
};

/**
 * Sidebar: resumes an audit push with the cells not confirmed.
 * @param {string} pushId The push's id.
 */
global.resumeAuditPush = function (pushId: Parameters<typeof sidebarApi.resumeAuditPush>[0]) {
  return sidebarApi.resumeAuditPush(pushId);
};

/**
 * Sidebar: pushes and imports of this spreadsheet from the last six hours that did not finish, to resume.
 */
global.findUnfinishedPortfolioJobs = function () {
  return sidebarApi.findUnfinishedPortfolioJobs();
};

/**
 * Sidebar: what a job's running step has done so far (read-only), for the progress bar while the step runs.
 * @param {string} kind "export", "push" or "import".
 * @param {string} jobId The job's id.
 */
global.getJobProgress = function (kind: Parameters<typeof sidebarApi.getJobProgress>[0], jobId: Parameters<typeof sidebarApi.getJobProgress>[1]) {
  return sidebarApi.getJobProgress(kind, jobId);
};

/**
 * Sidebar: inserts the values of metrics at the active cell, as a live formula or a snapshot.
 * @param {Object} request Metric ids, dates, mode and headers.
 */
global.insertMetricValues = function (request: Parameters<typeof sidebarApi.insertMetricValues>[0]) {
  return sidebarApi.insertMetricValues(request);
};

/** Sidebar: the companies whose data formulas in this spreadsheet may read, and whether the caller owns it. */
global.getFormulaAccess = function () {
  return sidebarApi.getFormulaAccess();
};

/**
 * Sidebar: replaces the companies formulas in this spreadsheet may read (the owner only).
 * @param {string[]} companyIds The companies' ids.
 */
global.setFormulaAccess = function (companyIds: Parameters<typeof sidebarApi.setFormulaAccess>[0]) {
  return sidebarApi.setFormulaAccess(companyIds);
};

/**
 * Sidebar: the fund's distinct metric names, with how many portfolio companies have each.
 * @param {string} companyId The fund's company id.
 */
global.listFundMetricNames = function (companyId: Parameters<typeof sidebarApi.listFundMetricNames>[0]) {
  return sidebarApi.listFundMetricNames(companyId);
};

/**
 * Sidebar: inserts a PORTFOLIO_METRIC or PORTFOLIO_COVERAGE formula, or its values, at the active cell.
 * @param {Object} request The fund, metric names, periods and mode.
 */
global.insertPortfolioGrid = function (request: Parameters<typeof sidebarApi.insertPortfolioGrid>[0]) {
  return sidebarApi.insertPortfolioGrid(request);
};

/**
 * Sidebar: builds the "Reporting coverage" sheet of a fund.
 * @param {Object} request The fund, metric names, start and end periods.
 */
global.buildCoverageSheet = function (request: Parameters<typeof sidebarApi.buildCoverageSheet>[0]) {
  return sidebarApi.buildCoverageSheet(request);
};

/** Sidebar: the selected add-in formulas become values, with a note on each frozen range. */
global.freezeSelection = function () {
  return sidebarApi.freezeSelection();
};

/** Sidebar: the frozen ranges in the selection get their formulas back, unless typed into since. */
global.thawSelection = function () {
  return sidebarApi.thawSelection();
};

/** Sidebar: the spreadsheet's snapshot tables, with their definitions. */
global.listSnapshots = function () {
  return sidebarApi.listSnapshots();
};

/** Sidebar: writes every snapshot table again with your own connection; changed values go to the Changes sheet. */
global.refreshSnapshots = function () {
  return sidebarApi.refreshSnapshots();
};
