// The add-in's public surface: every top-level function Apps Script sees is assigned here, and nothing else.
// Compiled by TypeScript (not esbuild) so the JSDoc survives into dist/Code.js, where Sheets reads it for
// autocomplete. gas-webpack-plugin declares a function only for a `global.name = …` line here (it skips
// `export const`), so each sidebar function has its line at the end (test/build/server-surface.test.ts).

import * as lists from './core/formulas/list-formulas';
import * as series from './core/formulas/metric-formulas';
import * as fundSources from './core/formulas/fund-sources';
import * as grid from './core/formulas/fund-functions';
import { runFormula } from './server/custom-functions';
import { installationProbe } from './server/installation-probes';
import { addMenu, checkInstallationFromMenu, freezeSelectionFromMenu, refreshData, showSidebar, thawSelectionFromMenu } from './server/menu';
import * as sidebar from './server/sidebar-api';
import { runScheduledSnapshotRefresh } from './server/snapshot-schedule';

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
  return runFormula(series.metricValues, metric_id, start_date, end_date, options);
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
  return runFormula(series.metricValue, metric_id, period, aggregate);
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
  return runFormula(series.metricLatest, metric_id, as_of, options);
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
  return runFormula(series.metricSource, metric_id, period);
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
  return runFormula(lists.metrics, company_id, portfolio_company_profile_id);
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
  return runFormula(lists.contactLists, company_id);
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
  return runFormula(lists.portfolioCompanies, company_id);
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
  return runFormula(lists.portfolioProperties, company_id);
};

/**
 * The property values of one portfolio company, as a person reads them: option labels, lists joined, numbers, dates and booleans as such, rich text as plain text with its line breaks.
 *
 * @param {string} portfolio_company The portfolio company's name (trimmed, any case) in the fund, or its profile id.
 * @param {string} [company_id] The fund's company id, for the company's name and the property names; the default company from settings when left out.
 * @return {any[][]} A header row, then one row per property that has a value.
 * @customfunction
 * @example =PORTFOLIO_PROPERTY_VALUES("123e4567-e89b-12d3-a456-426614174000")
 */
global.PORTFOLIO_PROPERTY_VALUES = function (portfolio_company: unknown, company_id: unknown) {
  return runFormula(lists.portfolioPropertyValues, portfolio_company, company_id);
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
  return runFormula(lists.portfolioPropertyOptions, portfolio_property_id, label);
};

/**
 * The portfolio notes of one portfolio company: name, content, creation date and id.
 *
 * @param {string} portfolio_company The portfolio company's name (trimmed, any case) in the default fund, or its profile id.
 * @return {any[][]} A header row, then one row per note.
 * @customfunction
 * @example =PORTFOLIO_NOTES("Aurora Robotics")
 */
global.PORTFOLIO_NOTES = function (portfolio_company: unknown) {
  return runFormula(lists.portfolioNotes, portfolio_company);
};

/**
 * One value of a portfolio company's metric, by the company's name and the metric's name, from the default fund.
 * A period of several values shows a number only when the name says how to combine them: "Cash (last)", "Revenue (sum)".
 * A company without the metric, with two of that name, or a period needing an aggregate shows text, which SUM skips (never an error).
 * Ranges fill grids: a column of companies against a row of periods, or against a row of metric names with one period.
 *
 * @param {string|string[][]} company The portfolio company's name (trimmed, any case), its label "Name (profile id)" where two share a name, or its profile id; or a column of them.
 * @param {string|string[][]} metric_name The metric's name (trimmed, any case), with its aggregate when a period holds several values: "Revenue (sum)", "Cash (last)"; or a row of names.
 * @param {Date|string|string[][]} period A start date or a label: "2024-03", "2024-Q1", "FY2024" or "Q3 FY2024" (fiscal years follow that company's fiscal year end month), or a row of them.
 * @param {string} [aggregate] Older form, kept for existing formulas: combines nothing by itself (name the aggregate with the metric); an error when it contradicts the name's.
 * @return {number|any[][]} The value (empty when blank, text saying why there is no number), or a grid of values for ranges.
 * @customfunction
 * @example =PORTFOLIO_VALUE("Aurora Robotics", "Monthly Recurring Revenue (sum)", "2024-Q1")
 */
