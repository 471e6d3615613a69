// Scenario: the audit of a 50-company fund with 20 properties. It must read the profiles, the properties,
// every profile's values and the options of select properties: the add-in's build, a naive client's
// sequential reads and a concurrent floor client, side by side.

import type { GasRuntime } from '../../gas-runtime';
import type { AuditBuildReport } from '../../src/shared/rpc';
import { rpcValue, type Bench, type Side } from '../harness';
import { benchClientsSource } from '../clients';
import { floorRow, measuredRow, type Row, type ScenarioResult } from '../figures';
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
 * The add-in's audit: the sidebar's "Build audit" (the server function buildAudit), which reads the fund
 * in as few round trips as the lists allow and writes the audit sheet. Its report counts profiles and
 * property columns only; options and values are taken as read when those two match. LEAD: if the
 * audit's entry point changes (a step-driven build, another name), this is the one place to change.
 */
function auditWithAddin(rt: GasRuntime, fund: FundData): AuditRead {
  const report = rpcValue<AuditBuildReport>(rt.callServer('buildAudit', [fund.companyId]));
  const complete = report.profiles === fund.profiles && report.properties === fund.properties;
  return { profiles: report.profiles, properties: report.properties, options: complete ? fund.options : 0, values: complete ? fund.values : 0 };
}

function readNote(read: AuditRead, fund: FundData): string {
  const expected: AuditRead = { profiles: fund.profiles, properties: fund.properties, options: fund.options, values: fund.values };
  const off = (Object.keys(expected) as Array<keyof AuditRead>).filter((key) => read[key] !== expected[key]);
  return off.length === 0 ? '' : `read ${off.map((key) => `${read[key]} ${key} (not ${expected[key]})`).join(', ')}. `;
}

export async function auditScenarios(bench: Bench, sides: readonly Side[]): Promise<ScenarioResult[]> {
  const fund = await createFund(bench.emulator, PROFILES, PROPERTIES);
  const rows: Row[] = [];

  if (sides.includes('addin')) {
    const addin = await bench.addinRuntime();
    const run = await bench.measure(addin, () => auditWithAddin(addin, fund));
    rows.push(measuredRow('add-in', run, `${readNote(run.value, fund)}buildAudit: reads, then writes the audit sheet`));
  }

  if (sides.includes('baseline')) {
    const clients = await bench.scriptRuntime(benchClientsSource());
    const concurrent = await bench.measure(clients, () => clients.run('floorAudit', [fund.companyId]) as AuditRead & { roundTrips: number });
    const naive = await bench.measure(clients, () => clients.run('naiveAudit', [fund.companyId]) as AuditRead);
    rows.push(measuredRow('floor client', concurrent, `${readNote(concurrent.value, fund)}${concurrent.value.roundTrips} fetchAll rounds`));
    rows.push(measuredRow('baseline', naive, readNote(naive.value, fund)));
  }

  const listPages = (n: number): number => Math.max(1, Math.ceil(n / LIST_PAGE));
  const floorRequests = listPages(fund.profiles) + listPages(fund.properties) + fund.profiles + fund.selectProperties;
  const roundTrips = 1 + (listPages(fund.profiles) > 1 || listPages(fund.properties) > 1 ? 1 : 0) + 1;
  rows.push(
    floorRow(
      floorRequests,
      roundTrips * bench.config.latencyMs,
      `${listPages(fund.profiles)} + ${listPages(fund.properties)} list pages, ${fund.profiles} profiles' values, ${fund.selectProperties} properties' options; ${roundTrips} round trips`,
    ),
  );
  return [{ id: 'audit', title: `Audit of a fund of ${PROFILES} companies × ${PROPERTIES} properties`, rows }];
}
