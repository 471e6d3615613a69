// Every sentence docs/guide.md quotes in double quotes is one the add-in can put on the screen: some text the
// product's code writes (a string or template in src/ or sidebar/, the sidebar page, or the demo's data the
// workbench shows) reads the same. The guide once said the token's last characters are shown while the screen
// said "A token is set (10 characters)"; a quote that drifts from its screen fails here.
//
// A quote and a template are both read as patterns: the guide's "…" and each ${…} of a template stand for any
// text, and a number the guide shows may be any number. They agree when some text fits both.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ROOT } from '../support/built-bundle';

const ANY = '\u0001';

/** Quotes the guide takes from Google, not from the add-in, each with where it is from. */
const NOT_THE_ADDINS: Record<string, string> = {
  'Aurora Robotics Inc': 'a name a person types in the rename example',
  'Script invoked too many times per second for this Google user account. … It most commonly occurs for custom functions that are called repeatedly in a single spreadsheet. To avoid this error, code your custom functions so that they only need to be called once per range of data.':
    "Apps Script's quotas page, on why a fund model has one formula per block",
};

/** The guide's quotes of three words or more that start with a capital, with its line breaks folded. */
function guideQuotes(): string[] {
  const text = readFileSync(path.join(ROOT, 'docs', 'guide.md'), 'utf8').replace(/\s+/g, ' ');
  const quotes = [...text.matchAll(/"([A-Z][^"]{12,})"/g)].map((match) => match[1]!.trim());
  return [...new Set(quotes)].filter((quote) => quote.split(' ').length >= 3);
}

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full, ext);
    return ext.test(name) ? [full] : [];
  });
}

/** Every string and template the product's code holds, each template's ${…} as ANY. */
function productTexts(): string[] {
  const texts: string[] = [];
  const files = [
    ...filesUnder(path.join(ROOT, 'src'), /\.ts$/),
    ...filesUnder(path.join(ROOT, 'sidebar'), /\.ts$/),
    path.join(ROOT, 'emulator', 'demo-data.ts'),
  ];
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
      else if (ts.isTemplateExpression(node)) texts.push(node.head.text + node.templateSpans.map((span) => ANY + span.literal.text).join(''));
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const page = readFileSync(path.join(ROOT, 'sidebar', 'index.html'), 'utf8');
  texts.push(
    ...page
      .split(/<[^>]*>/)
      .map((part) => part.replace(/\s+/g, ' ').trim())
      .filter((part) => part.length > 0),
  );
  return texts;
}

/** The quote as a pattern: its "…" and each run of digits (with separators) stand for any text. */
function quotePattern(quote: string): string {
  return quote.replace(/…/g, ANY).replace(/\d[\d,.]*\d|\d/g, ANY);
}

/**
 * Whether some text fits both patterns, where ANY stands for any text (empty too), and how much of it the two
 * spell out alike: the most characters a walk over both can match literal to literal, or -1 when no text fits
 * both. In the walk an ANY may take nothing or the other pattern's next character.
 */
function sharedLiterals(a: string, b: string): number {
  const seen = new Map<number, number>();
  const best = (i: number, j: number): number => {
    const key = i * (b.length + 1) + j;
    const known = seen.get(key);
    if (known !== undefined) return known;
    let result = -1;
    if (i === a.length && j === b.length) result = 0;
    else {
      if (a[i] === ANY) result = Math.max(best(i + 1, j), j < b.length ? best(i, j + 1) : -1);
      if (b[j] === ANY) result = Math.max(result, best(i, j + 1), i < a.length ? best(i + 1, j) : -1);
      if (a[i] !== ANY && b[j] !== ANY && i < a.length && j < b.length && a[i] === b[j]) {
        const rest = best(i + 1, j + 1);
        if (rest >= 0) result = Math.max(result, rest + 1);
      }
    }
    seen.set(key, result);
    return result;
  };
  return best(0, 0);
}

/**
 * A quote may be a sentence of a text, spelling out at least three quarters of its own words as the text does, or
 * the whole of a text whose own words it spells out (nine in ten): a template's ${…} stands for a value (a name, a
 * count, "the fund …"), so `Push ${…} to ${…}?` shows "Push 1 changed cell to the fund …?", while `The API at
 * ${…} refused the saved token` does not show "The API token was refused".
 */
function textShows(text: string, quote: string): boolean {
  const pattern = quotePattern(quote);
  const literals = (chars: string) => [...chars].filter((char) => char !== ANY).length;
  const whole = sharedLiterals(pattern, text);
  const shared = Math.max(whole, sharedLiterals(ANY + pattern + ANY, text));
  if (shared < Math.min(literals(pattern), 8)) return false;
  return shared >= 0.75 * literals(pattern) || (whole >= 0 && whole >= 0.9 * literals(text));
}

const quotes = guideQuotes();
const texts = productTexts();

it('reads the guide and the code (so an empty list cannot pass)', () => {
  expect(quotes.length).toBeGreaterThanOrEqual(8);
  expect(texts.length).toBeGreaterThan(1_000);
});

it('matches patterns both ways, and only where some text fits both', () => {
  expect(textShows(`Push ${ANY} to the fund ${ANY}?`, 'Push 1 changed cell to the fund …?')).toBe(true);
  expect(textShows('A token is set.', 'A token is set (10 characters)')).toBe(false);
  expect(textShows(`The ${ANY}`, 'The API token was rejected')).toBe(false);
  expect(textShows(`The API at ${ANY} refused the saved token (HTTP ${ANY}): formulas fail.`, 'The API token was refused')).toBe(false);
  expect(textShows(`Limit Exceeded: URLFetch URL Length (${ANY} characters).`, 'A token is set (10 characters)')).toBe(false);
  expect(textShows('Connected. This token sees 12 metrics.', 'This token sees 4 metrics.')).toBe(true);
  expect(textShows('Connected. This token sees 12 metrics.', 'This token sees 4 companies.')).toBe(false);
});

it('quotes only what the add-in shows', () => {
  const wrong = quotes.filter((quote) => !(quote in NOT_THE_ADDINS) && !texts.some((text) => textShows(text, quote)));
  expect(wrong).toEqual([]);
});

it('keeps its list of quotes from elsewhere to quotes the guide still makes', () => {
  expect(Object.keys(NOT_THE_ADDINS).filter((quote) => !quotes.includes(quote))).toEqual([]);
});
