// npm run build: writes exactly what `clasp push` sends into dist/ (Code.js, Sidebar.html, appsscript.json).
//
//   npm run build -- --api-base-url https://api.example.com/   the manifest's urlFetchWhitelist is that prefix
//                                                              (required for a versioned deployment), and the
//                                                              add-in refuses any base URL outside it
//   npm run build -- --out-dir DIR                             writes into DIR instead of dist/ (tests)

import { build as esbuild } from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import webpack from 'webpack';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUTS = ['Code.js', 'Sidebar.html', 'appsscript.json'];

function fail(sentence) {
  console.error(`Build failed: ${sentence}`);
  process.exit(1);
}

let flags;
try {
  ({ values: flags } = parseArgs({ options: { 'api-base-url': { type: 'string' }, 'out-dir': { type: 'string' } } }));
} catch (error) {
  fail(`${error.message}. Use --api-base-url https://HOST/ and --out-dir DIR.`);
}
const dist = flags['out-dir'] === undefined ? path.join(root, 'dist') : path.resolve(flags['out-dir']);

/**
 * The prefix rules of src/core/settings/url-allowlist.ts, bundled on the spot: the manifest's allowlist and
 * the add-in's own check are judged by the same code.
 */
async function allowlistRules() {
  const result = await esbuild({
    entryPoints: [path.join(root, 'src', 'core', 'settings', 'url-allowlist.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'silent',
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString('base64')}`);
}

async function apiBaseUrlPrefix() {
  const input = flags['api-base-url'];
  if (input === undefined) return null;
  const { parseAllowlistPrefix } = await allowlistRules();
  try {
    return parseAllowlistPrefix(input);
  } catch (error) {
    return fail(`--api-base-url ${error.message}`);
  }
}

/** Only dist/ is emptied wholesale; another --out-dir must hold nothing but an earlier build, so no typo deletes a folder. */
async function prepareOutDir() {
  if (flags['out-dir'] === undefined) {
    await rm(dist, { recursive: true, force: true });
  } else if (existsSync(dist)) {
    const strangers = (await readdir(dist)).filter((name) => !OUTPUTS.includes(name));
    if (strangers.length) fail(`--out-dir ${dist} holds other files (${strangers.slice(0, 3).join(', ')}): give an empty or new folder.`);
  }
  await mkdir(dist, { recursive: true });
}

async function writeManifest(prefix) {
  const manifest = JSON.parse(await readFile(path.join(root, 'appsscript.json'), 'utf8'));
  // Apps Script requires the allowlist for a versioned deployment; a plain build leaves it out so the
  // workbench and the tests can reach the emulator on loopback.
  if (prefix !== null) manifest.urlFetchWhitelist = [prefix];
  await writeFile(path.join(dist, 'appsscript.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function buildServer(prefix) {
  const config = require('./webpack.config.cjs')({ outDir: dist, apiBaseUrlPrefix: prefix });
  const stats = await new Promise((resolve, reject) => webpack(config, (error, result) => (error ? reject(error) : resolve(result))));
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
}

async function buildSidebar() {
  const result = await esbuild({
    entryPoints: [path.join(root, 'sidebar', 'main.ts')],
    bundle: true,
    write: false,
    minify: true,
    format: 'iife',
    target: 'es2019',
    outdir: 'out',
    loader: { '.css': 'css' },
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'))?.text ?? '';
  const template = await readFile(path.join(root, 'sidebar', 'index.html'), 'utf8');
  // A literal "</script" inside the inlined code would end the element early.
  const safeJs = js.replace(/<\/(script)/gi, '<\\/$1');
  const html = template.replace('<!-- STYLES -->', () => `<style>${css}</style>`).replace('<!-- SCRIPT -->', () => `<script>${safeJs}</script>`);
  await writeFile(path.join(dist, 'Sidebar.html'), html);
}

const prefix = await apiBaseUrlPrefix();
await prepareOutDir();
await Promise.all([buildServer(prefix), buildSidebar(), writeManifest(prefix)]);
const relative = path.relative(root, dist);
const shown = relative.startsWith('..') ? dist : relative || '.';
console.log(`Built ${OUTPUTS.map((name) => path.join(shown, name)).join(', ')}${prefix ? `; fetches allowed only under ${prefix}` : ''}`);
