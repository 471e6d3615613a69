// No example, help text, README line or sidebar insert passes a volatile function to a custom function:
// "built-in spreadsheet functions that return a different result each time they calculate — such as NOW() or
// RAND() — are not allowed as arguments to a custom function", and such a cell can stay on "Loading..."
// (developers.google.com/apps-script/guides/sheets/functions). TODAY(), RANDBETWEEN() and RANDARRAY() are
// volatile too. The add-in receives only the values, so it cannot catch this itself: the texts must not teach it.

import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { CUSTOM_FUNCTION_NAMES } from '../../src/core/formulas/names';
import { metricValuesFormula } from '../../src/core/sheets/formula-text';
import { DIST, ROOT, ensureBuilt } from '../support/built-bundle';

const VOLATILE = /(^|[^A-Z0-9_.])(TODAY|NOW|RAND|RANDBETWEEN|RANDARRAY)\s*\(/i;
const CALL = new RegExp(`(^|[^A-Z0-9_.])(${CUSTOM_FUNCTION_NAMES.join('|')})\\s*\\(`, 'gi');

interface Offence {
  file: string;
  line: number;
  call: string;
}

/** Each call of an add-in function in `text` whose arguments (up to its closing parenthesis) call a volatile function. */
export function volatileCalls(text: string, file = '<text>'): Offence[] {
  const found: Offence[] = [];
  for (const match of text.matchAll(CALL)) {
    const open = match.index! + match[0].length; // just past the "("
    let depth = 1;
    let quoted = false;
    let end = open;
    // Up to the matching ")", skipping parentheses inside "…" strings; a line break ends an unclosed call in prose.
    for (; end < text.length && depth > 0; end++) {
      const ch = text[end];
      if (ch === '"') quoted = !quoted;
      else if (!quoted && ch === '(') depth++;
      else if (!quoted && ch === ')') depth--;
      else if (ch === '\n' && depth > 0 && end - open > 2000) break;
    }
    // Text inside "…" is a value, not a call.
    const args = text.slice(open, end - (depth === 0 ? 1 : 0)).replace(/"[^"]*"/g, '""');
    if (VOLATILE.test(args)) {
      found.push({ file, line: text.slice(0, match.index).split('\n').length, call: text.slice(match.index! + match[1]!.length, end) });
    }
  }
  return found;
}

function scan(relative: string): Offence[] {
  return volatileCalls(readFileSync(path.join(ROOT, relative), 'utf8'), relative);
}

describe('the scanner', () => {
  it.each([
    ['=METRIC_LATEST("id", TODAY(), "with_date")'],
    ['=METRIC_VALUES(A1, EDATE(today(), -12))'],
    ['@example =METRIC_VALUE(A1, NOW ())'],
    ['=metric_values({"a";"b"}, "2024-01-01", TEXT(RAND(), "0"))'],
    ['=PORTFOLIO_NOTES(INDEX(B:B, RANDBETWEEN(1, 9)))'],
  ])('finds %p', (text) => {
    expect(volatileCalls(text)).toHaveLength(1);
  });

  it.each([
    ['=METRIC_LATEST("id", "2024-06-30", "with_date")'],
    ['=METRIC_LATEST("id") and, elsewhere, =TODAY()'],
    ['a volatile function such as `TODAY()` as an argument'],
    ['=METRIC_VALUES("id", "TODAY(", "2024-12-31") + NOW()'],
    ['customFunctions.METRIC_LATEST(metricId, asOf, options)'],
  ])('leaves %p alone', (text) => {
    expect(volatileCalls(text)).toEqual([]);
  });
});

describe('texts users read or copy', () => {
  beforeAll(ensureBuilt);

  it('dist/Code.js (the JSDoc Sheets shows as help and autocomplete)', () => {
    expect(volatileCalls(readFileSync(path.join(DIST, 'Code.js'), 'utf8'), 'dist/Code.js')).toEqual([]);
  });

  it('dist/Sidebar.html (every formula the sidebar shows or inserts)', () => {
    expect(volatileCalls(readFileSync(path.join(DIST, 'Sidebar.html'), 'utf8'), 'dist/Sidebar.html')).toEqual([]);
  });

  it('README.md, SECURITY.md, every page of docs/ and the workbench page', () => {
    const docs = readdirSync(path.join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`);
    expect(docs).toContain('docs/guide.md');
    expect(['README.md', 'SECURITY.md', ...docs, 'workbench/page.html'].flatMap(scan)).toEqual([]);
  });

  it("the sidebar's insert code paths (page and server) and the formula builder", () => {
    const sidebarFiles = readdirSync(path.join(ROOT, 'sidebar'))
      .filter((f) => /\.(ts|html)$/.test(f))
      .map((f) => `sidebar/${f}`);
    const files = [...sidebarFiles, 'src/server/sidebar-api.ts', 'src/server/insert-values.ts', 'src/core/sheets/formula-text.ts', 'src/main.ts'];
    expect(files.flatMap(scan)).toEqual([]);
  });
});

describe('the formula the sidebar inserts', () => {
  it('never carries a volatile call, whatever it is given (fast-check, seed 130013)', () => {
    const uuid = fc.uuid();
    const dateLike = fc.oneof(fc.constantFrom(null, '', '2024-01-01', 'TODAY()', '=TODAY()', '2024-01-01", TODAY(), "', 'NOW()'), fc.string());
    const seed = 130013;
    console.log(`fast-check seed ${seed}`);
    fc.assert(
      fc.property(fc.array(uuid, { minLength: 1, maxLength: 4 }), dateLike, dateLike, fc.boolean(), (ids, startDate, endDate, headers) => {
        let formula: string;
        try {
          formula = metricValuesFormula({ metricIds: ids, startDate, endDate, headers });
        } catch {
          return; // refused input never reaches a cell
        }
        expect(volatileCalls(formula)).toEqual([]);
      }),
      { seed, numRuns: 500 },
    );
  });
});
