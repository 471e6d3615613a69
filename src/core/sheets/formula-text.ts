// Formulas the sidebar writes into cells, from validated ids and dates only.

import { InputError } from '../errors';
import { requireUuid } from '../validate/uuid';
import { isIsoDate } from '../validate/dates';

export interface MetricValuesFormula {
  metricIds: readonly string[];
  startDate?: string | null;
  endDate?: string | null;
  headers?: boolean;
}

/**
 * =METRIC_VALUES("id", "start", "end", "options"), several ids as a column {"a";"b"}. Every piece is a
 * validated UUID or date, so nothing can break out of its string.
 */
export function metricValuesFormula(spec: MetricValuesFormula): string {
  const ids = spec.metricIds.map((id) => requireUuid(id, 'A metric id'));
  if (ids.length === 0) throw new InputError('Choose at least one metric.');
  for (const date of [spec.startDate, spec.endDate]) {
    if (date && !isIsoDate(date)) throw new InputError(`"${date}" is not a date like 2024-01-31.`);
  }
  const idArg = ids.length === 1 ? `"${ids[0]}"` : `{${ids.map((id) => `"${id}"`).join(';')}}`;
  const args = [idArg, `"${spec.startDate ?? ''}"`, `"${spec.endDate ?? ''}"`];
  const wantsHeaders = spec.headers ?? ids.length > 1;
  // Several metrics get headers by default; one metric only when asked.
  if (wantsHeaders && ids.length === 1) args.push('"headers"');
  if (!wantsHeaders && ids.length > 1) throw new InputError('Several metrics always come with a header row naming them.');
  while (args.length > 1 && args[args.length - 1] === '""') args.pop();
  return `=METRIC_VALUES(${args.join(', ')})`;
}