global.PORTFOLIO_VALUE = function (company: unknown, metric_name: unknown, period: unknown, aggregate: unknown) {
  return runFormula(grid.portfolioValue, company, metric_name, period, aggregate);
};

/**
 * One metric across every portfolio company of a fund, by name: one row per company, one column per period, each cell
 * what PORTFOLIO_VALUE shows there (a number, empty, or text SUM skips), then a row counting the companies with a value.
 * A name no company of the fund has is an error naming the nearest names.
 *
 * @param {string} metric_name The metric's name (trimmed, any case), with its aggregate for periods longer than a company's metric: "Cash (last)" for a balance at quarter end, "Revenue (sum)" for a flow.
 * @param {Date|string|string[][]} periods A period label or date, or a row of them ("2024-Q1", "FY2024": fiscal years per company).
 * @param {string} [fund_company_id] The fund's company id; the default company from settings when left out.
 * @param {string} [aggregate] Older form, kept for existing formulas: combines nothing by itself (name the aggregate with the metric); an error when it contradicts the name's.
 * @return {any[][]} A header row (Company, the periods, Unit), one row per portfolio company ending in its metric's unit, and a last row "Companies with a value" ("31 of 33") whose Unit cell says where the rows are in different units.
 * @customfunction
 * @example =PORTFOLIO_METRIC("Cash (last)", B1:E1)
 */
global.PORTFOLIO_METRIC = function (metric_name: unknown, periods: unknown, fund_company_id: unknown, aggregate: unknown) {
  return runFormula(grid.portfolioMetric, metric_name, periods, fund_company_id, aggregate);
};

/**
 * The unit of a portfolio company's metric, by the company's name and the metric's name, from the default fund: a
 * currency code (USD, EUR), percent or number; empty where the company has no metric of that name, or two.
 * A column of companies gives a column of units; a cell reading "Companies with a value" in it gives the companies'
 * one unit, or says that a total over them adds different currencies.
 *
 * @param {string|string[][]} company The portfolio company's name, its label "Name (profile id)" or its profile id; or a column of them.
 * @param {string} metric_name The metric's name (trimmed, any case); an aggregate in it ("Cash (last)") is read off.
 * @return {string|any[][]} The unit, or a column of units for a range.
 * @customfunction
 * @example =PORTFOLIO_UNIT("Bluebird Health", "Net Burn")
 */
global.PORTFOLIO_UNIT = function (company: unknown, metric_name: unknown) {
  return runFormula(grid.portfolioUnit, company, metric_name);
};

/**
 * Who has reported: for every portfolio company and metric name, each period as "reported", "blank" (a null or empty
 * point, or none), "no such metric" or "ambiguous name" (two metrics of that name), with counts per row, per company
 * ("All metrics" rows) and per period ("All companies" rows): every company and period is counted once.
 *
 * @param {string|string[][]} metric_names A metric name, or a range of names.
 * @param {string} start_period The first period: a calendar label like "2024-01", "2024-Q1" or "2024" (its length sets the columns').
 * @param {string} end_period The last period, a label of the same length.
 * @param {string} [fund_company_id] The fund's company id; the default company from settings when left out.
 * @param {string} [aggregate] For names that name none ("Cash (last)" does): with "first" or "last" a period is reported when its first or last period of the metric has a value; otherwise every one must.
 * @return {any[][]} A header row (Company, Metric, the periods, Reported, Blank, No such metric, Ambiguous name), then the rows described above.
 * @customfunction
 * @example =PORTFOLIO_COVERAGE({"Monthly Recurring Revenue","Net Burn"}, "2024-01", "2024-06")
 */
