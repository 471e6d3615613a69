// Scenario: the size of what `clasp push` sends, and what loading dist/Code.js costs, which every
// execution pays (Apps Script runs the project's global code at the start of every custom function call).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { DIST } from '../../test/support/built-bundle';

export interface FileSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface LoadTimes {
  loads: number;
  /** Median ms to create a fresh context and run an empty script in it: the floor. */
  emptyMs: number;
  /** Median ms to create a fresh context and run the bundle, compiled once beforehand (V8 caches it). */
  bundleMs: number;
  /** Median ms for the same when the source is compiled anew every time (no compilation cache). */
  bundleUncachedMs: number;
}

export interface BundleFigures {
  sizes: FileSize[];
  load: LoadTimes;
}

const LOADS = 30;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median time of `loads` runs of `script()` (a fresh script object or the same one) in fresh contexts. */
function timeLoads(script: (i: number) => vm.Script, loads: number): number {
  const times: number[] = [];
  for (let i = 0; i < loads; i++) {
    const compiled = script(i);
    const started = performance.now();
    compiled.runInContext(vm.createContext({}));
    times.push(performance.now() - started);
  }
  return median(times);
}

export function bundleFigures(): BundleFigures {
  const sizes = ['Code.js', 'Sidebar.html'].map((file) => {
    const content = readFileSync(path.join(DIST, file));
    return { file: `dist/${file}`, bytes: content.length, gzipBytes: gzipSync(content).length };
  });
  const source = readFileSync(path.join(DIST, 'Code.js'), 'utf8');
  const empty = new vm.Script('', { filename: 'empty.js' });
  const bundle = new vm.Script(source, { filename: 'Code.js' });
  // A warm-up, so the first measured load does not pay for the process's own start.
  timeLoads(() => bundle, 5);
  const load: LoadTimes = {
    loads: LOADS,
    emptyMs: timeLoads(() => empty, LOADS),
    bundleMs: timeLoads(() => bundle, LOADS),
    // A unique trailing comment defeats V8's compilation cache, as a cold Apps Script instance would be.
    bundleUncachedMs: medianWithCompile(source, LOADS),
  };
  return { sizes, load };
}

/** Like timeLoads, but the compilation of a never-seen source is inside the timing. */
function medianWithCompile(source: string, loads: number): number {
  const times: number[] = [];
  for (let i = 0; i < loads; i++) {
    const unique = `${source}\n// load ${i} ${Math.random()}`;
    const started = performance.now();
    const compiled = new vm.Script(unique, { filename: `Code-${i}.js` });
    compiled.runInContext(vm.createContext({}));
    times.push(performance.now() - started);
  }
  return median(times);
}
