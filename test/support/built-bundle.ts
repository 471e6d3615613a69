// Locates the built add-in, building it once if a test runs before `npm run build`.

import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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

/** What one run of scripts/build.mjs printed, and its exit code. */
export interface BuildRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the build with `args` (e.g. --api-base-url, --out-dir), never throwing on a failed build. */
export async function runBuild(args: string[]): Promise<BuildRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** A build for deployment (`--api-base-url prefix`) in a fresh temporary folder, leaving dist/ alone; returns the folder. */
export async function buildWithAllowlist(apiBaseUrl: string): Promise<string> {
  const outDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'addon-build-')), 'dist');
  const run = await runBuild(['--api-base-url', apiBaseUrl, '--out-dir', outDir]);
  if (run.code !== 0) throw new Error(`the build with --api-base-url ${apiBaseUrl} failed:\n${run.stderr}`);
  return outDir;
}
