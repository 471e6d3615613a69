// docs/architecture.md's "Where is it" table sends a maintainer to a file and a name in it: both must be there.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

function rows(): Array<{ what: string; files: string[]; name: string }> {
  const section = doc.split('## Where is it')[1]?.split('\n## ')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('|---') && !line.startsWith('| what | file |'))
    .map((line) => {
      const [what, files, name] = line
        .split('|')
        .slice(1, 4)
        .map((cell) => cell.trim());
      return { what: what!, files: [...files!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), name: name!.replace(/`/g, '') };
    });
}

it('has the rows a maintainer looks for first', () => {
  const whats = rows().map((row) => row.what);
  for (const wanted of [
    'paging',
    '429',
    'batches of 50',
    'the token',
    'conflict check',
    'Undo',
    'formula access',
    'dates to periods',
    'installation check',
    'scopes',
  ]) {
    expect(whats.some((what) => what.includes(wanted))).toBe(true);
  }
});

it.each(rows().map((row) => [row.what, row] as const))('%s: the file exists and holds the name', (_what, row) => {
  expect(row.files.length).toBeGreaterThan(0);
  for (const file of row.files) expect(existsSync(join(root, file))).toBe(true);
  // The name is in the first file, the one the row sends a reader to.
  expect(readFileSync(join(root, row.files[0]!), 'utf8')).toContain(row.name);
});
