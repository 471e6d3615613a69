// The record types are generated from the contract; this fails when someone edits one without the other.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/built-bundle';

it('src/core/api/schema.gen.ts is what openapi-typescript makes of contract/openapi.yaml', () => {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'contract-')), 'schema.gen.ts');
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), path.join(ROOT, 'contract', 'openapi.yaml'), '-o', out],
    { cwd: ROOT, stdio: 'pipe' },
  );
  const committed = readFileSync(path.join(ROOT, 'src', 'core', 'api', 'schema.gen.ts'), 'utf8');
  expect(readFileSync(out, 'utf8')).toBe(committed);
}, 60_000);
