// The README's first screen promises a number: a formula with a demo metric's id and the value the cell
// shows. This fails when the demo data moves away from what the README prints (a new seed, another id).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDemoState, DEMO_IDS, DEMO_TOKEN } from '../../emulator/demo-data';
import { ROOT } from '../support/built-bundle';
import { readmeFirstScreen, readmePromise } from '../support/readme';

it('prints a demo metric id, a period and the value the demo data holds for it', () => {
  const promise = readmePromise();
  const state = buildDemoState();
  const metric = state.metrics.find((m) => m.id === promise.metricId);
  expect(metric).toMatchObject({
    id: DEMO_IDS.metrics.monthlyRecurringRevenue,
    name: 'Monthly Recurring Revenue',
    frequency: 'monthly',
    company_id: DEMO_IDS.fund,
  });
  const point = state.data_points.find((p) => p.metric_id === promise.metricId && p.date === `${promise.period}-01`);
  expect(point?.value).toBe(promise.value);
});

it('names the token the demo user holds', () => {
  expect(readmePromise().token).toBe(DEMO_TOKEN);
});

it('says how to stop the workbench, that its state resets, and what is downloaded', () => {
  const text = readmeFirstScreen();
  expect(text).toMatch(/\*\*Ctrl\+C\*\*/);
  expect(text).toMatch(/every start begins from the same\s+demo data/);
  expect(text).toMatch(/`npm ci` installs the project's\s+packages/);
});

it('is one screen and a map: at most 12,000 bytes, linking every page of docs/', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  expect(Buffer.byteLength(readme, 'utf8')).toBeLessThanOrEqual(12_000);
  const pages = readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  expect(pages.filter((name) => !readme.includes(`](docs/${name}`))).toEqual([]);
  // Every relative link of the README and of docs/ names a file that exists.
  const broken = ['README.md', ...pages.map((name) => `docs/${name}`)].flatMap((file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    return [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) => !existsSync(path.join(ROOT, path.dirname(file), target)))
      .map((target) => `${file} → ${target}`);
  });
  expect(broken).toEqual([]);
});
