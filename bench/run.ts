// `npm run bench`: every scenario against the emulator (latency, scaled rate limit), the add-in beside a
// naive baseline and the floor; prints markdown tables and writes bench/results.json. Asserts nothing.
//
// The add-in's runs and the baseline's run in separate processes, each with its own emulator (and so its
// own clock and rate window), mostly at once: the baseline's sequential requests take most of the real time.
//
// Flags: --latency MS (80), --rate-limit N (125), --rate-window S (75), --only pull,model,concurrent,export,audit,grid,quotas,fund-model-cells,fund-model-ids,fund-model-executions,bundle,
// --serial (one process, one emulator: quieter figures, slower run).

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Bench, type BenchConfig, type Side } from './harness';
import { mergeResults, type ScenarioResult } from './figures';
import { bundleTable, configLine, formatMs, scenarioTable, writeResults } from './report';
import { auditScenarios } from './scenarios/audit';
import { bundleFigures, type BundleFigures } from './scenarios/bundle';
import { concurrentScenarios } from './scenarios/concurrent';
import { exportScenarios } from './scenarios/export';
import { fundModelCellsScenarios, fundModelIdsScenarios } from './scenarios/fund-model';
import { fundModelExecutionsScenarios } from './scenarios/fund-model-executions';
import { gridScenarios } from './scenarios/grid';
import { modelSheetScenarios } from './scenarios/model-sheet';
import { pullScenarios } from './scenarios/pull';
import { quotaScenarios } from './scenarios/quotas';

type ScenarioRunner = (bench: Bench, sides: readonly Side[]) => Promise<ScenarioResult[]>;

const SCENARIOS: Record<string, ScenarioRunner> = {
  pull: pullScenarios,
  model: modelSheetScenarios,
  concurrent: concurrentScenarios,
  export: exportScenarios,
  audit: auditScenarios,
  grid: gridScenarios,
  quotas: quotaScenarios,
  'fund-model-cells': fundModelCellsScenarios,
  'fund-model-ids': fundModelIdsScenarios,
  'fund-model-executions': fundModelExecutionsScenarios,
};

interface Part {
  sides: Side[];
  scenarios: string[];
}

/**
 * The processes of a parallel run, phase after phase; a phase's parts run at once. The add-in's
 * CPU-bound runs (a cell per execution, thousands of Date cells) go first and alone, since other
 * processes on the same cores would slow them; then the rest together: the baseline is bound by
 * latency and its sleeps, the exports by rate windows, neither by the CPU.
 */
const PHASES: Array<Record<string, Part>> = [
  { 'addin-cpu': { sides: ['addin'], scenarios: ['pull', 'model', 'concurrent', 'grid', 'fund-model-cells', 'fund-model-ids', 'fund-model-executions'] } },
  {
    'addin-rest': { sides: ['addin'], scenarios: ['export', 'audit', 'quotas'] },
    'baseline-model': { sides: ['baseline'], scenarios: ['model', 'concurrent'] },
    'baseline-rest': { sides: ['baseline'], scenarios: ['pull', 'export', 'audit'] },
  },
];
const PARTS: Record<string, Part> = Object.assign({}, ...PHASES);

interface Flags extends BenchConfig {
  serial: boolean;
  part: string | null;
  out: string | null;
}

