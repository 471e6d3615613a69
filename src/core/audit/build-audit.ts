// The audit sheet of a fund: one row per profile, one column per property, completeness, formatting and the snapshot.

import { columnLetters } from '../export/places';
import { companyLabels } from '../formulas/fund-cells';
import { NUMBER_FORMAT } from '../sheets/number-formats';
import { intlDateFormatter, type DateFormatter } from '../validate/dates';
import { cellForValue, encodeKey, isTextColumn, keyOfCell, KEY_SEPARATOR, type WrittenCell } from './cell-values';
import { AUTO_SUFFIX, HEADERS, IDS_MARKER, NAME_MARKER, SUMMARY_MARKERS, auditLayout, gridRange } from './layout';
import { auditOrder } from './load-audit-data';
import { fitCell, LIST_RULE_MAX_ITEMS } from './sheet-limits';
import type {
  AuditCell,
  AuditColumnSummary,
  AuditData,
  AuditFormatting,
  AuditLayout,
  AuditOption,
  AuditProperty,
  AuditRowSummary,
  AuditSheetModel,
  AuditSnapshot,
  AuditStoredValue,
  AuditSummary,
  AuditValidation,
  Completeness,
  GridRange,
} from './types';
import { PLAIN_TEXT_FORMAT } from '../sheets/cell-safety';

const READ_ONLY_BACKGROUND = '#efefef';
const BLANK_BACKGROUND = '#fff2cc';
const LABELS_IN_HELP = 12;
const SUMMARY_PARTS = ['filled', 'total', 'share'] as const;

/**
 * The audit sheet of a fund, from what loadAuditData read. `timeZone`: the spreadsheet's, date cells are
 * midnight there; `formatDate` only keys Date cells in the snapshot (Intl by default: the core has no Utilities).
 */
