// The scripts the benchmark runs beside the add-in: its own clients, and the add-in with its rate budget
// set to the emulator's scaled limit.

import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The naive baseline, the audit's floor client and a warm-up, as one Apps Script project. */
export function benchClientsSource(): string {
  return ['naive-baseline.js', 'floor-audit.js', 'warm-up.js'].map((file) => readFileSync(path.join(__dirname, 'clients', file), 'utf8')).join('\n');
}

const BUDGET = /(DEFAULT_RATE_LIMIT\s*=\s*\{\s*limit:\s*)\d+(\s*,\s*windowMs:\s*)[^}]+\}/;

/**
 * dist/Code.js with its rate budget set to `limit` requests per `windowSeconds` instead of the API's
 * 500 per 5 minutes. The budget is a constant of the bundle (src/core/api/rate-budget.ts, not passed by
 * src/server/api-factory.ts), so this rewrites it in memory; null when the constant is not found.
 */
export function bundleWithRateBudget(bundle: string, limit: number, windowSeconds: number): string | null {
  if (!BUDGET.test(bundle)) return null;
  return bundle.replace(BUDGET, `$1${limit}$2${windowSeconds * 1000} }`);
}
