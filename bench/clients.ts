// The scripts the benchmark runs beside the add-in: its own clients.

import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The naive baseline, the audit's floor client and a warm-up, as one Apps Script project. */
export function benchClientsSource(): string {
  return ['naive-baseline.js', 'floor-audit.js', 'warm-up.js'].map((file) => readFileSync(path.join(__dirname, 'clients', file), 'utf8')).join('\n');
}
