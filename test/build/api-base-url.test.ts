// `npm run build -- --api-base-url https://HOST/`: the manifest's urlFetchWhitelist and the prefix baked into
// Code.js; a plain build has neither. Builds go to a temporary --out-dir, so dist/ is left alone.

import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, buildWithAllowlist, ensureBuilt, runBuild } from '../support/built-bundle';

jest.setTimeout(120_000);

const manifestOf = (dir: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(dir, 'appsscript.json'), 'utf8')) as Record<string, unknown>;
const source = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'appsscript.json'), 'utf8')) as Record<string, unknown>;

describe('a build with --api-base-url', () => {
  let outDir: string;
  beforeAll(async () => {
    // No trailing slash and an upper-case host: the build normalises both.
    outDir = await buildWithAllowlist('https://API.example.com');
  });

  it("writes the prefix, normalised to end with /, as the manifest's only urlFetchWhitelist entry", () => {
    expect(manifestOf(outDir)).toEqual({ ...source, urlFetchWhitelist: ['https://api.example.com/'] });
  });

  it('writes the whole add-in there, and bakes the same prefix into Code.js', () => {
    for (const name of ['Code.js', 'Sidebar.html']) expect(existsSync(path.join(outDir, name))).toBe(true);
    const code = readFileSync(path.join(outDir, 'Code.js'), 'utf8');
    expect(code).toContain('"https://api.example.com/"');
    expect(code).not.toContain('__API_BASE_URL_PREFIX__');
  });
});

describe('a plain build (npm run build, as npm test runs it)', () => {
  it('writes no urlFetchWhitelist and bakes no prefix, so the workbench and the tests reach loopback', () => {
    ensureBuilt();
    expect(manifestOf(DIST)).toEqual(source);
    expect(manifestOf(DIST)).not.toHaveProperty('urlFetchWhitelist');
    const code = readFileSync(path.join(DIST, 'Code.js'), 'utf8');
    expect(code).not.toContain('__API_BASE_URL_PREFIX__');
    expect(code).toMatch(/ALLOWED_BASE_URL_PREFIX = .*null;/);
  });
});

describe('a bad --api-base-url', () => {
  it.each([
    [
      'http://api.example.com/',
      'Build failed: --api-base-url "http://api.example.com/" must start with https://: Apps Script allows only https:// prefixes in urlFetchWhitelist.',
    ],
    [
      'https://127.0.0.1:8787/',
      'Build failed: --api-base-url "https://127.0.0.1:8787/" must name a full domain, like https://api.example.com/: Google fetches from its own servers, so a local or bare host name cannot be reached.',
    ],
  ])('%p fails the build with a sentence and writes nothing', async (value, sentence) => {
    const outDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'addon-build-')), 'dist');
    const run = await runBuild(['--api-base-url', value, '--out-dir', outDir]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(sentence);
    expect(existsSync(outDir)).toBe(false);
  });

  it('refuses an --out-dir that holds anything but an earlier build', async () => {
    const run = await runBuild(['--out-dir', path.join(__dirname)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Build failed: --out-dir .+ holds other files \(.+\): give an empty or new folder\.$/m);
  });
});
