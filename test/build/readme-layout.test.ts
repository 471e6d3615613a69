// The Layout table (docs/architecture.md) against the tree: every folder of the core, every adapter, and exactly
// the server files that call Apps Script globals. A file added, moved or removed without the table fails here.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/built-bundle';

const SRC = path.join(ROOT, 'src');
const readme = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');

/** The Layout table's row for `folder`, whole. */
function row(folder: string): string {
  const line = readme.split('\n').find((text) => text.startsWith(`| \`${folder}\` |`));
  if (!line) throw new Error(`The Layout table of docs/architecture.md has no row for ${folder}.`);
  return line;
}

function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

function tsFiles(folder: string): string[] {
  return readdirSync(path.join(SRC, folder))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => name.slice(0, -3))
    .sort();
}

it('names every folder of src/core', () => {
  const folders = readdirSync(path.join(SRC, 'core'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${entry.name}/`);
  const named = backticked(row('src/core/')).filter((name) => name.endsWith('/') && !name.startsWith('src/'));
  expect([...new Set(named)].sort()).toEqual(folders.sort());
});

it('names every adapter in src/gas', () => {
  const named = backticked(row('src/gas/')).filter((name) => !name.includes('/'));
  expect([...new Set(named)].sort()).toEqual(tsFiles('gas'));
});

it('names exactly the src/server files that call Apps Script globals', () => {
  const clause = /Apps Script globals appear here too[^:]*:(.*?) call /.exec(row('src/server/'));
  if (!clause) throw new Error('The src/server row no longer says which files call Apps Script globals.');
  const globals = /\b(SpreadsheetApp|HtmlService|PropertiesService|LockService|CacheService|ScriptApp|Utilities|Session|UrlFetchApp)\./;
  const calling = tsFiles('server').filter((name) => {
    // Comments may name a service; only code counts.
    const code = readFileSync(path.join(SRC, 'server', `${name}.ts`), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    return globals.test(code);
  });
  expect(backticked(clause[1]!).sort()).toEqual(calling);
});
