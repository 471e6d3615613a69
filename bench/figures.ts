// The figures a scenario reports: one row per way of doing the work (the add-in, the naive baseline,
// the floor), and the ratios of each to the baseline and to the floor.

import type { Measured } from './harness';

export type Variant = 'add-in' | 'baseline' | 'floor' | string;

/** One way of doing a scenario's work, and what it cost. */
export interface Row {
  variant: Variant;
  requests: number | null;
  rateLimited: number | null;
  /** Simulated wall time, ms (see Measured.simMs); computed for the floor. */
  simMs: number | null;
  realMs: number | null;
  /** this ÷ baseline and this ÷ floor, for requests and for time; null where a side is missing or 0. */
  vsBaseline: Ratios | null;
  vsFloor: Ratios | null;
  note: string;
  /** Scenario-specific figures (throughput, per-cell time, …) for results.json. */
  extra: Record<string, number | string | boolean | null>;
}

export interface Ratios {
  requests: number | null;
  time: number | null;
}

/** A scenario's rows, in table order. */
export interface ScenarioResult {
  id: string;
  title: string;
  rows: Row[];
}

/** A measured run as a row (ratios filled in later by withRatios). */
export function measuredRow(variant: Variant, measured: Measured<unknown>, note = '', extra: Row['extra'] = {}): Row {
  const failures = measured.failed > 0 ? `${measured.failed} failed requests. ` : '';
  return {
    variant,
    requests: measured.requests,
    rateLimited: measured.rateLimited,
    simMs: measured.simMs,
    realMs: measured.realMs,
    vsBaseline: null,
    vsFloor: null,
    note: failures + note,
    extra,
  };
}

/** The floor: the fewest requests and the least time the API allows, computed, not measured. */
export function floorRow(requests: number, simMs: number, note: string, extra: Row['extra'] = {}): Row {
  return { variant: 'floor', requests, rateLimited: 0, simMs, realMs: null, vsBaseline: null, vsFloor: null, note, extra };
}

/** A row for work that cannot be measured yet, saying why. */
export function pendingRow(variant: Variant, note: string): Row {
  return { variant, requests: null, rateLimited: null, simMs: null, realMs: null, vsBaseline: null, vsFloor: null, note, extra: {} };
}

/** Fills in every row's ratios to the scenario's baseline and floor rows (given or found by variant). */
export function withRatios(rows: Row[], baseline = rows.find((r) => r.variant === 'baseline'), floor = rows.find((r) => r.variant === 'floor')): Row[] {
  return rows.map((row) => ({
    ...row,
    vsBaseline: baseline && row !== baseline ? ratios(row, baseline) : null,
    vsFloor: floor && row !== floor ? ratios(row, floor) : null,
  }));
}

function ratios(row: Row, reference: Row): Ratios | null {
  if (row.requests === null && row.simMs === null) return null;
  return { requests: divide(row.requests, reference.requests), time: divide(row.simMs, reference.simMs) };
}

function divide(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : a / b;
}

/** Requests a pull of `points` data points needs at 100 per page. */
export function pagesOf(points: number, pageSize: number): number {
  return Math.max(1, Math.ceil(points / pageSize));
}

/** Round trips a paginated read needs at best: page 1 alone (it reveals the page count), then the rest together. */
export function paginatedRoundTrips(pages: number): number {
  return pages > 1 ? 2 : 1;
}

/**
 * Least time `requests` requests can take under a fixed-window limit, from the start of a fresh window:
 * each full window after the first is waited for, plus the round trips themselves.
 */
export function rateFloorMs(requests: number, limit: number, windowSeconds: number, roundTripsMs: number): number {
  return Math.max(0, Math.ceil(requests / limit) - 1) * windowSeconds * 1000 + roundTripsMs;
}

/** Table order within a scenario: the add-in's runs, the floor client, the baseline, the floor. */
function rank(variant: Variant): number {
  if (variant === 'floor') return 3;
  if (variant === 'baseline') return 2;
  if (variant === 'floor client') return 1;
  return 0;
}

/**
 * Joins the rows that separate processes measured for the same scenarios (one process per side), in
 * order of first appearance; a row computed by several (the floor) is kept once. Ratios are filled in here.
 */
export function mergeResults(parts: ScenarioResult[][]): ScenarioResult[] {
  const merged = new Map<string, ScenarioResult>();
  for (const result of parts.flat()) {
    const known = merged.get(result.id);
    if (!known) {
      merged.set(result.id, { ...result, rows: [...result.rows] });
      continue;
    }
    for (const row of result.rows) if (!known.rows.some((r) => r.variant === row.variant)) known.rows.push(row);
  }
  return [...merged.values()].map((result) => ({
    ...result,
    rows: withRatios([...result.rows].sort((a, b) => rank(a.variant) - rank(b.variant))),
  }));
}
