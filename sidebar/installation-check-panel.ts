// Settings › Check this installation: runs the check (docs/platform.md) and lists each check's status and meaning,
// line by line as the server publishes them (the probe alone may wait a minute), and ends on the tab's status line.

import { busy, byId, el, say } from './dom';
import { awaitStep } from './job-runner';
import type { Outcome, Tone } from './outcome';
import { server } from './server';
import type { InstallationCheck } from '../src/core/settings/installation-verdicts';
import type { InstallationCheckProgress } from '../src/shared/rpc';

const STATUS_WORD = { pass: 'Pass', degraded: 'Degraded', fail: 'Fail' } as const;

/** A version 4 UUID (serve accepts only those as ids); crypto.randomUUID needs a secure context, getRandomValues does not. */
function newProgressId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `showOnTab`: the Settings tab's own status line, which must not keep saying an earlier "Saved." once a check ends. */
export function mountInstallationCheck(showOnTab: (line: string, tone: Tone | 'info') => void = () => undefined): void {
  const section = byId<HTMLElement>('installation-check');
  const list = byId<HTMLUListElement>('installation-check-list');
  const status = byId<HTMLElement>('installation-check-status');

  function show(checks: readonly InstallationCheck[]): void {
    list.replaceChildren(
      ...checks.map((check) =>
        el(
          'li',
          { class: `check ${check.status}`, 'data-check': check.name, 'data-status': check.status },
          el('strong', {}, `${STATUS_WORD[check.status]}: ${check.name}`),
          el('br'),
          check.detail,
        ),
      ),
    );
  }

  function showProgress(progress: InstallationCheckProgress): void {
    show(progress.done);
    const now = progress.running ? `now: ${progress.running}` : 'writing the report';
    say(status, `Checking this installation: ${progress.done.length} lines so far, ${now}…`);
  }

  byId<HTMLButtonElement>('installation-check-run').addEventListener('click', () => {
    const started = 'Checking this installation (up to a minute)…';
    showOnTab(started, 'info');
    list.replaceChildren();
    const progressId = newProgressId();
    let ended: Outcome = { line: 'The installation check did not answer: run it again.', tone: 'error' };
    void busy(section, status, started, async (): Promise<Outcome> => {
      const read = async () => {
        const answer = await server.getInstallationCheckProgress(progressId);
        return answer.ok ? answer.value : null;
      };
      const result = await awaitStep(server.checkInstallation(progressId), read, showProgress);
      if (!result.ok) return (ended = { line: result.error, tone: 'error' });
      show(result.value.checks);
      const passed = result.value.checks.every((check) => check.status === 'pass');
      return (ended = { line: `${result.value.summary} The report is also on the "${result.value.sheetName}" sheet.`, tone: passed ? 'success' : 'error' });
    }).then(() => showOnTab(ended.line, ended.tone));
  });
}
