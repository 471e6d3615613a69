// The metrics tab's insert at the active cell: a live METRIC_VALUES formula, or a snapshot of its values (snapshots.ts).

import { InputError } from '../core/errors';
import { metricValuesFormula } from '../core/sheets/formula-text';
import { isIsoDate } from '../core/validate/dates';
import { requireUuid } from '../core/validate/uuid';
import { CONNECTED_NOW } from '../core/settings/shared-drive';
import { callerIsOwner } from '../gas/ownership';
import { decidingFormulaAccess, isOwnerless } from '../gas/shared-drive-connection';
import { activeAnchor, writeFormula, type CellAnchor } from '../gas/sheet-io';
import { addFormulaAccess } from '../gas/user-settings';
import type { InsertReport, InsertRequest } from '../shared/rpc';
import { insertMetricSnapshot } from './snapshots';

function optionalIsoDate(value: string | null, what: string): string | undefined {
  if (value === null || value === '') return undefined;
  if (!isIsoDate(value)) throw new InputError(`${what} must be a date like 2024-01-31.`);
  return value;
}

/**
 * Writes a live formula at the anchor (Metrics and Portfolio tabs). The owner's insert lets formulas here read the
 * company; unknown ownership writes the caller's own list, which counts only if they are the owner.
 */
export function insertFormula(anchor: CellAnchor, formula: string, companyId: string): InsertReport {
  const range = `${anchor.sheetName}!${writeFormula(anchor, formula)}`;
  return { range, rows: 0, message: `Inserted ${formula} at ${range}. It updates with "Refresh data".${allowFormulasToRead(companyId)}` };
}

/**
 * After live formulas of a company are written: lets formulas here read it, and says so (or nothing). In a Shared
 * Drive file the person who connected it decides, and an insert by the first person to decide connects it.
 */
export function allowFormulasToRead(companyId: string): string {
  const mayRead = ` Formulas in this spreadsheet may now read company ${companyId}'s data.`;
  if (isOwnerless()) {
    // Someone else connected the file: the formula stays, reading their list, as an editor's insert in an owned file.
    return decidingFormulaAccess(
      INSERTING,
      (connectedNow) => (connectedNow ? CONNECTED_NOW : '') + (addFormulaAccess(companyId) ? mayRead : ''),
      () => '',
    );
  }
  const added = callerIsOwner() !== false && addFormulaAccess(companyId);
  return added ? mayRead : '';
}

const INSERTING = 'inserting a formula';

export function insertMetricValues(request: InsertRequest): InsertReport {
  const ids = request.metricIds.map((id) => requireUuid(id, 'A metric id'));
  if (ids.length === 0) throw new InputError('Choose at least one metric.');
  // A snapshot has always checked the company before the dates and the active cell; a formula after them.
  const snapshotCompanyId = request.mode === 'formula' ? undefined : requireUuid(request.companyId, 'The company id');
  const start = optionalIsoDate(request.startDate, 'The start date');
  const end = optionalIsoDate(request.endDate, 'The end date');
  const anchor = activeAnchor();
  const companyId = snapshotCompanyId ?? requireUuid(request.companyId, 'The company id');
  const headers = request.headers || ids.length > 1;
  if (request.mode !== 'formula') return insertMetricSnapshot(anchor, { metricIds: ids, companyId, startDate: start, endDate: end, headers });
  return insertFormula(anchor, metricValuesFormula({ metricIds: ids, startDate: start, endDate: end, headers }), companyId);
}
