// npm run build: writes exactly what `clasp push` sends into dist/ (Code.js, Sidebar.html, appsscript.json).

import { build as esbuild } from 'esbuild';
import { mkdir, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webpack from 'webpack';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

async function buildServer() {
  const config = require('./webpack.config.cjs');
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
  const html = template
    .replace('<!-- STYLES -->', () => `<style>${css}</style>`)
    .replace('<!-- SCRIPT -->', () => `<script>${safeJs}</script>`);
  await writeFile(path.join(dist, 'Sidebar.html'), html);
}

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await Promise.all([buildServer(), buildSidebar(), copyFile(path.join(root, 'appsscript.json'), path.join(dist, 'appsscript.json'))]);
console.log('Built dist/Code.js, dist/Sidebar.html, dist/appsscript.json');
