// One style for the words the add-in writes: the page, the server and the core count and list alike.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { countOf, formatCount, joinAnd, quote } from '../../src/shared/words';

it('counts with thousands separators and the noun in agreement', () => {
  expect([countOf(0, 'row'), countOf(1, 'row'), countOf(2, 'row'), countOf(1000, 'row'), countOf(1_234_567, 'entry', 'entries')]).toEqual([
    '0 rows',
    '1 row',
    '2 rows',
    '1,000 rows',
    '1,234,567 entries',
  ]);
  expect(formatCount(999)).toBe('999');
});

it('is the one place counts are written: no other module defines a count or a list (the page re-exports these)', () => {
  const others = ['src/core/export/places.ts', 'src/core/product.ts'].map((file) => readFileSync(path.join(__dirname, '..', '..', file), 'utf8'));
  for (const text of others) expect(text).not.toMatch(/function (countOf|plural|joinAnd|formatCount|quote)\b/);
  // The page's module touches the document as it loads, so it is read, not imported: it re-exports these words.
  const page = readFileSync(path.join(__dirname, '..', '..', 'sidebar', 'dom.ts'), 'utf8');
  expect(page).toContain("export { countOf, formatCount } from '../src/shared/words';");
  expect(page).not.toMatch(/function countOf/);
});

it('lists and quotes', () => {
  expect([joinAnd([]), joinAnd(['a']), joinAnd(['a', 'b']), joinAnd(['a', 'b', 'c'], { word: 'or' })]).toEqual(['', 'a', 'a and b', 'a, b or c']);
  expect(
    joinAnd(
      Array.from({ length: 1203 }, (_, i) => String(i)),
      { limit: 2 },
    ),
  ).toBe('0, 1 and 1,201 more');
  expect(quote('x'.repeat(61))).toBe(`"${'x'.repeat(60)}…"`);
});