export function buildAuditModel(data: AuditData, options: { timeZone: string; formatDate?: DateFormatter }): AuditSheetModel {
  const { timeZone } = options;
  const formatDate = options.formatDate ?? intlDateFormatter;
  const properties = auditOrder(data.properties);
  const custom = properties.filter((property) => !property.autoCalculated).length;
  const layout = auditLayout(data.profiles.length, properties.length, custom);
  const grid: AuditCell[][] = Array.from({ length: layout.rows }, () => Array.from({ length: layout.columns }, (): AuditCell => ''));
  const put = (row: number, column: number, cell: AuditCell) => {
    grid[row - 1]![column - 1] = cell;
  };

  // The hidden id row and the header row.
  // The fund is named in the sheet's developer metadata (AUDIT_FUND_KEY), not in a cell.
  put(layout.idRow, layout.idColumn, IDS_MARKER);
  put(layout.idRow, layout.nameColumn, NAME_MARKER);
  put(layout.headerRow, layout.idColumn, HEADERS.profileId);
  put(layout.headerRow, layout.nameColumn, HEADERS.name);
  properties.forEach((property, index) => {
    const column = layout.firstPropertyColumn + index;
    put(layout.idRow, column, property.id);
    put(layout.headerRow, column, headerOf(property));
  });
  for (const part of SUMMARY_PARTS) {
    put(layout.idRow, layout.summaryColumns[part], SUMMARY_MARKERS[part]);
    put(layout.headerRow, layout.summaryColumns[part], HEADERS[part]);
    put(layout.summaryRows[part], layout.idColumn, SUMMARY_MARKERS[part]);
    put(layout.summaryRows[part], layout.nameColumn, HEADERS[part]);
  }

  // One row per profile; the snapshot keys every cell as it is written.
  const keys: string[] = [];
  const filledByColumn = properties.map(() => 0);
  const rows: AuditRowSummary[] = [];
  const blanks: Array<{ row: number; column: number }> = [];
  const cut: AuditSummary['cut'] = [];
  // Labels, as the fund's tables show them: two companies of one name carry their profile ids, in the sheet and so in
  // everything read from it (the push's report, the Pushes sheet, Undo).
  const labels = companyLabels(data.profiles);
  const labelOf = (profile: { id: string }) => labels.get(profile.id.toLowerCase())!;
  data.profiles.forEach((profile, index) => {
    const row = layout.firstProfileRow + index;
    put(row, layout.idColumn, profile.id);
    put(row, layout.nameColumn, labelOf(profile));
    const stored = data.values[profile.id] ?? {};
    const rowKeys: string[] = [];
    let filledCustom = 0;
    properties.forEach((property, position) => {
      const column = layout.firstPropertyColumn + position;
      const cell = auditCellOf(stored[property.id], property, data.options[property.id] ?? [], { timeZone, formatDate: options.formatDate });
      if (cell.cutFrom !== null)
        cut.push({ profileId: profile.id, name: labelOf(profile), propertyId: property.id, propertyName: property.name, row, column, length: cell.cutFrom });
      put(row, column, cell.written);
      const key = keyOfCell(cell.logical, timeZone, formatDate);
      rowKeys.push(encodeKey(key));
      if (key !== '') {
        filledByColumn[position]!++;
        if (!property.autoCalculated) filledCustom++;
      } else if (!property.autoCalculated) {
        blanks.push({ row, column });
      }
    });
    keys.push(rowKeys.join(KEY_SEPARATOR));
    const summary = completeness(filledCustom, custom);
    rows.push({ profileId: profile.id, name: labelOf(profile), row, ...summary });
    for (const part of SUMMARY_PARTS) put(row, layout.summaryColumns[part], summary[part] ?? '');
  });

  const columns: AuditColumnSummary[] = properties.map((property, position) => {
    const column = layout.firstPropertyColumn + position;
    const summary = completeness(filledByColumn[position] ?? 0, data.profiles.length);
    for (const part of SUMMARY_PARTS) put(layout.summaryRows[part], column, summary[part] ?? '');
    return {
      propertyId: property.id,
      name: property.name,
      dataType: property.dataType,
      autoCalculated: property.autoCalculated,
      column,
      letter: columnLetters(column),
      labels: (data.options[property.id] ?? []).map((option) => option.label),
      ...summary,
    };
  });

  const snapshot: AuditSnapshot = {
    v: 1,
    companyId: data.companyId,
    profiles: data.profiles.map((profile) => profile.id),
    properties: properties.map((property) => property.id),
    // As the name column and the header row show them: a push checks each row's and column's id against them.
    profileNames: data.profiles.map(labelOf),
    propertyNames: properties.map(headerOf),
    rows: keys,
    ...(cut.length > 0 ? { cut: cut.map((cell) => `${cell.profileId}/${cell.propertyId}`) } : {}),
  };
  return {
    values: grid,
    summary: {
      layout,
      columns,
      profiles: rows,
      overall: completeness(
        rows.reduce((sum, row) => sum + row.filled, 0),
        custom * data.profiles.length,
      ),
      blanks,
      cut,
      formatting: formattingOf(layout, columns, custom),
    },
    snapshot,
  };
}

/** A property's header-row text: an auto-calculated one is marked. */
function headerOf(property: AuditProperty): string {
  return property.autoCalculated ? `${property.name}${AUTO_SUFFIX}` : property.name;
}

/**
 * A stored value's cell exactly as the build writes it, for the build and for whatever later writes a value
 * into an audit sheet (a restored value): cellForValue, cut to what Sheets holds (fitCell). `cutFrom` is the
 * full length of a value written cut, else null. The snapshot keys the cut text, so an untouched cut cell is
 * unchanged, and write-back skips an edited one that still has the mark.
 */
export function auditCellOf(
  stored: AuditStoredValue | undefined,
  property: AuditProperty,
  options: readonly AuditOption[],
  dates: { timeZone: string; formatDate?: DateFormatter | undefined },
): WrittenCell & { cutFrom: number | null } {
  const cell = cellForValue(stored, property, options, dates.timeZone, dates.formatDate);
  if (typeof cell.logical !== 'string') return { ...cell, cutFrom: null };
  const fit = fitCell(cell.logical);
  if (!fit.cut) return { ...cell, cutFrom: null };
  return { logical: fit.text, written: cell.written === cell.logical ? fit.text : `'${fit.text}`, cutFrom: cell.logical.length };
}

