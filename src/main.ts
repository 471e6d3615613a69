// The add-in's public surface: every top-level function Apps Script sees is assigned here, and nothing else.
// This file is compiled by TypeScript itself (not esbuild) so that the JSDoc below survives into
// dist/Code.js, where Sheets reads it for autocomplete and gas-webpack-plugin copies it onto the
// top-level declarations it generates.

import { metricValues } from './server/custom-functions';
import { addMenu, showSidebar } from './server/menu';
import { sidebarApi } from './server/sidebar-api';

// Module scope shadows Node's typing of `global`; in the bundle it is webpack's global object.
declare const global: Record<string, unknown>;

/**
 * Data points of one or several metrics, as rows of date and value, oldest first.
 * Several metrics give one wide table: a date column and one column per metric.
 *
 * @param {string|string[][]} metric_id The metric's id, or a range of metric ids.
 * @param {Date|string} [start_date] First date to include: a date cell or text like "2024-01-01".
 * @param {Date|string} [end_date] Last date to include: a date cell or text like "2024-12-31".
 * @param {string} [options] Words separated by commas: "headers" adds a header row, "exclude_blank" drops blank values, "text" returns values as exact text.
 * @return {any[][]} Rows of date and value.
 * @customfunction
 * @example =METRIC_VALUES("123e4567-e89b-12d3-a456-426614174000", "2024-01-01", "2024-12-31", "headers")
 */
global.METRIC_VALUES = function (metric_id: unknown, start_date: unknown, end_date: unknown, options: unknown) {
  return metricValues(metric_id, start_date, end_date, options);
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

/** Opens the sidebar (menu item). */
global.showSidebar = function () {
  showSidebar();
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
