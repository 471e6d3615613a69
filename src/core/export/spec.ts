// The export's options as the sidebar sends them: checked at the boundary, defaults filled in.

import { InputError } from '../errors';
import type { ExportLayout, ExportSpec } from './types';

/** The defaults the sidebar starts with: blanks skipped, duplicates and off-period dates refused, only changes sent. */
function defaultExportSpec(layout: ExportLayout): ExportSpec {
  return { layout, hasHeaderRow: layout === 'wide', skipBlanks: true, duplicates: 'reject', offPeriod: 'reject', onlyChanged: true };
}

/**
 * Reads a spec that crossed google.script.run: anything missing takes its default, anything of the wrong
 * kind is refused with a sentence, so a page bug never becomes a silent choice.
 */
export function parseExportSpec(input: unknown): ExportSpec {
  if (typeof input !== 'object' || input === null) throw new InputError('The export options are missing.');
  const raw = input as Record<string, unknown>;
  const layout = oneOf(raw['layout'], ['long', 'wide'] as const, 'layout', undefined);
  const spec = defaultExportSpec(layout);
  spec.hasHeaderRow = flag(raw['hasHeaderRow'], 'hasHeaderRow', spec.hasHeaderRow);
  spec.skipBlanks = flag(raw['skipBlanks'], 'skipBlanks', spec.skipBlanks);
  spec.onlyChanged = flag(raw['onlyChanged'], 'onlyChanged', spec.onlyChanged);
  spec.duplicates = oneOf(raw['duplicates'], ['reject', 'last_wins'] as const, 'duplicates', spec.duplicates);
  spec.offPeriod = oneOf(raw['offPeriod'], ['reject', 'normalise'] as const, 'offPeriod', spec.offPeriod);
  const metricId = raw['metricId'];
  if (metricId !== undefined && metricId !== null && metricId !== '') {
    if (typeof metricId !== 'string') throw new InputError('The export option metricId must be text.');
    spec.metricId = metricId.trim();
  }
  if (spec.layout === 'long' && !spec.metricId) throw new InputError('Choose the metric the values belong to.');
  if (spec.layout === 'wide' && !spec.hasHeaderRow) throw new InputError('The wide layout needs a header row naming the metric of each column.');
  return spec;
}

function flag(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new InputError(`The export option ${name} must be true or false.`);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], name: string, fallback: T | undefined): T {
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InputError(`The export option ${name} must be one of ${allowed.join(', ')}.`);
}
