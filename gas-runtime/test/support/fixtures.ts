// Paths to the fixture scripts and HTML files the tests load.

import path from 'node:path';

export const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** A fixture script as the runtime's `code` option. */
export function fixture(name: string): { path: string } {
  return { path: path.join(FIXTURES, `${name}.js`) };
}
