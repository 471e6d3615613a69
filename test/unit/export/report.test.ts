// The report: every item accounted for, one summary sentence, a status column beside the range, JSON-safe.

import { parseExportSpec } from '../../../src/core/export/spec';
import { previewExport } from '../../../src/core/export/preview';
import { buildReport } from '../../../src/core/export/report';
import type { ExportPreview, ExportProgress, ExportReport, ExportSpec, ExportState } from '../../../src/core/export/types';
import type { Json } from '../../../src/shared/rpc';
import { dateCell, harness, longSpec, prepare, put, REVENUE } from './export-fixtures';

describe('the report', () => {
  const values = [
    ['Date', 'Revenue'],
    ['2024-01-01', 10],
    ['', ''],
    ['2024-02-15', 11],
    ['2024-03-01', ''],
    ['2024-04-01', '1,234'],
  ];

  it('gives one status per range row, header and empty rows included, each starting with a word', () => {
    const state = prepare(values, longSpec({ hasHeaderRow: true, offPeriod: 'normalise' }), { origin: { row: 10, column: 3 } });
    const { state: done } = harness([put(REVENUE)]).step(state);
    const report = buildReport(done);
    expect(report.statusColumn).toEqual([
      'Export status',
      'created',
      '',
      'created (2024-02-15 moved to 2024-02-01, the start of its monthly period)',
      'skipped: blank value',
      'failed: the value must be a number or decimal text like 1234.5, but it is "1,234"',
    ]);
    expect(report.statusColumn.every((text) => !/^[=+\-@]/.test(text))).toBe(true);
    expect(report).toMatchObject({ rowsRead: 4, itemsRead: 4, emptyRows: 1, status: 'done', problem: null });
    expect(report.totals).toEqual({ created: 2, updated: 0, written: 0, unchanged: 0, skipped: 1, failed: 1, pending: 0 });
    expect(report.items[1]).toEqual({
      row: 4,
      column: 2,
      cell: 'D13',
      metricId: REVENUE,
      metricName: 'Revenue',
      date: '2024-02-01',
      value: '11',
      outcome: 'created',
      reason: null,
      note: '2024-02-15 moved to 2024-02-01, the start of its monthly period',
    });
  });

  it('says when there is nothing to export', () => {
    const report = buildReport(
      prepare(
        [
          ['', ''],
          ['', ''],
        ],
        longSpec(),
      ),
    );
    expect(report.summary).toBe('0 rows read: nothing to export.');
    expect(report.status).toBe('done');
    expect(report.statusColumn).toEqual(['', '']);
  });

  it('previews what was read, beside what the user sees, before anything is sent', () => {
    const display = [
      ['Date', 'Revenue'],
      ['1/1/2024', '10.00'],
      ['', ''],
      ['2/15/2024', '11'],
      ['3/1/2024', ''],
      ['4/1/2024', '1,234'],
    ];
    const withDates = values.map((row, i) => (i === 1 ? [dateCell('2024-01-01'), 10] : row));
    const preview = previewExport(prepare(withDates, longSpec({ hasHeaderRow: true })), display, 2);
    expect(preview.summary).toBe('4 rows read: 1 to send, 1 skipped, 2 failed.');
    expect(preview.sample[0]).toMatchObject({
      cell: 'B2',
      date: '2024-01-01',
      value: '10',
      shownDate: '1/1/2024',
      shownValue: '10.00',
      outcome: 'pending',
      reason: null,
    });
    expect(preview.problems.map((item) => item.reason)).toEqual(['2024-02-15 is not the start of a monthly period: use 2024-02-01', 'blank value']);
    expect(preview.columns).toEqual([{ letter: 'B', header: REVENUE, metricId: REVENUE, metricName: 'Revenue', frequency: 'monthly', error: null }]);
  });

  it('is JSON-safe: what crosses google.script.run comes back equal', () => {
    const state = prepare(values, longSpec({ hasHeaderRow: true }));
    const { state: done, progress } = harness([put(REVENUE)]).step(state);
    const report = buildReport(done);
    const preview = previewExport(done);
    // Compile-time: each record is assignable to the RPC layer's Json type.
    const json: Json[] = [report as ExportReport, preview as ExportPreview, progress as ExportProgress, done as ExportState, longSpec() as ExportSpec];
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
});

describe('the export options from the sidebar', () => {
  it('fills defaults and checks each option', () => {
    expect(parseExportSpec({ layout: 'long', metricId: ` ${REVENUE} ` })).toEqual({
      layout: 'long',
      metricId: REVENUE,
      hasHeaderRow: false,
      skipBlanks: true,
      duplicates: 'reject',
      offPeriod: 'reject',
      onlyChanged: true,
    });
    expect(parseExportSpec({ layout: 'wide' })).toMatchObject({ layout: 'wide', hasHeaderRow: true });
    expect(() => parseExportSpec({ layout: 'tall' })).toThrow('The export option layout must be one of long, wide.');
    expect(() => parseExportSpec({ layout: 'wide', skipBlanks: 'yes' })).toThrow('The export option skipBlanks must be true or false.');
    expect(() => parseExportSpec({ layout: 'long' })).toThrow('Choose the metric the values belong to.');
    expect(() => parseExportSpec(null)).toThrow('The export options are missing.');
  });
});
