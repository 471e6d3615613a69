// The colour rule every tab's status line follows: green only when nothing failed, was refused or is unknown.

import { jobLine, partialTone, summaryParts, toneOf } from '../../sidebar/outcome';

it('is green only when nothing failed, was refused, is unknown or was left unsent', () => {
  expect(toneOf({})).toBe('success');
  expect(toneOf({ failed: 0, refused: 0, unknown: 0, notSent: 0 })).toBe('success');
  expect(toneOf({ failed: 6 })).toBe('error');
  expect(toneOf({ refused: 1 })).toBe('error');
  expect(toneOf({ unknown: 1 })).toBe('error');
  expect(toneOf({ notSent: 3 })).toBe('warning');
  expect(toneOf({ failed: 1, notSent: 3 })).toBe('error');
  expect(toneOf({}, true)).toBe('error');
});

it('starts the line of a job that did not finish with how it stopped', () => {
  expect(jobLine('done', '3 rows read: 3 created.')).toBe('3 rows read: 3 created.');
  expect(jobLine('cancelled', '3 rows read: 1 created, 2 not sent (import cancelled).')).toBe(
    'Cancelled. 3 rows read: 1 created, 2 not sent (import cancelled).',
  );
  expect(jobLine('paused', '3 rows read: 3 not sent (import paused).')).toBe('Paused. 3 rows read: 3 not sent (import paused).');
});

describe('a partial success', () => {
  it('is partial when some counts were stored and some were not, and error when nothing was stored', () => {
    expect(partialTone('4 rows read: 2 created, 2 failed.', 'error')).toBe('partial');
    expect(partialTone('24 cells compared: 1 updated, 21 unchanged, 2 failed.', 'error')).toBe('partial');
    expect(partialTone('4 rows read: 0 created, 4 failed.', 'error')).toBe('error');
    expect(partialTone('2 rows read: 2 failed.', 'error')).toBe('error');
    expect(partialTone('2 rows read: 2 created.', 'success')).toBe('success');
  });

  it('marks exactly the counts of what was not stored', () => {
    expect(
      summaryParts('4 rows read: 2 created, 2 failed, 1 not sent.')
        .filter((p) => p.bad)
        .map((p) => p.text.trim()),
    ).toEqual(['2 failed,', '1 not sent.']);
    expect(
      summaryParts('4 rows read: 2 created, 2 failed.')
        .map((p) => p.text)
        .join(''),
    ).toBe('4 rows read: 2 created, 2 failed.');
  });
});
