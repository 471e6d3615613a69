// A profile's portfolio notes as a table: content read from `content`, dates as dates, text left for the safe writer.

import type { PortfolioNote } from '../../../src/core/api/types';
import { portfolioNotesTable } from '../../../src/core/directory/portfolio-notes-table';
import { asSafeRows } from '../../../src/core/sheets/cell-safety';
import { ACME } from './directory-fixtures';

const note = (id: string, overrides: Partial<PortfolioNote>): PortfolioNote => ({
  id,
  name: 'Board meeting',
  portfolio_company_profile_id: ACME,
  content: 'Agreed the budget.',
  created_at: '2025-01-06T09:30:00Z',
  ...overrides,
});

describe('portfolio notes as a table', () => {
  it("gives a header row, then name, content, created at as a Date and id, in the API's order", () => {
    const table = portfolioNotesTable([note('n1', {}), note('n2', { name: 'Call', created_at: '2024-12-01T00:00:00.123Z' })]);
    expect(table).toEqual([
      ['Name', 'Content', 'Created at', 'Id'],
      ['Board meeting', 'Agreed the budget.', new Date(Date.UTC(2025, 0, 6, 9, 30)), 'n1'],
      ['Call', 'Agreed the budget.', new Date(Date.UTC(2024, 11, 1, 0, 0, 0, 123)), 'n2'],
    ]);
    expect(portfolioNotesTable([])).toEqual([['Name', 'Content', 'Created at', 'Id']]);
  });

  it('shows a null content as an empty cell, not the deprecated plaintext_content', () => {
    const [, row] = portfolioNotesTable([note('n1', { content: null, plaintext_content: 'stale text' })]);
    expect(row![1]).toBe('');
  });

  it('reads plaintext_content only when content is absent altogether', () => {
    const oldShape = note('n1', { plaintext_content: 'from the old field' }) as Partial<PortfolioNote>;
    delete oldShape.content;
    const [, row] = portfolioNotesTable([oldShape as PortfolioNote]);
    expect(row![1]).toBe('from the old field');
  });

  it('keeps formula-like text as it is, for the server to write through asSafeRows as text', () => {
    const table = portfolioNotesTable([note('n1', { name: '=HYPERLINK("http://evil.example")', content: '+1 555 0100 called' })]);
    expect(table[1]!.slice(0, 2)).toEqual(['=HYPERLINK("http://evil.example")', '+1 555 0100 called']);
    expect(asSafeRows(table)[1]!.slice(0, 2)).toEqual(['\'=HYPERLINK("http://evil.example")', "'+1 555 0100 called"]);
  });

  it('leaves an unreadable date as the text it came as, and a missing one empty', () => {
    const table = portfolioNotesTable([note('n1', { created_at: 'yesterday' }), note('n2', { created_at: undefined })]);
    expect([table[1]![2], table[2]![2]]).toEqual(['yesterday', '']);
  });
});
