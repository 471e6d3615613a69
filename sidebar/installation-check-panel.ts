// Settings › Check this installation: runs the check (docs/platform.md) and lists each check's status and meaning.

import { busy, byId, el } from './dom';
import type { Outcome } from './outcome';
import { server } from './server';
import type { InstallationReport } from '../src/shared/rpc';

const STATUS_WORD = { pass: 'Pass', degraded: 'Degraded', fail: 'Fail' } as const;

export function mountInstallationCheck(): void {
  const section = byId<HTMLElement>('installation-check');
  const list = byId<HTMLUListElement>('installation-check-list');
  const status = byId<HTMLElement>('installation-check-status');

  function show(report: InstallationReport): void {
    list.replaceChildren(
      ...report.checks.map((check) =>
        el('li', { class: `check ${check.status}`, 'data-check': check.name, 'data-status': check.status }, el('strong', {}, `${STATUS_WORD[check.status]}: ${check.name}`), el('br'), check.detail),
      ),
    );
  }

  byId<HTMLButtonElement>('installation-check-run').addEventListener('click', () => {
    void busy(section, status, 'Checking this installation (up to a minute)…', async (): Promise<Outcome> => {
      const result = await server.checkInstallation();
      if (!result.ok) return { line: result.error, tone: 'error' };
      show(result.value);
      const passed = result.value.checks.every((check) => check.status === 'pass');
      return { line: `${result.value.summary} The report is also on the "${result.value.sheetName}" sheet.`, tone: passed ? 'success' : 'error' };
    });
  });
}
