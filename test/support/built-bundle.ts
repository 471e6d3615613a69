// Locates the built add-in, building it once if a test runs before `npm run build`.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const DIST = path.join(ROOT, 'dist');
export const CODE_PATH = path.join(DIST, 'Code.js');

export function ensureBuilt(): void {
  if (!existsSync(CODE_PATH) || !existsSync(path.join(DIST, 'Sidebar.html'))) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
}

export function readBuiltCode(): string {
  ensureBuilt();
  return readFileSync(CODE_PATH, 'utf8');
}
