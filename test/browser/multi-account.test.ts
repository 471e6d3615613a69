// google.script.run failing with the multi-account signature (issuetracker.google.com/issues/69270374): every tab
// shows the known way out, never the raw message. The failure is made by answering one /rpc call in the browser
// exactly as the workbench answers a server call that failed (Playwright's page.route): no test hook in the
// add-in, the workbench or the runtime, and the page's real google.script.run shim hands it to the failure handler.

import type { Frame, Page } from 'playwright-core';
import { sidebarFrame, useWorkbenchFreshPages } from '../support/browser';
import type { RunningWorkbench } from '../support/workbench-process';
import { MULTI_ACCOUNT_ADVICE } from '../../sidebar/server-failure';

jest.setTimeout(90_000);

let workbench: RunningWorkbench;
let page: Page;

// A blank page: each test routes its failing call before it opens the workbench.
useWorkbenchFreshPages({ viewport: { width: 1280, height: 900 }, goto: false }, (w, p) => {
  workbench = w;
  page = p;
});

/** Makes google.script.run's call of `name` fail with `message`, as Google's front end fails it. */
async function failCall(name: string, message: string): Promise<void> {
  await page.route(`**/rpc/${name}`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: false, error: message }) }),
  );
}

async function errorStatus(frame: Frame, selector: string): Promise<string> {
  await frame.waitForFunction((s) => {
    const el = document.querySelector(s);
    return el && /\berror\b/.test(el.className) && el.textContent;
  }, selector);
  return (await frame.textContent(selector)) ?? '';
}

it('Settings: a storage PERMISSION_DENIED while loading gives the way out', async () => {
  await failCall('getSettings', "We're sorry, a server error occurred while reading from storage. Error code PERMISSION_DENIED.");
  await page.goto(workbench.url);
  const frame = await sidebarFrame(page);
  await frame.click('#tab-settings');
  const status = await errorStatus(frame, '#settings-status');
  expect(status).toBe(MULTI_ACCOUNT_ADVICE);
  expect(status).not.toContain('PERMISSION_DENIED');
});

it('Metrics: "Authorization is required" on Load gives the way out, and other calls still work', async () => {
  await failCall('listMetrics', 'ScriptError: Authorization is required to perform that action.');
  await page.goto(workbench.url);
  const frame = await sidebarFrame(page);
  // getSettings was not made to fail: the page loaded the saved settings as usual.
  await frame.waitForFunction(() => (document.querySelector<HTMLInputElement>('#browse-company')?.value ?? '') !== '');
  await frame.click('#browse-form button[type="submit"]');
  const status = await errorStatus(frame, '#metrics-status');
  expect(status).toBe(MULTI_ACCOUNT_ADVICE);
  expect(status).not.toMatch(/Authorization is required/);
});