global.PORTFOLIO_COVERAGE = function (metric_names: unknown, start_period: unknown, end_period: unknown, fund_company_id: unknown, aggregate: unknown) {
  return runFormula(grid.portfolioCoverage, metric_names, start_period, end_period, fund_company_id, aggregate);
};

/**
 * Where each value PORTFOLIO_VALUE shows came from, with the same arguments: "type: label" (the type as METRIC_SOURCE gives it, "ai_inbox (review)" for a value an AI read).
 * A period of several of the metric's values (a quarter of a monthly metric) lists each one's source, "2024-04: …; 2024-05: no value; 2024-06: …", or one when every one has a value and their sources read alike (type and label); with "(first)" or "(last)" in the name, that period's alone.
 * A company without the metric or with two of that name shows PORTFOLIO_VALUE's text; a period without a value, an empty cell.
 * Ranges fill grids as PORTFOLIO_VALUE's do, every cell of one name from one read.
 *
 * @param {string|string[][]} company The portfolio company's name (trimmed, any case), its label "Name (profile id)" where two share a name, or its profile id; or a column of them.
 * @param {string|string[][]} metric_name The metric's name (trimmed, any case), with its aggregate if the model's name cell has one: "Cash (last)"; or a row of names.
 * @param {Date|string|string[][]} period A start date or a label: "2024-03", "2024-Q1", "FY2024" or "Q3 FY2024" (fiscal years follow that company's fiscal year end month), or a row of them.
 * @return {string|any[][]} The source as text (empty when there is no value), or a grid of them for ranges.
 * @customfunction
 * @example =PORTFOLIO_SOURCE("Redwood Fintech", "Revenue (sum)", "2024-Q2")
 */
global.PORTFOLIO_SOURCE = function (company: unknown, metric_name: unknown, period: unknown) {
  return runFormula(fundSources.portfolioSource, company, metric_name, period);
};

/**
 * Used by Check this installation (Extensions menu): shows what a formula sees here. Not for models.
 *
 * @param {string} nonce The check's id.
 * @param {Date} date A date cell.
 * @return {any[][]} One row: the id, the active range, the bytes found in the cache, this run's id, the date's instant.
 * @customfunction
 */
global.INSTALLATION_PROBE = function (nonce: unknown, date: unknown) {
  return installationProbe(nonce, date);
};

/**
 * Adds the add-in's menu when the spreadsheet opens.
 * @param {GoogleAppsScript.Events.SheetsOnOpen} e The open event.
 */
global.onOpen = function (e: unknown) {
  addMenu(e);
};

/**
 * Adds the menu right after installation, before the document is reopened.
 * @param {GoogleAppsScript.Events.AddonOnInstall} e The install event.
 */
global.onInstall = function (e: unknown) {
  addMenu(e);
};

/** Menu: refreshes every add-in formula in the spreadsheet with fresh data. */
global.refreshData = refreshData;

/** Menu: the selected add-in formulas become values, with a note on each frozen range. */
global.freezeSelectionFromMenu = freezeSelectionFromMenu;

/** Menu: the frozen ranges in the selection get their formulas back. */
global.thawSelectionFromMenu = thawSelectionFromMenu;

/**
 * Time-driven trigger: refreshes the snapshots of the spreadsheet its owner scheduled, with the owner's connection.
 * @param {GoogleAppsScript.Events.TimeDriven} e The time-driven event (its triggerUid finds the schedule).
 */
global.runScheduledSnapshotRefresh = runScheduledSnapshotRefresh;

/** Menu: checks what the add-in relies on here and writes the report to a sheet. */
global.checkInstallationFromMenu = checkInstallationFromMenu;

/** Opens the sidebar (menu item). */
global.showSidebar = function () {
  showSidebar();
};

/** Opens the sidebar on the portfolio tools and builds the audit of the default fund, its progress in view (menu item). */
global.showAudit = function () {
  showSidebar('audit');
};

