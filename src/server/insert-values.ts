// The metrics tab's insert at the active cell: a live METRIC_VALUES formula, or a snapshot of its values (snapshots.ts).

import { InputError } from '../core/errors';
import { metricValuesFormula } from '../core/sheets/formula-text';
import { isIsoDate } from '../core/validate/dates';
import { requireUuid } from '../core/validate/uuid';
import { callerIsOwner } from '../gas/ownership';
import { activeAnchor, writeFormula } from '../gas/sheet-io';
import { addFormulaAccess, readFormulaAccess } from '../gas/user-settings';
import type { InsertReport, InsertRequest } from '../shared/rpc';
import { insertMetricSnapshot } from './snapshots';

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
  const companyId = requireUuid(request.companyId, 'The company id');
  const headers = request.headers || ids.length > 1;
  if (request.mode === 'formula') {
    const formula = metricValuesFormula({ metricIds: ids, startDate: start, endDate: end, headers });
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
  return insertMetricSnapshot(anchor, { metricIds: ids, companyId, startDate: start, endDate: end, headers });
}
