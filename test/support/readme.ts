// The README's first screen, read by the tests that hold it to its promise.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './built-bundle';

/** The README up to its table of contents: the first screen. */
export function readmeFirstScreen(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const end = readme.indexOf('\n## ');
  if (end < 0) throw new Error('The README has no second-level heading.');
  return readme.slice(0, end);
}

/** What the first screen promises: the token to paste, the formula to type, and the value the cell shows. */
export function readmePromise(): { token: string; formula: string; metricId: string; period: string; value: string } {
  const text = readmeFirstScreen();
  const formula = /^\s*(=METRIC_VALUE\("([0-9a-f-]{36})", "(\d{4}-\d{2})"\))\s*$/m.exec(text);
  const value = /The cell shows \*\*([\d.]+)\*\*/.exec(text);
  const token = /demo token shown above the grid \(`([^`]+)`\)/.exec(text);
  if (!formula || !value || !token) throw new Error("The README's first screen no longer has its formula, its value and the demo token in the expected words.");
  return { token: token[1]!, formula: formula[1]!, metricId: formula[2]!, period: formula[3]!, value: value[1]! };
}
