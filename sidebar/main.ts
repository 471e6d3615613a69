// The sidebar: tabs over the settings and the metric browser.

import './styles.css';
import { byId } from './dom';
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

let exporter: { show(): void } | undefined;
let portfolio: { show(): void } | undefined;
const showPanel = mountTabs((panelId) => {
  if (panelId === 'panel-export') exporter?.show();
  if (panelId === 'panel-portfolio') portfolio?.show();
});
const settings = mountSettings();
const metrics = mountMetrics(() => settings.companyId());
exporter = mountExport(metrics);
portfolio = mountPortfolio(() => metrics.companyId());
settings.onChange((s) => metrics.setCompany(s.defaultCompanyId ?? ''));

// A menu item may open the sidebar on a given tab (see showSidebar on the server).
window.addEventListener('addin:open-tab', (event) => {
  const tab = (event as CustomEvent<string>).detail;
  if (tab === 'export') {
    showPanel('panel-export');
    byId<HTMLButtonElement>('export-use-selection').click();
  }
  if (tab === 'portfolio') showPanel('panel-portfolio');
});