function completeness(filled: number, total: number): Completeness {
  return { filled, total, share: total === 0 ? null : filled / total };
}

/** What the server does besides setValues; see AuditFormatting for how each part is applied. */
function formattingOf(layout: AuditLayout, columns: readonly AuditColumnSummary[], custom: number): AuditFormatting {
  const profiles = layout.lastProfileRow - layout.headerRow;
  const dataRows = (column: number) => gridRange(layout.firstProfileRow, column, profiles, 1);
  const numberFormats: AuditFormatting['numberFormats'] = [
    { range: gridRange(layout.idRow, 1, 2, layout.columns), format: PLAIN_TEXT_FORMAT },
    { range: gridRange(layout.idRow, layout.idColumn, layout.rows, 2), format: PLAIN_TEXT_FORMAT },
  ];
  const validations: AuditValidation[] = [];
  const dateColumns: GridRange[] = [];
  if (profiles > 0) {
    for (const column of columns) {
      if (isTextColumn(column.dataType)) numberFormats.push({ range: dataRows(column.column), format: PLAIN_TEXT_FORMAT });
      // A date column keeps the format Sheets gives the dates written into it (the sheet was cleared), as a
      // formula's dates show: one date format in every sheet (core/sheets/number-formats.ts).
      if (column.dataType === 'date') dateColumns.push(dataRows(column.column));
      if (column.dataType === 'number') numberFormats.push({ range: dataRows(column.column), format: NUMBER_FORMAT });
      if (column.autoCalculated) continue;
      if (column.dataType === 'boolean') validations.push({ kind: 'checkbox', range: dataRows(column.column) });
      const multiple = column.dataType === 'multiselect';
      if ((multiple || column.dataType === 'select') && column.labels.length > 0) {
        validations.push({
          // Over 500 labels Sheets refuses a list rule: the dropdown reads them from a range instead.
          kind: column.labels.length > LIST_RULE_MAX_ITEMS ? 'listFromRange' : 'list',
          propertyId: column.propertyId,
          range: dataRows(column.column),
          labels: column.labels,
          allowInvalid: multiple,
          helpText: multiple ? multiselectHelp(column) : `Pick one of the labels of ${column.name}.`,
        });
      }
    }
    numberFormats.push({ range: gridRange(layout.firstProfileRow, layout.summaryColumns.share, profiles, 1), format: '0%' });
  }
  if (columns.length > 0) numberFormats.push({ range: gridRange(layout.summaryRows.share, layout.firstPropertyColumn, 1, columns.length), format: '0%' });

  return {
    numberFormats,
    dateColumns,
    hiddenRows: [layout.idRow],
    hiddenColumns: [layout.idColumn],
    frozenRows: layout.headerRow,
    frozenColumns: layout.nameColumn,
    bold: [gridRange(layout.headerRow, 1, 1, layout.columns), gridRange(layout.summaryRows.filled, layout.nameColumn, 3, 1)],
    validations,
    readOnly: {
      ranges: layout.firstAutoColumn === null ? [] : [gridRange(layout.headerRow, layout.firstAutoColumn, profiles + 1, columns.length - custom)],
      background: READ_ONLY_BACKGROUND,
    },
    blankHighlight:
      profiles > 0 && custom > 0
        ? { range: gridRange(layout.firstProfileRow, layout.firstPropertyColumn, profiles, custom), background: BLANK_BACKGROUND }
        : null,
    filter: gridRange(layout.headerRow, layout.idColumn, profiles + 1, layout.columns),
  };
}

function multiselectHelp(column: AuditColumnSummary): string {
  const shown = column.labels.slice(0, LABELS_IN_HELP).join(' | ');
  const more = column.labels.length > LABELS_IN_HELP ? ` | … (${column.labels.length - LABELS_IN_HELP} more)` : '';
  return `Pick one label, or type several separated by commas, like "${column.labels.slice(0, 2).join(', ')}". Labels: ${shown}${more}.`;
}
