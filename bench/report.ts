// The benchmark's output: a markdown table for people, bench/results.json for machines.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { BenchConfig } from './harness';
import { REAL_RATE_LIMIT } from './harness';
import type { Ratios, ScenarioResult } from './figures';
import type { BundleFigures } from './scenarios/bundle';

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 100_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 1000)} s`;
}

function formatRatio(value: number | null): string {
  if (value === null) return '—';
  if (value >= 10) return `${Math.round(value)}×`;
  return `${Number(value.toPrecision(2))}×`;
}

function formatRatios(ratios: Ratios | null): string {
  return ratios ? `${formatRatio(ratios.requests)} · ${formatRatio(ratios.time)}` : '';
}

function count(value: number | null): string {
  return value === null ? '—' : value.toLocaleString('en-US');
}

/** One markdown table of every scenario, the scenario named on its first row. */
export function scenarioTable(results: ScenarioResult[]): string {
  const lines = [
    '| Scenario | Run | Requests | 429s | Simulated time | ÷ baseline (requests · time) | ÷ floor (requests · time) | Note |',
    '|---|---|--:|--:|--:|--:|--:|---|',
  ];
  for (const result of results) {
    result.rows.forEach((row, i) => {
      const cells = [
        i === 0 ? result.title : '',
        row.variant,
        count(row.requests),
        count(row.rateLimited),
        formatMs(row.simMs),
        formatRatios(row.vsBaseline),
        formatRatios(row.vsFloor),
        row.note.replace(/\|/g, '\\|').trim(),
      ];
      lines.push(`| ${cells.join(' | ')} |`);
    });
  }
  return lines.join('\n');
}

export function bundleTable(bundle: BundleFigures): string {
  const { load } = bundle;
  return [
    '| Bundle | Bytes | Gzip bytes |',
    '|---|--:|--:|',
    ...bundle.sizes.map((size) => `| \`${size.file}\` | ${size.bytes.toLocaleString('en-US')} | ${size.gzipBytes.toLocaleString('en-US')} |`),
    '',
    `| Load in a fresh \`vm\` context (median of ${load.loads}) | ms | above an empty script |`,
    '|---|--:|--:|',
    `| empty script | ${load.emptyMs.toFixed(2)} | |`,
    `| \`dist/Code.js\`, compiled once | ${load.bundleMs.toFixed(2)} | ${(load.bundleMs - load.emptyMs).toFixed(2)} |`,
    `| \`dist/Code.js\`, compiled every time | ${load.bundleUncachedMs.toFixed(2)} | ${(load.bundleUncachedMs - load.emptyMs).toFixed(2)} |`,
  ].join('\n');
}

/** The line under the tables that says what the run was configured with. */
export function configLine(config: BenchConfig, date: Date, serial: boolean): string {
  const scale = config.rateLimit / REAL_RATE_LIMIT.limit;
  return (
    `${date.toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}; latency ${config.latencyMs} ms per request; ` +
    `rate limit ${config.rateLimit} per ${config.rateWindowSeconds} s (the real ${REAL_RATE_LIMIT.limit} per ${REAL_RATE_LIMIT.windowSeconds} s × ${Number(scale.toPrecision(3))}), no Retry-After; ` +
    `${serial ? 'one process' : 'add-in and baseline in parallel processes'}.`
  );
}

export function writeResults(
  file: string,
  input: { date: Date; config: BenchConfig; serial: boolean; results: ScenarioResult[]; bundle: BundleFigures | null; realMs: number },
): void {
  const { config } = input;
  const scale = config.rateLimit / REAL_RATE_LIMIT.limit;
  const json = {
    date: input.date.toISOString(),
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? null,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
    },
    config: {
      latencyMs: config.latencyMs,
      rateLimit: { limit: config.rateLimit, windowSeconds: config.rateWindowSeconds, retryAfter: false },
      realRateLimit: REAL_RATE_LIMIT,
      scale,
      /** Rows per 5 minutes at 50 per PUT: the same at every scale, since limit and window scale together. */
      exportBoundRowsPer5Min: Math.round((50 * config.rateLimit * 300) / config.rateWindowSeconds),
      scenarios: config.only.length > 0 ? config.only : 'all',
      processes: input.serial ? 'one' : 'the add-in and the baseline in parallel, each with its own emulator',
    },
    scenarios: keptScenarios(file, input.results, config),
    bundle: input.bundle ?? keptBundle(file),
    totalRealMs: Math.round(input.realMs),
  };
  // Four significant digits are more than any figure here can claim.
  const rounded = (_key: string, value: unknown): unknown => (typeof value === 'number' && !Number.isInteger(value) ? Number(value.toPrecision(4)) : value);
  writeFileSync(file, `${JSON.stringify(json, rounded, 2)}\n`);
}

interface StoredResults {
  date?: string;
  scenarios?: Array<ScenarioResult & { measuredOn?: string }>;
  bundle?: BundleFigures | null;
}

function stored(file: string): StoredResults {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StoredResults) : {};
}

/**
 * A run of some scenarios (--only) keeps the other scenarios' figures from the file, each marked with
 * the date of the run that measured it, so one scenario can be run alone without losing the rest.
 */
function keptScenarios(file: string, results: ScenarioResult[], config: BenchConfig): Array<ScenarioResult & { measuredOn?: string }> {
  if (config.only.length === 0) return results;
  const previous = stored(file);
  const ran = new Set(results.map((r) => r.id));
  const kept = (previous.scenarios ?? []).filter((s) => !ran.has(s.id)).map((s) => ({ ...s, measuredOn: s.measuredOn ?? previous.date?.slice(0, 10) }));
  return [...kept, ...results];
}

function keptBundle(file: string): BundleFigures | null {
  return stored(file).bundle ?? null;
}
