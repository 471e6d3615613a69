import { midnightIn, midnightMaker } from '../../src/core/sheets/time-zone';
import { prepareExport } from '../../src/core/export/export-state';
import type { ExportSpec } from '../../src/core/export/types';
import { intlDateFormatter } from '../../src/core/validate/dates';

/** The calendar day and time a wall clock in `timeZone` shows at `instant`, as Sheets would show the date cell. */
const formats = new Map<string, Intl.DateTimeFormat>();
function wallClock(instant: Date, timeZone: string): string {
  const format =
    formats.get(timeZone) ??
    new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
  formats.set(timeZone, format);
  const parts = format.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

describe('midnightIn', () => {
  // Daylight saving that starts at midnight: 00:00 does not exist on these days, the day begins at 01:00.
  it.each([
    ['America/Asuncion', '2023-10-01'],
    ['America/Santiago', '2023-09-03'],
    ['America/Havana', '2023-03-12'],
    ['Atlantic/Azores', '2023-03-26'],
    ['America/Sao_Paulo', '2018-11-04'],
  ])('shows %s %s as that day, never 23:00 the day before', (timeZone, isoDate) => {
    const cell = midnightIn(isoDate, timeZone);
    expect(wallClock(cell, timeZone)).toBe(`${isoDate} 01:00`);
    expect(wallClock(new Date(cell.getTime() - 1), timeZone).slice(0, 10)).not.toBe(isoDate);
  });

  it('is the first instant of every day of five years in zones with odd daylight saving', () => {
    const zones = [
      'America/Asuncion',
      'America/Santiago',
      'America/Havana',
      'Atlantic/Azores',
      'Asia/Beirut',
      'Africa/Cairo',
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Pacific/Chatham',
      'UTC',
    ];
    for (const timeZone of zones) {
      const cellOf = midnightMaker(timeZone);
      for (let day = Date.UTC(2019, 0, 1); day < Date.UTC(2024, 0, 1); day += 86_400_000) {
        const isoDate = new Date(day).toISOString().slice(0, 10);
        const cell = cellOf(isoDate);
        const shown = wallClock(cell, timeZone);
        if (shown.slice(0, 10) !== isoDate) throw new Error(`${timeZone} ${isoDate} shows as ${shown}`);
        const before = wallClock(new Date(cell.getTime() - 60_000), timeZone);
        if (before.slice(0, 10) === isoDate) throw new Error(`${timeZone} ${isoDate} began before ${shown}`);
      }
    }
  });
});

describe('a pasted-back export in a zone whose midnight does not exist', () => {
  it('writes October 2023 to October with move to period start', () => {
    const timeZone = 'America/Asuncion';
    const cellOf = midnightMaker(timeZone);
    const metric = { id: '0b000000-0000-4000-8000-000000000001', name: 'Revenue', frequency: 'monthly', unit: 'USD' };
    const spec: ExportSpec = {
      layout: 'long',
      metricId: metric.id,
      hasHeaderRow: false,
      skipBlanks: true,
      duplicates: 'reject',
      offPeriod: 'normalise',
      onlyChanged: false,
    };
    const values = [
      [cellOf('2023-09-01'), 90],
      [cellOf('2023-10-01'), 100],
    ];
    const state = prepareExport({ range: { values }, spec, metrics: [metric], timeZone, formatDate: intlDateFormatter });
    expect(state.items.map(({ date, value, note }) => ({ date, value, note }))).toEqual([
      { date: '2023-09-01', value: '90', note: undefined },
      { date: '2023-10-01', value: '100', note: undefined },
    ]);
  });
});
