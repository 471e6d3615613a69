// Long jobs stay in view and out of the way: a running export's bar, estimate and Cancel stay in view however
// far the tab scrolls, another tab works while it runs, and a job left unfinished is offered on whichever tab
// the sidebar opens.

import { pasteAndSelect, useWorkbenchPage } from '../support/browser';

jest.setTimeout(90_000);

// Short, so the Export tab's form alone is taller than the sidebar and the tab scrolls.
const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 520 });

const ROWS = 3_000;

it('keeps a running export in view, lets another tab work meanwhile, and offers it unfinished on any tab', async () => {
  const { control, companyId } = session.workbench;
  const created = await control.fixtures({ metrics: [{ company_id: companyId, name: 'Long job in view', frequency: 'daily', unit: 'number' }] });
  const id = created.metrics[0]!.id;
  const start = Date.UTC(2015, 0, 1);
  const lines = [['Day', id].join('\t'), ...Array.from({ length: ROWS }, (_, i) => `${new Date(start + i * 86_400_000).toISOString().slice(0, 10)}\t${i}`)];
  await pasteAndSelect(session.page, lines.join('\n'), `A1:B${ROWS + 1}`);

  let frame = await session.sidebar();
  await frame.click('#tab-export');
  await frame.click('#export-use-selection');
  await frame.waitForFunction(() => /(success|error|warning|partial)/.test(document.querySelector('#export-status')?.className ?? ''));
  await frame.uncheck('#export-status-column');
  // Every request held long enough that the job outlasts what the test looks at.
  await control.faults({ latencyMs: 600 });
  await frame.click('#export-form button[type="submit"]');
  await frame.waitForSelector('.progress.running');
  await frame.waitForFunction(() => / of 3,000 · .*about .+ left$/.test(document.querySelector('.progress-text')?.textContent ?? ''));

  // Scrolled to the top of the tab and to its bottom: the bar and its Cancel are on screen both times.
  const inView = (scrollTop: number) =>
    frame.evaluate((top) => {
      window.scrollTo(0, top);
      const box = document.querySelector('.progress.running')!.getBoundingClientRect();
      const cancel = document.querySelector('.progress button.cancel')!.getBoundingClientRect();
      return {
        scrolls: document.documentElement.scrollHeight > window.innerHeight,
        shown: box.top >= 0 && cancel.bottom <= window.innerHeight && cancel.height > 0,
      };
    }, scrollTop);
  expect(await inView(0)).toEqual({ scrolls: true, shown: true });
  expect(await inView(100_000)).toEqual({ scrolls: true, shown: true });

  // Another tab answers while the export runs.
  await frame.click('#tab-metrics');
  await frame.click('#browse-form button[type="submit"]');
  await frame.waitForFunction(() => /(success|error)/.test(document.querySelector('#metrics-status')?.className ?? ''));
  expect(await frame.getAttribute('#metrics-status', 'class')).toBe('status success');
  expect(await frame.$('.progress.running')).not.toBeNull();

  await frame.click('#tab-export');
  await frame.click('.progress button.cancel');
  await frame.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Cancelled: what was not sent can be resumed.');
  expect(await frame.$('.progress.running')).toBeNull();
  await control.faults({ reset: true });

  // Reopened on its first tab: the unfinished export is named there, and its button opens the Export tab's Resume.
  await session.page.reload({ waitUntil: 'networkidle' });
  frame = await session.sidebar();
  await frame.waitForSelector('#unfinished-jobs:not([hidden])');
  expect(await frame.textContent('#unfinished-jobs')).toBe('An export was left unfinished. Open Export to resume');
  await frame.click('#unfinished-jobs button');
  await frame.waitForSelector('#export-resume button');
  expect(await frame.isHidden('#unfinished-jobs')).toBe(true);
});