/** Opens the sidebar on the exporter, with the selection read (menu item). */
global.showExporter = function () {
  showSidebar('export');
};

global.getSettings = sidebar.getSettings;
global.saveSettings = sidebar.saveSettings;
global.testConnection = sidebar.testConnection;
global.listMetrics = sidebar.listMetrics;
global.latestMetricValues = sidebar.latestMetricValues;
global.createMetric = sidebar.createMetric;
global.readExportSelection = sidebar.readExportSelection;
global.previewExport = sidebar.previewExport;
global.startExport = sidebar.startExport;
global.continueExport = sidebar.continueExport;
global.cancelExport = sidebar.cancelExport;
global.resumeExport = sidebar.resumeExport;
global.findUnfinishedExport = sidebar.findUnfinishedExport;
global.refreshFormulasFor = sidebar.refreshFormulasFor;
global.activeRange = sidebar.activeRange;
global.startImport = sidebar.startImport;
global.continueImport = sidebar.continueImport;
global.cancelImport = sidebar.cancelImport;
global.resumeImport = sidebar.resumeImport;
global.listNoteTags = sidebar.listNoteTags;
global.addNoteToSelectedContacts = sidebar.addNoteToSelectedContacts;
global.insertPortfolioNotes = sidebar.insertPortfolioNotes;
global.buildAudit = sidebar.buildAudit;
global.startAuditBuild = sidebar.startAuditBuild;
global.continueAuditBuild = sidebar.continueAuditBuild;
global.cancelAuditBuild = sidebar.cancelAuditBuild;
global.resumeAuditBuild = sidebar.resumeAuditBuild;
global.startAuditPush = sidebar.startAuditPush;
global.continueAuditPush = sidebar.continueAuditPush;
global.cancelAuditPush = sidebar.cancelAuditPush;
global.resumeAuditPush = sidebar.resumeAuditPush;
global.startAuditOverwrite = sidebar.startAuditOverwrite;
global.takeServerAuditValues = sidebar.takeServerAuditValues;
global.openPushLog = sidebar.openPushLog;
global.undoLastPush = sidebar.undoLastPush;
global.continueUndo = sidebar.continueUndo;
global.cancelUndo = sidebar.cancelUndo;
global.resumeUndo = sidebar.resumeUndo;
global.listUndoablePushes = sidebar.listUndoablePushes;
global.undoPush = sidebar.undoPush;
global.findUnfinishedPortfolioJobs = sidebar.findUnfinishedPortfolioJobs;
global.getJobProgress = sidebar.getJobProgress;
global.insertMetricValues = sidebar.insertMetricValues;
global.getFormulaAccess = sidebar.getFormulaAccess;
global.setFormulaAccess = sidebar.setFormulaAccess;
global.listFundMetricNames = sidebar.listFundMetricNames;
global.insertPortfolioGrid = sidebar.insertPortfolioGrid;
global.buildCoverageSheet = sidebar.buildCoverageSheet;
global.buildProvenanceSheet = sidebar.buildProvenanceSheet;
global.insertFundModel = sidebar.insertFundModel;
global.freezeSelection = sidebar.freezeSelection;
global.thawSelection = sidebar.thawSelection;
global.listSnapshots = sidebar.listSnapshots;
global.refreshSnapshots = sidebar.refreshSnapshots;
global.getSnapshotRefreshSchedule = sidebar.getSnapshotRefreshSchedule;
global.scheduleSnapshotRefresh = sidebar.scheduleSnapshotRefresh;
global.cancelSnapshotRefresh = sidebar.cancelSnapshotRefresh;
global.checkInstallation = sidebar.checkInstallation;
global.getInstallationCheckProgress = sidebar.getInstallationCheckProgress;
// Imports: the header check the sidebar asks before starting one.
global.checkImportColumns = sidebar.checkImportColumns;