const NAMES = [...Object.keys(SCENARIOS), 'bundle'];

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { latencyMs: 80, rateLimit: 125, rateWindowSeconds: 75, only: [], serial: false, part: null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const number = (): number => {
      const parsed = Number(value);
      if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${flag} needs a positive number`);
      i++;
      return parsed;
    };
    const text = (): string => {
      if (!value) throw new Error(`${flag} needs a value`);
      i++;
      return value;
    };
    if (flag === '--latency') flags.latencyMs = number();
    else if (flag === '--rate-limit') flags.rateLimit = Math.floor(number());
    else if (flag === '--rate-window') flags.rateWindowSeconds = number();
    else if (flag === '--serial') flags.serial = true;
    else if (flag === '--part') flags.part = text();
    else if (flag === '--out') flags.out = text();
    else if (flag === '--only') {
      flags.only = text()
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const unknown = flags.only.filter((name) => !NAMES.includes(name));
      if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}: use ${NAMES.join(', ')}`);
    } else throw new Error(`unknown flag ${flag}. Flags: --latency MS, --rate-limit N, --rate-window S, --only ${NAMES.join(',')}, --serial`);
  }
  if (flags.part && !(flags.part in PARTS)) throw new Error(`unknown part ${flags.part}`);
  return flags;
}

function configFlags(config: BenchConfig): string[] {
  return ['--latency', String(config.latencyMs), '--rate-limit', String(config.rateLimit), '--rate-window', String(config.rateWindowSeconds)];
}

/** Runs scenarios in this process, one emulator for all. */
async function runHere(config: BenchConfig, scenarios: string[], sides: Side[], label: string): Promise<ScenarioResult[]> {
  const bench = await Bench.start(config);
  const results: ScenarioResult[] = [];
  try {
    for (const name of scenarios) {
      const started = performance.now();
      results.push(...(await SCENARIOS[name]!(bench, sides)));
      process.stderr.write(`bench: ${label} ${name} done in ${formatMs(performance.now() - started)}\n`);
    }
  } finally {
    await bench.stop();
  }
  return results;
}

/** Runs one part in a child process (this file with --part) and reads what it measured. */
function runPart(config: BenchConfig, part: string, scenarios: string[], folder: string): Promise<ScenarioResult[]> {
  const out = path.join(folder, `${part}.json`);
  const args = ['--import', 'tsx', __filename, '--part', part, '--out', out, '--only', scenarios.join(','), ...configFlags(config)];
  const child = spawn(process.execPath, args, { cwd: path.resolve(__dirname, '..'), stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench part ${part} exited with code ${String(code)}`));
      resolve(JSON.parse(readFileSync(out, 'utf8')) as ScenarioResult[]);
    });
  });
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const wanted = (name: string): boolean => flags.only.length === 0 || flags.only.includes(name);

  if (flags.part) {
    const part = PARTS[flags.part]!;
    const results = await runHere(flags, part.scenarios.filter(wanted), part.sides, flags.part);
    writeFileSync(flags.out ?? path.join(__dirname, `${flags.part}.json`), JSON.stringify(results));
    return;
  }

  const started = performance.now();
  const date = new Date();
  // The load times first, while nothing else runs.
  const bundle: BundleFigures | null = wanted('bundle') ? bundleFigures() : null;
  const names = Object.keys(SCENARIOS).filter(wanted);
  let parts: ScenarioResult[][] = [];
  if (names.length > 0 && flags.serial) {
    parts = [await runHere(flags, names, ['addin', 'baseline'], 'serial')];
  } else if (names.length > 0) {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
    try {
      for (const phase of PHASES) {
        const runs = Object.entries(phase)
          .map(([part, { scenarios }]) => ({ part, scenarios: scenarios.filter(wanted) }))
          .filter((run) => run.scenarios.length > 0)
          .map((run) => runPart(flags, run.part, run.scenarios, folder));
        parts.push(...(await Promise.all(runs)));
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  const results = mergeResults(parts);

  const realMs = performance.now() - started;
  const output = [configLine(flags, date, flags.serial), ''];
  if (results.length > 0) output.push(scenarioTable(results), '');
  if (bundle) output.push(bundleTable(bundle), '');
  output.push(`Total real time of the run: ${formatMs(realMs)}.`);
  process.stdout.write(`${output.join('\n')}\n`);
  writeResults(path.join(__dirname, 'results.json'), { date, config: flags, serial: flags.serial, results, bundle, realMs });
}

main().catch((error: unknown) => {
  process.stderr.write(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
