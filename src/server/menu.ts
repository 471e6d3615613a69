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
    .addItem('Export selection', 'showExporter')
    .addItem('Build portfolio audit', 'showAudit')
    .addToUi();
}

export function refreshData(): void {
  const count = refreshAllFormulas();
  SpreadsheetApp.getActiveSpreadsheet().toast(
    count ? `Refreshed ${count} formula${count === 1 ? '' : 's'} with fresh data.` : 'No add-in formulas to refresh in this spreadsheet.',
    ADDIN_NAME,
  );
}

/** Opens the sidebar, on a given tab when a menu item asks for one. */
export function showSidebar(tab?: 'export' | 'portfolio'): void {
  const html = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(ADDIN_NAME);
  // The page's own script has run by the time this appended one does; the tab name is a constant.
  if (tab) html.append(`<script>window.dispatchEvent(new CustomEvent('addin:open-tab', { detail: '${tab}' }));</script>`);
  SpreadsheetApp.getUi().showSidebar(html);
}
