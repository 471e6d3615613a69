// The Pushes sheet's rows: which items a step settled, and cells that keep their text as it is.

import { newlySettled, outcomeText, pushLogCells, PUSHES_HEADER } from '../../../src/core/jobs/push-log';

it('takes the items that were pending before the step and are not after it, in order', () => {
  const before = [{ outcome: 'written' }, { outcome: 'pending' }, { outcome: 'pending' }, { outcome: 'pending' }];
  const after = [{ outcome: 'written' }, { outcome: 'failed' }, { outcome: 'pending' }, { outcome: 'written' }];
  expect(newlySettled(before, after)).toEqual([{ outcome: 'failed' }, { outcome: 'written' }]);
});

it("writes a row in the header's order, blank who as an empty cell, and doubles a leading apostrophe Sheets would drop", () => {
  const cells = pushLogCells({
    time: '2026-11-26T08:00:00.000Z',
    who: '',
    kind: 'Audit push',
    what: 'Acme › Sector',
    period: '',
    oldValue: "'quoted",
    newValue: 'Fintech',
    outcome: outcomeText('failed', 'the label is unknown'),
    cell: "'Portfolio audit'!D7",
    push: 'push-1',
  });
  expect(cells).toHaveLength(PUSHES_HEADER.length);
  expect(cells).toEqual([
    new Date('2026-11-26T08:00:00.000Z'),
    null,
    'Audit push',
    'Acme › Sector',
    null,
    "''quoted",
    'Fintech',
    'failed: the label is unknown',
    "''Portfolio audit'!D7",
    'push-1',
  ]);
  expect(outcomeText('updated', null)).toBe('updated');
});
