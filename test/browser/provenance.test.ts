// The metric browser shows each metric's latest value with its source, in a real Chromium on the workbench.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO_IDS } from '../../emulator/demo-data';
import { sidebarFrame, useWorkbenchFreshPages } from '../support/browser';
import { ROOT } from '../support/built-bundle';
import type { RunningWorkbench } from '../support/workbench-process';

jest.setTimeout(90_000);

let workbench: RunningWorkbench;
let page: Page;

useWorkbenchFreshPages({ viewport: { width: 1280, height: 900 } }, (w, p) => {
  workbench = w;
  page = p;
});

it("lists each metric with its latest value and source, the AI inbox's marked for review, and an https link to open it", async () => {
  const frame = await sidebarFrame(page);
  await frame.click('#tab-settings');
  await frame.fill('#token', workbench.token);
  await frame.click('#settings-form button[type="submit"]');
  await frame.waitForFunction(() => /^Saved/.test(document.querySelector('#settings-status')?.textContent ?? ''));
  await frame.click('#tab-metrics');
  await frame.click('#browse-form button[type="submit"]');
  await frame.waitForSelector('.metric-latest');

  // What the line must say, from the emulator's own records.
  const state = await workbench.control.state();
  const mrr = DEMO_IDS.metrics.monthlyRecurringRevenue;
  const newest = state.data_points.filter((p) => p.metric_id === mrr && p.value).sort((a, b) => b.date.localeCompare(a.date))[0]!;
  const type = newest.source.source_type === 'ai_inbox' ? 'ai_inbox (review)' : newest.source.source_type;
  const line = frame.locator(`label[for="metric-${mrr}"] .metric-latest`);
  expect(await line.textContent()).toBe(`Latest ${newest.value} on ${newest.date} · ${type}: ${newest.source.label}${newest.source.app_url ? ' · Open' : ''}`);
  if (newest.source.app_url) expect(await line.locator('a').getAttribute('href')).toBe(newest.source.app_url);

  // Some metric's latest value came from the AI inbox: its type is marked, and the line under the list counts them.
  const reviewed = state.metrics.filter((metric) => {
    const last = state.data_points.filter((p) => p.metric_id === metric.id && p.value).sort((a, b) => b.date.localeCompare(a.date))[0];
    return last?.source.source_type === 'ai_inbox' && metric.company_id === workbench.companyId;
  });
  expect(reviewed.length).toBeGreaterThan(0); // the demo data has some, or this would prove nothing
  expect(await frame.locator('.metric-latest .source-type.review').count()).toBe(reviewed.length);
  expect(await frame.textContent('#metric-latest-status')).toContain(`${reviewed.length} latest value`);

  // Only the loaded metrics were asked for, and every series request asked for sources.
  const reads = (await workbench.control.requests()).filter((r) => r.path === '/data_points');
  expect(reads.length).toBeGreaterThan(0);
  expect(reads.every((r) => r.query.includes('include_source=true'))).toBe(true);
  mkdirSync(path.join(ROOT, 'test-artifacts'), { recursive: true });
  await (await page.$('aside'))!.screenshot({ path: path.join(ROOT, 'test-artifacts', 'metric-browser-sources.png') });
});
