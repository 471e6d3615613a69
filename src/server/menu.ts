// The add-on menu and the sidebar: what onOpen and onInstall set up.

import { ADDIN_NAME } from '../core/product';
import { refreshAllFormulas } from './refresh';

/**
 * Adds the menu. Runs in every auth mode: in AuthMode.NONE (add-on installed but not yet used
 * in this document) no property, cache or network access is allowed, and this touches none.
 */
export function addMenu(): void {
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Open sidebar', 'showSidebar')
    .addItem('Refresh data', 'refreshData')
    .addToUi();
}

export function refreshData(): void {
  const count = refreshAllFormulas();
  SpreadsheetApp.getActiveSpreadsheet().toast(
    count ? `Refreshed ${count} formula${count === 1 ? '' : 's'} with fresh data.` : 'No add-in formulas to refresh in this spreadsheet.',
    ADDIN_NAME,
  );
}

export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(ADDIN_NAME);
  SpreadsheetApp.getUi().showSidebar(html);
}
