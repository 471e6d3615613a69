// The metrics tab's insert at the active cell: a live METRIC_VALUES formula, or its values as they are now.

import { InputError } from '../core/errors';
import { plural } from '../core/product';
import { metricValuesFormula } from '../core/sheets/formula-text';
import { parseTableOptions, shapeSeries } from '../core/sheets/metric-table';
import { midnightMaker } from '../core/sheets/time-zone';
import { isIsoDate } from '../core/validate/dates';
import { requireUuid } from '../core/validate/uuid';
import { callerIsOwner } from '../gas/ownership';
import { activeAnchor, writeFormula, writeTable } from '../gas/sheet-io';
import { spreadsheetTimeZone } from '../gas/spreadsheet-dates';
import { addFormulaAccess, readFormulaAccess } from '../gas/user-settings';
import type { InsertReport, InsertRequest } from '../shared/rpc';
import { sidebarClient } from './api-factory';

function optionalIsoDate(value: string | null, what: string): string | undefined {
  if (value === null || value === '') return undefined;
  if (!isIsoDate(value)) throw new InputError(`${what} must be a date like 2024-01-31.`);
  return value;
}

export function insertMetricValues(request: InsertRequest): InsertReport {
  const ids = request.metricIds.map((id) => requireUuid(id, 'A metric id'));
  if (ids.length === 0) throw new InputError('Choose at least one metric.');
  const start = optionalIsoDate(request.startDate, 'The start date');
  const end = optionalIsoDate(request.endDate, 'The end date');
  const anchor = activeAnchor();
  if (request.mode === 'formula') {
    const companyId = requireUuid(request.companyId, 'The company id');
    const formula = metricValuesFormula({ metricIds: ids, startDate: start, endDate: end, headers: request.headers || ids.length > 1 });
    const range = writeFormula(anchor, formula);
    // The owner's insert is their decision to let formulas here read this company. Unknown ownership
    // writes the caller's own list, which counts only if they are the owner.
    let access = '';
    if (callerIsOwner() !== false) {
      const before = readFormulaAccess();
      if (addFormulaAccess(companyId).length > before.length) access = ` Formulas in this spreadsheet may now read company ${companyId}'s data.`;
    }
    return { range: `${anchor.sheetName}!${range}`, rows: 0, message: `Inserted ${formula} at ${anchor.sheetName}!${range}. It updates with "Refresh data".${access}` };
  }
  const api = sidebarClient();
  const points = api.dataPoints.list(ids, { startDate: start, endDate: end });
  if (points.length === 0) throw new InputError('These metrics have no data points in that range: nothing was written.');
  const timeZone = spreadsheetTimeZone();
  const headers = request.headers || ids.length > 1;
  let names = ids;
  if (headers) {
    const byId = new Map(api.metrics.list(requireUuid(request.companyId, 'The company id')).map((m) => [m.id, m.name] as const));
    names = ids.map((id) => byId.get(id) ?? id);
  }
  const rows = shapeSeries(points, ids, names, parseTableOptions('', { headers }));
  const dateCell = midnightMaker(timeZone);
  const cells = rows.map((row, i) => (headers && i === 0 ? row : [dateCell(row[0] as string), ...row.slice(1)]));
  const range = writeTable(anchor, cells, [0]);
  const dataRows = rows.length - (headers ? 1 : 0);
  return { range: `${anchor.sheetName}!${range}`, rows: dataRows, message: `Wrote ${plural(dataRows, 'row')} of values to ${anchor.sheetName}!${range}.` };
}
