// docs/functions.md is made from the code: the custom functions' JSDoc (the text the bundle carries) and each
// example run on the demo data. This fails when the page and the code differ: run `npm run docs:functions`.

import { readFileSync } from 'node:fs';
import { customFunctionDocs, FUNCTIONS_DOC, renderFunctionsDoc } from '../../scripts/functions-doc';
import { CODE_PATH, ensureBuilt } from '../support/built-bundle';

jest.setTimeout(60_000);

beforeAll(() => ensureBuilt());

it('documents every custom function of the bundle, with the JSDoc the bundle carries', () => {
  const bundle = readFileSync(CODE_PATH, 'utf8');
  const docs = customFunctionDocs();
  const inBundle = new Set([...bundle.matchAll(/@customfunction[\s\S]*?\*\/\s*function ([A-Z_][A-Z0-9_]*)\s*\(/g)].map((m) => m[1]));
  expect(new Set(docs.map((doc) => doc.name))).toEqual(inBundle);
  // Sheets shows the bundle's JSDoc; the page is made from main.ts's: they are one text.
  for (const doc of docs) expect(bundle).toContain(doc.block);
});

it('matches what npm run docs:functions writes from the code and the demo data', async () => {
  const written = readFileSync(FUNCTIONS_DOC, 'utf8');
  const made = await renderFunctionsDoc();
  // A plain equality: the diff Jest prints shows which function's text or result moved.
  expect(written).toBe(made);
});
