// A large export in the workbench, as a reviewer found it: the bar must move while the first step is still
// running (the page reads getJobProgress beside it), and Cancel must stop the export within one wave.
// The API answers only when the test releases its requests, one wave at a time: what the test sees
// happens in that order whatever the machine's load, and no step can run past what the test expects.

import { pasteAndSelect, useWorkbenchPage } from '../support/browser';
import type { LoggedRequest } from '../../emulator/request-log';

jest.setTimeout(40_000);

const session = useWorkbenchPage(['--preset-token'], { width: 1280, height: 1000 });

// A reviewer found the cancel ignored on 12,000 rows because the workbench ran one execution at a time, not
// because of the size. What the size must cross: the sheet's first 1,000 rows (the grid grows), and the
// two waves that can be sent before the cancel lands (each after its compare read: 1 PUT then 9, then 10,
// of 50 values each: 1,000 values), so that a third wave is left for the cancel to stop: 1,100 rows.
const ROWS = 1_100;
const VALUES_PER_PUT = 50;
const METRICS = 1;
const VALUES = ROWS * METRICS;

/** Every API request held until the test releases it. */
const HELD_MS = 600_000;

/** Values a logged PUT carried. */
const pointsIn = (request: LoggedRequest): number => ((request.body as { data_points?: unknown[] } | undefined)?.data_points ?? []).length;

it('moves the bar while the first step runs, and Cancel stops a 1,100-row export within one wave', async () => {
  const { control, companyId } = session.workbench;
  const created = await control.fixtures({
    metrics: Array.from({ length: METRICS }, (_, i) => ({ company_id: companyId, name: `Large export ${i}`, frequency: 'daily', unit: 'number' })),
  });
  const ids = created.metrics.map((metric) => metric.id);
  // 12,000 days of one metric, wide (the header names the metric by id).
  const start = Date.UTC(2015, 0, 1);
  const lines = [
    ['Day', ...ids].join('\t'),
    ...Array.from({ length: ROWS }, (_, i) =>
      [new Date(start + i * 86_400_000).toISOString().slice(0, 10), ...ids.map((_, m) => String(i * 10 + m))].join('\t'),
    ),
  ];
  // Loaded until the network is quiet (pasteAndSelect): the default company's metrics name the wide header.
  await pasteAndSelect(session.page, lines.join('\n'), `A1:B${ROWS + 1}`);

  const frame = await session.sidebar();
  await frame.click('#tab-export');
  await frame.click('#export-use-selection');
  await frame.waitForFunction(() => /(success|error|warning|partial)/.test(document.querySelector('#export-status')?.className ?? ''));
  expect(await frame.isChecked('#layout-wide')).toBe(true);
  await frame.uncheck('#export-status-column');

  // Which continueExport calls the page has had answered: the bar may move before the first answer only
  // if the page read the step's progress while it ran.
  let continuesAnswered = 0;
  session.page.on('requestfinished', (request) => {
    if (request.url().endsWith('/rpc/continueExport')) continuesAnswered++;
  });
  // Every API request held until released: the first step's waves (each a compare read, then one PUT per metric, then the rest it read)
  // are answered when the test says so.
  await control.faults({ latencyMs: HELD_MS });
  await control.clearRequests();
  let released = 0;
  /**
   * Releases held requests until `puts` PUTs are answered. Requests are logged once answered; while some
   * released ones are not logged yet, or fewer PUTs are answered, the wave under way is not whole, so what
   * is held belongs to it: the next wave starts only once this one is answered, and is never released here.
   */
  const answerPuts = async (puts: number): Promise<void> => {
    for (;;) {
      const log = await control.requests();
      if (log.length >= released && log.filter((request) => request.method === 'PUT').length >= puts) return;
      if (log.length >= released) released += await control.release();
      await frame.waitForTimeout(20);
    }
  };
  const readBar = () =>
    frame.$eval('.progress progress', (element) => ({ value: (element as HTMLProgressElement).value, max: (element as HTMLProgressElement).max }));
  /** Waits for the bar to pass `value`, as a progress read (the page's, about once a second) shows it. */
  const barPast = async (value: number): Promise<number> => {
    await frame.waitForFunction((least) => ((document.querySelector('.progress progress') as HTMLProgressElement | null)?.value ?? 0) > least, value);
    return (await readBar()).value;
  };

  try {
    await frame.click('#export-form button[type="submit"]');
    const seenDuringFirstStep: number[] = [];
    await answerPuts(1);
    seenDuringFirstStep.push(await barPast(0));
    // The rest of the first wave, whose compare read covered it: then the second wave's read is held.
    await answerPuts(10);
    // PUTs go one at a time, so a progress read may land after the 9th: wait for the bar to pass the 9th's value
    // (the 11th is held, so it cannot pass the 10th's).
    seenDuringFirstStep.push(await barPast(9 * VALUES_PER_PUT));
    // No continueExport answered yet: both values were put there by progress reads while the step ran.
    expect(continuesAnswered).toBe(0);
    expect(seenDuringFirstStep).toEqual([VALUES_PER_PUT, 10 * VALUES_PER_PUT]);
    expect((await readBar()).max).toBe(VALUES);

    const cancelAnswered = session.page.waitForResponse((response) => response.url().endsWith('/rpc/cancelExport'));
    await frame.click('.progress button.cancel');
    await cancelAnswered;
    const putsAtCancel = (await control.requests()).filter((request) => request.method === 'PUT');
    // From now on the API answers at once: a step that ignored the cancel would send every wave left.
    await control.faults({ reset: true });
    await control.release();
    await frame.waitForFunction(() => document.querySelector('.progress-text')?.textContent === 'Cancelled: what was not sent can be resumed.');

    const puts = (await control.requests()).filter((request) => request.method === 'PUT');
    // Once the cancel is set no wave starts: at most the one under way (10 PUTs) is answered after it.
    expect(puts.length - putsAtCancel.length).toBeLessThanOrEqual(10);
  } finally {
    await control.faults({ reset: true });
    await control.release();
  }
  const puts = (await control.requests()).filter((request) => request.method === 'PUT');
  const confirmed = puts.filter((request) => request.status < 300).reduce((sum, request) => sum + pointsIn(request), 0);
  expect(confirmed).toBeLessThan(VALUES);
  const left = VALUES - confirmed;
  expect(await frame.textContent('#export-results > .status')).toBe(
    `1,100 values read (1,100 rows × 1 metric column): ${confirmed.toLocaleString('en-US')} created, ${left.toLocaleString('en-US')} not sent (export cancelled).`,
  );
  expect(await frame.textContent('#export-resume .hint')).toBe(
    `The export of Sheet1!A1:B${ROWS + 1} stopped with ${confirmed} of ${VALUES} done. Resuming sends only what was not confirmed.`,
  );
  // The emulator holds exactly what the report calls written.
  expect((await control.state()).data_points.filter((point) => ids.includes(point.metric_id))).toHaveLength(confirmed);
});
