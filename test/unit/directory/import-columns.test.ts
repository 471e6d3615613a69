// The header check an import makes before anything is sent: which headers it reads, which it would leave out.

import { checkContactColumns, checkProfileColumns, requireKnownHeaders } from '../../../src/core/directory';
import { InputError } from '../../../src/core/errors';
import { unsettledCell } from '../../../src/core/sheets/unsettled-cell';

describe('the header check of an import', () => {
  it('names each header it does not recognise with its column, and lists those it reads', () => {
    const check = checkContactColumns(['E-mail', 'First_name', '', 'Contact list names', 'Import status', 'Notes'], { row: 3, column: 2 });
    expect(check).toEqual({
      recognised: ['Email', 'First name', 'Last name', 'Title', 'Contact lists', 'Contact id'],
      unrecognised: ['E "Contact list names"', 'G "Notes"'],
    });
    expect(checkProfileColumns(['Name', 'Website URL', 'FYE month', 'Profile id'], { row: 1, column: 1 }).unrecognised).toEqual([]);
  });

  it('refuses such headers unless the person chose to ignore them', () => {
    const check = checkContactColumns(['Email', 'Contact list names'], { row: 1, column: 1 });
    expect(() => requireKnownHeaders(check, 'The contact import', false)).toThrow(
      new InputError(
        'The contact import does not recognise the header of B "Contact list names", so nothing in this column would be sent. ' +
          'Rename it to a recognised header (Email, First name, Last name, Title, Contact lists, Contact id), or choose to ignore this column.',
      ),
    );
    expect(() => requireKnownHeaders(check, 'The contact import', true)).not.toThrow();
    expect(() => requireKnownHeaders(checkContactColumns(['Email'], { row: 1, column: 1 }), 'The contact import', false)).not.toThrow();
  });
});

describe('a cell that is not data', () => {
  it.each([
    ['#N/A', 'shows the error #N/A'],
    [' #ERROR! ', 'shows the error #ERROR!'],
    ['Loading...', 'shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again'],
    ['loading…', 'shows "Loading…" (a custom function is still calculating): wait until it shows its value, then run this again'],
  ])('%p is refused', (cell, reason) => {
    expect(unsettledCell(cell)).toBe(reason);
  });

  it.each(['Loading', 'Loading... done', 42, '', 'N/A'])('%p is data', (cell) => {
    expect(unsettledCell(cell)).toBeUndefined();
  });
});
