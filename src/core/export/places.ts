// How reasons name places: "row 14" in the long layout, "cell C14" in the wide one.

import { countOf, joinAnd } from '../../shared/words';
import type { ExportLayout, SheetPosition } from './types';

/** Names cells of the range the way the user sees them in the sheet. */
export type PlaceNamer = {
  one(place: SheetPosition): string;
  /** "row 12", "rows 12 and 14", "cells C12, C13 and D12". */
  many(places: readonly SheetPosition[]): string;
  /** The value cell in A1 notation, like C14. */
  cell(place: SheetPosition): string;
  /** The sheet letter of a range column. */
  letter(column: number): string;
};

/** The long layout has one value per row, so reasons name the row; the wide layout's name the cell. */
export function placeNamer(layout: ExportLayout, origin: SheetPosition): PlaceNamer {
  const sheetRow = (place: SheetPosition) => origin.row + place.row - 1;
  const letter = (column: number) => columnLetters(origin.column + column - 1);
  const cell = (place: SheetPosition) => `${letter(place.column)}${sheetRow(place)}`;
  const label = (place: SheetPosition) => (layout === 'long' ? String(sheetRow(place)) : cell(place));
  const noun = layout === 'long' ? 'row' : 'cell';
  return {
    one: (place) => `${noun} ${label(place)}`,
    many: (places) => `${noun}${places.length === 1 ? '' : 's'} ${joinAnd(places.map(label))}`,
    cell,
    letter,
  };
}

/** 1 → A, 26 → Z, 27 → AA. */
export function columnLetters(column: number): string {
  let n = Math.max(1, Math.floor(column));
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** Items counted as the layout reads them: rows in the long layout, values (cells) in the wide one. */
export function countItems(layout: ExportLayout, count: number): string {
  return countOf(count, layout === 'long' ? 'row' : 'value');
}
