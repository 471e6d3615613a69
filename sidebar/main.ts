// The sidebar: tabs over the settings and the metric browser.

import './styles.css';
import { byId, el } from './dom';
import { server } from './server';
import { mountMetrics } from './metrics-panel';
import { mountSettings } from './settings-panel';
import { mountExport } from './export-panel';
import { mountPortfolio } from './portfolio-panel';

/** Tabs as the WAI-ARIA pattern describes: arrow keys move between them. */
function mountTabs(onShow: (panelId: string) => void): (panelId: string) => void {
  const tabs = Array.from(document.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
  function select(tab: HTMLButtonElement): void {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      byId<HTMLElement>(other.getAttribute('aria-controls') ?? '').hidden = !selected;
    }
    onShow(tab.getAttribute('aria-controls') ?? '');
  }
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (event) => {
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      const next = tabs[(i + step + tabs.length) % tabs.length]!;
      select(next);
      next.focus();
    });
  });
  return (panelId) => {
    const tab = tabs.find((t) => t.getAttribute('aria-controls') === panelId);
    if (tab) select(tab);
  };
}

/** Settles once `panel` has no work under way: while it has, busy() keeps its buttons disabled, and a click on them does nothing. */
function whenIdle(panel: HTMLElement): Promise<void> {
  if (!panel.hasAttribute('data-busy')) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (panel.hasAttribute('data-busy')) return;
      observer.disconnect();
      resolve();
    });
    observer.observe(panel, { attributes: true, attributeFilter: ['data-busy'] });
  });
}

let exporter: { show(): Promise<void> } | undefined;
let portfolio: { show(): void } | undefined;
const showPanel = mountTabs((panelId) => {
  unfinishedRender?.(panelId);
  // These panels load the default company's metrics and tags, so they wait for the saved settings
  // (a tab opened by a menu item is shown before they have arrived).
  if (panelId === 'panel-export') void settings.loaded.then(() => exporter?.show());
  if (panelId === 'panel-portfolio') void settings.loaded.then(() => portfolio?.show());
});
const settings = mountSettings();
const metrics = mountMetrics(() => settings.companyId(), settings.loaded);
exporter = mountExport(metrics);
portfolio = mountPortfolio(() => metrics.companyId(), settings.loaded);
settings.onChange((s) => metrics.setCompany(s.defaultCompanyId ?? ''));

// A menu item may open the sidebar on a given tab (see showSidebar on the server).
window.addEventListener('addin:open-tab', (event) => {
  const tab = (event as CustomEvent<string>).detail;
  if (tab === 'export') {
    showPanel('panel-export');
    // Reading the selection waits for the tab's first load, whose status line would otherwise replace
    // what the selection read.
    void settings.loaded.then(async () => {
      await exporter?.show();
      await whenIdle(byId<HTMLElement>('panel-export'));
      byId<HTMLButtonElement>('export-use-selection').click();
    });
  }
  if (tab === 'portfolio') showPanel('panel-portfolio');
  // "Build portfolio audit" builds, as it says: the Portfolio tab, then its Build once the tab's first load is over.
  if (tab === 'audit') {
    showPanel('panel-portfolio');
    void settings.loaded.then(async () => {
      await whenIdle(byId<HTMLElement>('panel-portfolio'));
      byId<HTMLButtonElement>('audit-build').click();
    });
  }
});

/**
 * Jobs left unfinished (an export, an audit push, an import or build), named above whichever tab the sidebar
 * opens, with a button to the tab that offers Resume; a job's line goes once its own tab is shown.
 */
async function offerUnfinishedJobs(): Promise<void> {
  await settings.loaded;
  const box = byId<HTMLElement>('unfinished-jobs');
  const [exportJob, portfolioJobs] = await Promise.all([
    server.findUnfinishedExport().catch(() => null),
    server.findUnfinishedPortfolioJobs().catch(() => null),
  ]);
  const lines: Array<{ panel: string; text: string; tab: string }> = [];
  if (exportJob?.ok && exportJob.value) lines.push({ panel: 'panel-export', tab: 'Export', text: 'An export was left unfinished.' });
  if (portfolioJobs?.ok) {
    const { pushes, imports, builds, undos } = portfolioJobs.value;
    if (pushes.length)
      lines.push({
        panel: 'panel-portfolio',
        tab: 'Portfolio',
        text: pushes.length === 1 ? 'An audit push was left unfinished.' : `${pushes.length} audit pushes were left unfinished.`,
      });
    if (imports.length)
      lines.push({
        panel: 'panel-portfolio',
        tab: 'Portfolio',
        text: imports.length === 1 ? 'An import was left unfinished.' : `${imports.length} imports were left unfinished.`,
      });
    if (builds.length) lines.push({ panel: 'panel-portfolio', tab: 'Portfolio', text: 'An audit build was left unfinished.' });
    if (undos.length) lines.push({ panel: 'panel-portfolio', tab: 'Portfolio', text: 'An undo of a push was left unfinished.' });
  }
  const render = (): void => {
    const shown = document.querySelector('[role="tab"][aria-selected="true"]')?.getAttribute('aria-controls');
    const left = lines.filter((line) => line.panel !== shown && !seen.has(line.panel));
    box.replaceChildren(
      ...left.map((line) => {
        const open = el('button', { type: 'button' }, `Open ${line.tab} to resume`);
        open.addEventListener('click', () => showPanel(line.panel));
        return el('p', {}, `${line.text} `, open);
      }),
    );
    box.hidden = left.length === 0;
  };
  const seen = new Set<string>();
  // Every tab shown (a click, the arrow keys, a menu item) goes through mountTabs' onShow, which calls this.
  unfinishedRender = (panelId) => {
    seen.add(panelId);
    render();
  };
  render();
}

let unfinishedRender: ((panelId: string) => void) | undefined;
void offerUnfinishedJobs();
