// The sidebar: tabs over the settings and the metric browser.

import './styles.css';
import { byId } from './dom';
import { mountMetrics } from './metrics-panel';
import { mountSettings } from './settings-panel';

/** Tabs as the WAI-ARIA pattern describes: arrow keys move between them. */
function mountTabs(): void {
  const tabs = Array.from(document.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
  function select(tab: HTMLButtonElement): void {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      byId<HTMLElement>(other.getAttribute('aria-controls') ?? '').hidden = !selected;
    }
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
}

mountTabs();
const settings = mountSettings();
const metrics = mountMetrics(() => settings.companyId());
settings.onChange((s) => metrics.setCompany(s.defaultCompanyId ?? ''));
