// Scenario: what an audit of a 50-company fund with 20 properties must read (profiles, properties,
// every profile's values, the options of select properties), naively and at the floor.

import type { GasRuntime } from '../../gas-runtime';
import type { Bench, Measured } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, pendingRow, withRatios, type Row, type ScenarioResult } from '../figures';
import { createFund, type FundData } from '../fixtures';

const PROFILES = 50;
const PROPERTIES = 20;
/** Lists other than data points hold 25 items per page (contract/openapi.yaml). */
const LIST_PAGE = 25;

/** What an audit read: counts of each kind of record. */
interface AuditRead {
  profiles: number;
  properties: number;
  options: number;
  values: number;
}

/**
 * LEAD: the add-in's audit, once its server function is wired (src/core/audit). Replace the body with the
 * call the sidebar makes, e.g. `rpcValue(rt.callServer('auditFund', [fund.companyId]))`, driven to its end
 * like the export if it runs in steps, and return what it read. Until then it returns null and the
 * table shows the add-in's row as not measured.
 */
function auditWithAddin(rt: GasRuntime, fund: FundData): AuditRead | null {
  void rt;
  void fund;
  return null;
}

function readNote(read: AuditRead, fund: FundData): string {
  const expected: AuditRead = { profiles: fund.profiles, properties: fund.properties, options: fund.options, values: fund.values };
  const off = (Object.keys(expected) as Array<keyof AuditRead>).filter((key) => read[key] !== expected[key]);
  return off.length === 0 ? '' : `read ${off.map((key) => `${read[key]} ${key} (not ${expected[key]})`).join(', ')}. `;
}

export async function auditScenarios(bench: Bench): Promise<ScenarioResult[]> {
  const fund = await createFund(bench.emulator, PROFILES, PROPERTIES);
  const latency = bench.config.latencyMs;

  const addin = await bench.addinRuntime();
  const addinRun: Measured<AuditRead | null> = await bench.measure(addin, () => auditWithAddin(addin, fund));
  const addinRow: Row = addinRun.value
    ? measuredRow('add-in', addinRun, readNote(addinRun.value, fund))
    : pendingRow('add-in', 'not wired yet: see auditWithAddin in bench/scenarios/audit.ts');

  const clients = await bench.scriptRuntime(benchClientsSource());
  const concurrent = await bench.measure(clients, () => clients.run('floorAudit', [fund.companyId]) as AuditRead & { roundTrips: number });
  const naive = await bench.measure(clients, () => clients.run('naiveAudit', [fund.companyId]) as AuditRead);

  const listPages = (n: number): number => Math.max(1, Math.ceil(n / LIST_PAGE));
  const floorRequests = listPages(fund.profiles) + listPages(fund.properties) + fund.profiles + fund.selectProperties;
  const floorRoundTrips = 1 + (listPages(fund.profiles) > 1 || listPages(fund.properties) > 1 ? 1 : 0) + 1;
  const baseline = measuredRow('baseline', naive, readNote(naive.value, fund));
  return [
    {
      id: 'audit',
      title: `Audit reads, fund of ${PROFILES} companies × ${PROPERTIES} properties`,
      rows: withRatios([
        addinRow,
        measuredRow('floor client', concurrent, `${readNote(concurrent.value, fund)}${concurrent.value.roundTrips} fetchAll rounds`),
        baseline,
        floorRow(floorRequests, floorRoundTrips * latency, `profiles ${listPages(fund.profiles)} + properties ${listPages(fund.properties)} pages, ${fund.profiles} values, ${fund.selectProperties} options; ${floorRoundTrips} round trips`),
      ]),
    },
  ];
}
