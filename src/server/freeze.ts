// Freeze and Make live: the selected add-in formulas become values (a shared copy then stops
// recalculating and spending the owner's connection), and come back on request. Snapshot tables
// (snapshots.ts) share the lock (gas/cache-and-lock.ts) and the check for cells a person typed into
// (gas/sheet-io.ts).

import { isBlank } from '../core/formulas/arguments';
import { findAddinFormulas } from '../core/formulas/names';
import {
  FROZEN_KEY_PREFIX,
  MAX_FROZEN_CELLS,
  MAX_RECORD_BYTES,
  MAX_STORE_BYTES,
  apiHost,
  decodeRecord,
  fingerprints,
  frozenNote,
  listCells,
  type FrozenRecord,
} from '../core/formulas/freeze';
import { ADDIN_NAME } from '../core/product';
import { countOf } from '../shared/words';
import { withDocumentLock } from '../gas/cache-and-lock';
import { writeOwnFormula, typedCells, writeValues } from '../gas/sheet-io';
import { readSettingsSummary } from '../gas/user-settings';
import type { FreezeReport, ThawReport } from '../shared/rpc';

type Range = GoogleAppsScript.Spreadsheet.Range;

/** What getValues gives for a cell showing an error: it is left live, as freezing it would keep nothing worth keeping. */
const ERROR_VALUE = /^#(ERROR!|REF!|NAME\?|N\/A|VALUE!|DIV\/0!|NUM!|NULL!)$/;

/** A frozen range's document property; with no range, the prefix every frozen range of the sheet shares. */
function frozenKey(sheetId: number, range = ''): string {
  return `${FROZEN_KEY_PREFIX}${sheetId}!${range}`;
}

function byteLength(text: string): number {
  return Utilities.newBlob(text).getBytes().length;
}

/**
 * The selected add-in formulas become the values they show, with a note naming the formula, time and API
 * host. Apps Script gives no array formula's extent, so the formula is cleared, and the cells that empty
 * with it are its result (see docs/reference.md, "Freeze and Make live").
 */
export function freezeSelection(): FreezeReport {
  return withDocumentLock('freezing or thawing formulas', () => {
    const selection = SpreadsheetApp.getActiveRange();
    const sheet = selection.getSheet();
    const props = PropertiesService.getDocumentProperties();
    let storeBytes = Object.entries(props.getProperties()).reduce((sum, [key, value]) => sum + byteLength(key) + byteLength(value), 0);
    const host = apiHost(readSettingsSummary().baseUrl);
    const frozenAt = new Date().toISOString();
    const frozen: FreezeReport['frozen'] = [];
    const left: FreezeReport['left'] = [];

    for (const found of findAddinFormulas(selection.getFormulas())) {
      const row = selection.getRow() + found.row - 1;
      const column = selection.getColumn() + found.column - 1;
      const formula = found.formula;
      const cell = sheet.getRange(row, column);
      const shown = cell.getValue();
      if (typeof shown === 'string' && ERROR_VALUE.test(shown)) {
        left.push({ range: cell.getA1Notation(), reason: `it shows ${shown}` });
        continue;
      }
      const region = sheet.getRange(row, column, Math.max(1, sheet.getLastRow() - row + 1), Math.max(1, sheet.getLastColumn() - column + 1));
      const before = region.getValues();
      const priorNote = cell.getNote();
      cell.clearContent();
      SpreadsheetApp.flush();
      const after = region.getValues();
      let height = 1;
      let width = 1;
      before.forEach((cells, i) =>
        cells.forEach((value, j) => {
          if (!isBlank(value) && isBlank(after[i]![j])) {
            height = Math.max(height, i + 1);
            width = Math.max(width, j + 1);
          }
        }),
      );
      const values = before.slice(0, height).map((cells) => cells.slice(0, width));
      const target = sheet.getRange(row, column, height, width);
      const range = target.getA1Notation();
      const record: FrozenRecord = { v: 1, sheetId: sheet.getSheetId(), range, formula, frozenAt, host, priorNote, cells: fingerprints(values) };
      const key = frozenKey(record.sheetId, range);
      const text = JSON.stringify(record);
      const bytes = byteLength(key) + byteLength(text);
      const refusal =
        height * width > MAX_FROZEN_CELLS
          ? `its result has ${height * width} cells, more than the ${MAX_FROZEN_CELLS} one frozen range may hold`
          : byteLength(text) > MAX_RECORD_BYTES
            ? 'its formula is too long to record in the 9 kB a document property holds'
            : storeBytes + bytes > MAX_STORE_BYTES
              ? "this spreadsheet's document properties are full (500 kB); make some frozen ranges live first"
              : null;
      if (refusal) {
        // Put the formula back as it was: it recalculates once, as after any edit.
        writeOwnFormula(cell, formula);
        left.push({ range, reason: refusal });
        continue;
      }
      // Through the safe-cell path: a frozen METRICS() name reading "=IMPORTDATA(…)" stays the text it showed.
      writeValues(target, values);
      cell.setNote(frozenNote(record));
      props.setProperty(key, text);
      storeBytes += bytes;
      frozen.push({ range, formula });
    }
    const parts = frozen.length ? [`Froze ${countOf(frozen.length, 'formula')} into values: ${listCells(frozen.map((f) => f.range))}.`] : [];
    for (const { range, reason } of left) parts.push(`Left ${range} live: ${reason}.`);
    return { frozen, left, message: parts.join(' ') || `The selection holds no ${ADDIN_NAME} formula to freeze.` };
  });
}

function intersects(a: Range, b: Range): boolean {
  return a.getRow() <= b.getLastRow() && b.getRow() <= a.getLastRow() && a.getColumn() <= b.getLastColumn() && b.getColumn() <= a.getLastColumn();
}

/**
 * Puts back the formulas of the frozen ranges the selection touches, from the document properties (people
 * may edit the note). A range typed into since is left frozen, and the answer names the changed cells.
 */
export function thawSelection(): ThawReport {
  return withDocumentLock('freezing or thawing formulas', () => {
    const selection = SpreadsheetApp.getActiveRange();
    const sheet = selection.getSheet();
    const props = PropertiesService.getDocumentProperties();
    const prefix = frozenKey(sheet.getSheetId());
    const thawed: string[] = [];
    const refused: ThawReport['refused'] = [];
    for (const [key, text] of Object.entries(props.getProperties())) {
      const record = key.startsWith(prefix) ? decodeRecord(text) : null;
      if (!record) continue;
      const range = sheet.getRange(record.range);
      if (!intersects(range, selection)) continue;
      const cells = typedCells(range, record);
      if (cells.length) {
        refused.push({ range: record.range, cells });
        continue;
      }
      const anchor = sheet.getRange(range.getRow(), range.getColumn());
      // The frozen values would block the array result (#REF!): they go first.
      range.clearContent();
      writeOwnFormula(anchor, record.formula);
      anchor.setNote(record.priorNote || null);
      props.deleteProperty(key);
      thawed.push(record.range);
    }
    const parts = thawed.length ? [`Made ${countOf(thawed.length, 'range')} live again: ${listCells(thawed)}.`] : [];
    for (const { range, cells } of refused) {
      const one = cells.length === 1;
      parts.push(
        `Left ${range} frozen: ${listCells(cells)} changed after freezing, and the formula would overwrite ${one ? 'it' : 'them'}. Clear ${one ? 'that cell' : 'those cells'} (or put back the frozen value${one ? '' : 's'}), then try again.`,
      );
    }
    return { thawed, refused, message: parts.join(' ') || `The selection holds no range frozen by ${ADDIN_NAME}.` };
  });
}
