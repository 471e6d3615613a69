// The add-on menu and the sidebar: what onOpen and onInstall set up.

import { ADDIN_NAME } from '../core/product';
import { countOf } from '../shared/words';
import { SCOPE } from '../core/settings/permissions';
import { missingPermissionSentence } from '../gas/granted-scopes';
import { freezeSelection, thawSelection } from './freeze';
import { checkInstallationSummary } from './installation-probes';
import { refreshAllFormulasWithChanges } from './refresh';

/** The feature that needs "Display and run third-party web content in prompts and sidebars" (script.container.ui). */
const UI_FEATURE = `${ADDIN_NAME}'s menu and sidebar`;

/**
 * Adds the menu. Runs in every auth mode: in AuthMode.NONE (add-on installed but not yet used
 * in this document) no property, cache or network access is allowed, and this touches none. In another mode a
 * person who declined the sidebar permission gets a toast saying which to grant (granular consent), not a failure.
 */
export function addMenu(event?: unknown): void {
  const authMode = (event as { authMode?: unknown } | undefined)?.authMode;
  if (authMode !== undefined && authMode !== ScriptApp.AuthMode.NONE) {
    const missing = missingPermissionSentence(UI_FEATURE, SCOPE.containerUi);
    if (missing) {
      toast(missing);
      return;
    }
  }
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Open sidebar', 'showSidebar')
    .addItem('Refresh data', 'refreshData')
    .addItem('Export selection', 'showExporter')
    .addItem('Build portfolio audit', 'showAudit')
    .addSeparator()
    .addItem('Freeze selection (values only)', 'freezeSelectionFromMenu')
    .addItem('Make selection live', 'thawSelectionFromMenu')
    .addSeparator()
    .addItem('Check this installation', 'checkInstallationFromMenu')
    .addToUi();
}

/**
 * `timeoutSeconds`: the reference's "if null, the toast defaults to 5 seconds; if negative, the toast remains until
 * dismissed"; one toast shows at a time, the next replacing it.
 */
function toast(message: string, timeoutSeconds?: number): void {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  // No undefined passed for the optional number: Apps Script matches a method by its arguments.
  if (timeoutSeconds === undefined) spreadsheet.toast(message, ADDIN_NAME);
  else spreadsheet.toast(message, ADDIN_NAME, timeoutSeconds);
}

/** A stage of work still under way: it stays until the next toast replaces it, however long the stage takes. */
const UNTIL_REPLACED = -1;

export function refreshData(): void {
  // A menu item has no page to show progress in: each stage is a toast from the click on, the outcome the last.
  const { formulas: count, changes } = refreshAllFormulasWithChanges((stage) => toast(stage, UNTIL_REPLACED));
  const changed = changes ? ` ${countOf(changes, 'cached value')} changed: see the "Changes" sheet.` : '';
  toast((count ? `Refreshed ${countOf(count, 'formula')} with fresh data.` : 'No add-in formulas to refresh in this spreadsheet.') + changed);
}

/** The menu's Freeze: the report's sentence in a toast (a sentence, as a refusal is one too). */
export function freezeSelectionFromMenu(): void {
  toast(freezeSelection().message);
}

/** The menu's Make live: a range a person typed into is refused with the cells named, in the toast. */
export function thawSelectionFromMenu(): void {
  toast(thawSelection().message);
}

/** The menu's Check this installation: the summary in a toast, the report on its sheet. */
export function checkInstallationFromMenu(): void {
  toast(checkInstallationSummary());
}

/** Opens the sidebar, on a given tab when a menu item asks for one. */
export function showSidebar(tab?: 'export' | 'portfolio' | 'audit'): void {
  const missing = missingPermissionSentence(UI_FEATURE, SCOPE.containerUi);
  if (missing) {
    toast(missing);
    return;
  }
  const html = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(ADDIN_NAME);
  // The page's own script has run by the time this appended one does; the tab name is a constant.
  if (tab) html.append(`<script>window.dispatchEvent(new CustomEvent('addin:open-tab', { detail: '${tab}' }));</script>`);
  SpreadsheetApp.getUi().showSidebar(html);
}
