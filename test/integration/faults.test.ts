// Faults the real network has: a storm of 429s, bursts of 5xx, dropped connections, answers slower
// than UrlFetchApp waits. Every run ends with a correct result or a clear sentence, and nothing is
// lost or doubled on the platform.

import { DEMO_IDS } from '../../emulator/demo-data';
import { CustomFunctionError, type GasRuntime } from '../../gas-runtime';
import type { ExportHandle } from '../../src/shared/rpc';
import { driveExport, ok, useStack, type Stack } from '../support/stack';
import { editDemoHeadquarters } from '../support/audit-edits';

let stack: Stack;
useStack((started) => (stack = started));

async function series(metricId: string): Promise<Array<[string, number | null]>> {
  const state = await stack.emulator.control.state();
  return state.data_points
    .filter((p) => p.metric_id === metricId)
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((p) => [p.date, p.value === null ? null : Number(p.value)]);
}

function day(cell: unknown): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(cell as Date);
}

describe('custom functions', () => {
  it('retry a read whose answer is slower than UrlFetchApp waits, and still answer exactly', async () => {
    const rt = stack.runtime({ fetchTimeoutMs: 1500 });
    await stack.emulator.control.faults({ slowNext: { count: 1, delayMs: 2500 } });
    const rows = rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.monthlyRecurringRevenue]) as unknown[][];
    expect(rows.map((r) => [day(r[0]), r[1] === '' ? null : r[1]])).toEqual(await series(DEMO_IDS.metrics.monthlyRecurringRevenue));
  });

  it('end a storm of 429s with the time to try again, not a hang or a partial table', async () => {
    await stack.emulator.control.faults({ next429: 1000 });
    const rt = stack.runtime();
    let message = '';
    try {
      rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.dailyActiveUsers]);
    } catch (error) {
      expect(error).toBeInstanceOf(CustomFunctionError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^The API's rate limit was reached\. Try again in \d+ seconds\.$/);
    // Within the 30-second limit of a custom function, with backoff: a handful of tries, not a flood.
    expect((await stack.takeRequests()).length).toBeLessThanOrEqual(6);
  });

  it('survive bursts of 5xx and dropped connections on every page of a long series', async () => {
    await stack.emulator.control.faults({ failRate: 0.25, dropRate: 0.15, seed: 11 });
    const rt = stack.runtime();
    const rows = rt.runCustomFunction('METRIC_VALUES', [DEMO_IDS.metrics.dailyActiveUsers]) as unknown[][];
    expect(rows.map((r) => [day(r[0]), r[1] === '' ? null : r[1]])).toEqual(await series(DEMO_IDS.metrics.dailyActiveUsers));
  });
});

describe('the exporter', () => {
  it('says when to try again if even listing the metrics is refused by a storm of 429s', async () => {
    await stack.emulator.control.faults({ next429: 1000 });
    const rt = stack.runtime();
    rt.spreadsheet
      .getActiveSheet()
      .getRange('A1:B2')
      .setValues([
        ['Date', 'Value'],
        ['2024-01-01', '1'],
      ]);
    const result = rt.callServer('startExport', [
      {
        companyId: DEMO_IDS.fund,
        range: 'Sheet1!A1:B2',
        spec: {
          layout: 'long',
          metricId: DEMO_IDS.metrics.dailyActiveUsers,
          hasHeaderRow: true,
          skipBlanks: true,
          duplicates: 'reject',
          offPeriod: 'reject',
          onlyChanged: false,
        },
        writeStatus: false,
      },
    ]);
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^The API's rate limit was reached\. Try again in \d+ seconds\.$/) });
  });

  async function exportRows(
    rt: GasRuntime,
    metricId: string,
    count: number,
    faults: Parameters<Stack['emulator']['control']['faults']>[0],
  ): Promise<ExportHandle> {
    const sheet = rt.spreadsheet.getActiveSheet();
    const rows = [
      ['Date', 'Value'],
      ...Array.from({ length: count }, (_, i) => [new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10), String(i % 97)]),
    ];
    sheet.getRange(1, 1, rows.length, 2).setValues(rows);
    const handle = ok<ExportHandle>(
      rt.callServer('startExport', [
        {
          companyId: DEMO_IDS.fund,
          range: `Sheet1!A1:B${rows.length}`,
          spec: { layout: 'long', metricId, hasHeaderRow: true, skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: false },
          writeStatus: false,
        },
      ]),
    );
    // The faults start once the export is prepared, so that they hit the sending.
    await stack.emulator.control.faults(faults);
    return driveExport(stack, rt, handle);
  }

  it('stores exactly the sheet through drops, 5xx bursts, slow answers and a 429 storm: nothing lost, nothing doubled', async () => {
    const [metric] = (await stack.emulator.control.fixtures({ metrics: [{ company_id: DEMO_IDS.fund, name: 'Faulty', frequency: 'daily', unit: 'number' }] }))
      .metrics;
    const rt = stack.runtime({ fetchTimeoutMs: 1500 });
    const done = await exportRows(rt, metric!.id, 700, { failRate: 0.2, dropRate: 0.1, seed: 5, next429: 6, slowNext: { count: 2, delayMs: 2500 } });
    expect(done.progress.status).toBe('done');
    expect(done.report!.totals).toMatchObject({ created: 700, failed: 0, pending: 0 });
    const stored = await series(metric!.id);
    expect(stored).toHaveLength(700);
    expect(stored).toEqual(Array.from({ length: 700 }, (_, i) => [new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10), i % 97]));
  });
});

describe('the audit push', () => {
  it('stores exactly the edited cells through a 429 storm, 5xx bursts and drops: nothing lost, nothing doubled', async () => {
    const rt = stack.runtime();
    const { profiles, property: headquarters } = await editDemoHeadquarters(stack, rt, (profile) => `City of ${profile.name}`);

    let handle = ok<{ pushId: string; report: unknown; progress: { status: string; waitingForRateLimitMs?: number } }>(rt.callServer('startAuditPush', [null]));
    await stack.emulator.control.faults({ next429: 5, failRate: 0.2, dropRate: 0.1, seed: 3 });
    for (let step = 0; !handle.report && step < 40; step++) {
      const wait = handle.progress.waitingForRateLimitMs;
      if (wait) {
        rt.clock.advance(wait);
        await stack.emulator.control.advanceClock(wait);
      }
      handle = ok(rt.callServer('continueAuditPush', [handle.pushId]));
    }
    expect(handle.progress.status).toBe('done');
    const after = await stack.emulator.control.state();
    for (const profile of profiles) {
      const stored = after.portfolio_property_values.filter(
        (v) => v.portfolio_company_profile_id === profile.id && v.portfolio_property_id === headquarters.id,
      );
      expect(stored.map((v) => v.value)).toEqual([`City of ${profile.name}`]);
    }
  });
});
