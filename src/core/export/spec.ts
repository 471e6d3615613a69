// The export's options as the sidebar sends them: checked at the boundary, defaults filled in.

import { InputError } from '../errors';
import type { ExportSpec } from './types';

type RawSpec = Record<string, unknown>;

/**
 * Reads a spec that crossed google.script.run: anything missing takes the sidebar's default (blanks
 * skipped, duplicates and off-period dates refused, only changes sent), anything of the wrong kind is
 * refused with a sentence, so a page bug never becomes a silent choice.
 */
export function parseExportSpec(input: unknown): ExportSpec {
  if (typeof input !== 'object' || input === null) throw new InputError('The export options are missing.');
  const raw = input as RawSpec;
  const layout = oneOf(raw, 'layout', ['long', 'wide'] as const, undefined);
  const spec: ExportSpec = {
    layout,
    hasHeaderRow: flag(raw, 'hasHeaderRow', layout === 'wide'),
    skipBlanks: flag(raw, 'skipBlanks', true),
    onlyChanged: flag(raw, 'onlyChanged', true),
    duplicates: oneOf(raw, 'duplicates', ['reject', 'last_wins'] as const, 'reject'),
    offPeriod: oneOf(raw, 'offPeriod', ['reject', 'normalise'] as const, 'reject'),
  };
  if (flag(raw, 'keepDifferent', false)) spec.keepDifferent = true;
  const metricId = raw['metricId'];
  if (metricId !== undefined && metricId !== null && metricId !== '') {
    if (typeof metricId !== 'string') throw new InputError('The export option metricId must be text.');
    spec.metricId = metricId.trim();
  }
  if (spec.layout === 'long' && !spec.metricId) throw new InputError('Choose the metric the values belong to.');
  if (spec.layout === 'wide' && !spec.hasHeaderRow) throw new InputError('The wide layout needs a header row naming the metric of each column.');
  return spec;
}

function flag(raw: RawSpec, name: string, fallback: boolean): boolean {
  const value = raw[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new InputError(`The export option ${name} must be true or false.`);
  return value;
}

function oneOf<T extends string>(raw: RawSpec, name: string, allowed: readonly T[], fallback: T | undefined): T {
  const value = raw[name];
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InputError(`The export option ${name} must be one of ${allowed.join(', ')}.`);
}
