// Comments say the decision they refer to, not the issue it came from: a reader of "(issue 26)" must leave the code
// to learn what it means, and the tracker is not part of the project. Scanned: every source, test and tool file.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/built-bundle';

const SCANNED = ['src', 'sidebar', 'gas-runtime', 'emulator', 'workbench', 'scripts', 'bench', 'test'];
const CODE = /\.(ts|js|mjs|html|css)$/;
const ISSUE = /\b[Ii]ssues? #?\d+/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(full).isDirectory()) return filesUnder(full);
    return CODE.test(name) ? [full] : [];
  });
}

it('finds no comment citing an issue number', () => {
  const files = SCANNED.flatMap((dir) => filesUnder(path.join(ROOT, dir)));
  expect(files.length).toBeGreaterThan(300);
  const self = path.join(ROOT, 'test', 'build', 'no-issue-numbers.test.ts');
  const cited = files
    .filter((file) => file !== self)
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim().slice(0, 100)}`] : [])),
    );
  expect(cited).toEqual([]);
});
