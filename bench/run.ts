// `npm run bench`: every scenario against the emulator (latency, scaled rate limit), the add-in beside a
// naive baseline and the floor; prints markdown tables and writes bench/results.json. Asserts nothing.
//
// Flags: --latency MS (80), --rate-limit N (75), --rate-window S (45), --only pull,model,export,audit,bundle

import path from 'node:path';
import { Bench, type BenchConfig } from './harness';
import type { ScenarioResult } from './figures';
import { bundleTable, configLine, formatMs, scenarioTable, writeResults } from './report';
import { auditScenarios } from './scenarios/audit';
import { bundleFigures, type BundleFigures } from './scenarios/bundle';
import { exportScenarios } from './scenarios/export';
import { modelSheetScenarios } from './scenarios/model-sheet';
import { pullScenarios } from './scenarios/pull';

const SCENARIOS: Record<string, (bench: Bench) => Promise<ScenarioResult[]>> = {
  pull: pullScenarios,
  model: modelSheetScenarios,
  export: exportScenarios,
  audit: auditScenarios,
};

function parseFlags(argv: string[]): BenchConfig {
  const config: BenchConfig = { latencyMs: 80, rateLimit: 75, rateWindowSeconds: 45, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const number = (): number => {
      const parsed = Number(value);
      if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${flag} needs a positive number`);
      i++;
      return parsed;
    };
    if (flag === '--latency') config.latencyMs = number();
    else if (flag === '--rate-limit') config.rateLimit = Math.floor(number());
    else if (flag === '--rate-window') config.rateWindowSeconds = number();
    else if (flag === '--only' && value) {
      config.only = value.split(',').map((name) => name.trim()).filter(Boolean);
      i++;
      const unknown = config.only.filter((name) => name !== 'bundle' && !(name in SCENARIOS));
      if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}: use ${[...Object.keys(SCENARIOS), 'bundle'].join(', ')}`);
    } else throw new Error(`unknown flag ${flag}. Flags: --latency MS, --rate-limit N, --rate-window S, --only ${[...Object.keys(SCENARIOS), 'bundle'].join(',')}`);
  }
  return config;
}

async function main(): Promise<void> {
  const config = parseFlags(process.argv.slice(2));
  const wanted = (name: string): boolean => config.only.length === 0 || config.only.includes(name);
  const started = performance.now();
  const date = new Date();
  const results: ScenarioResult[] = [];
  let bundle: BundleFigures | null = null;

  if (wanted('bundle')) bundle = bundleFigures();
  const names = Object.keys(SCENARIOS).filter(wanted);
  if (names.length > 0) {
    const bench = await Bench.start(config);
    try {
      for (const name of names) {
        const scenarioStart = performance.now();
        process.stderr.write(`bench: ${name}…`);
        results.push(...(await SCENARIOS[name]!(bench)));
        process.stderr.write(` ${formatMs(performance.now() - scenarioStart)} real\n`);
      }
    } finally {
      await bench.stop();
    }
  }

  const realMs = performance.now() - started;
  const output = [configLine(config, date), ''];
  if (results.length > 0) output.push(scenarioTable(results), '');
  if (bundle) output.push(bundleTable(bundle), '');
  output.push(`Total real time of the run: ${formatMs(realMs)}.`);
  process.stdout.write(`${output.join('\n')}\n`);
  writeResults(path.join(__dirname, 'results.json'), { date, config, results, bundle, realMs });
}

main().catch((error: unknown) => {
  process.stderr.write(`\nbench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});
