// Compare-and-set's pieces in the core: the one comparison right before a write (compareItem), and what each
// write expects surviving its compact form (keepApprovals / restoreApprovals) exactly, whoever approved it.

import fc from 'fast-check';
import {
  APPROVED_KEPT_BYTES,
  conflictReason,
  keepApprovals,
  restoreApprovals,
  stillApproved,
  valueHash,
  type ApprovedValue,
} from '../../../src/core/export/compare';
import { compareItem } from '../../../src/core/export/diff';
import type { ExportItemState } from '../../../src/core/export/types';
import { longSpec, prepare } from './export-fixtures';

const item = (value: string, approved?: ApprovedValue): ExportItemState => ({
  row: 1,
  column: 2,
  metric: 0,
  date: '2024-01-01',
  value,
  outcome: 'pending',
  planned: 'written',
  ...(approved ? { approved } : {}),
});

describe('the comparison right before a write', () => {
  const typed = prepare([['2024-01-01', 1]], longSpec({ onlyChanged: false }));
  const onlyChanged = prepare([['2024-01-01', 1]], longSpec({ onlyChanged: true }));

  it('writes over what the preview showed, and reports as created, updated or written from this read alone', () => {
    const approved: ApprovedValue = { by: 'preview', value: '10' };
    const updated = item('11', approved);
    expect(compareItem(typed, updated, '10.0', 'write')).toBe(true);
    expect(updated).toMatchObject({ planned: 'updated', previous: '10.0' });
    const created = item('11', { by: 'preview', absent: true });
    expect(compareItem(typed, created, undefined, 'write')).toBe(true);
    expect(created.planned).toBe('created');
    expect(created).not.toHaveProperty('previous');
    const same = item('11', approved);
    // The server already holds the sheet's value: nothing of anyone's is lost, never a conflict.
    expect(compareItem(typed, same, '11', 'write')).toBe(true);
    expect(same).toMatchObject({ planned: 'written', previous: '11' });
    const unchanged = item('11', approved);
    expect(compareItem(onlyChanged, unchanged, '11', 'write')).toBe(false);
    expect(unchanged.outcome).toBe('unchanged');
  });

  it('holds back a value that is not the approved one, with both values', () => {
    const changed = item('11', { by: 'preview', value: '10' });
    expect(compareItem(typed, changed, '15', 'write')).toBe(false);
    expect(changed).toMatchObject({
      outcome: 'skipped',
      reason: "conflict: the server's value changed since the preview (10 then, 15 now), so it was not written: preview again to see it, then export",
    });
    expect(changed).not.toHaveProperty('planned');
    const blanked = item('11', { by: 'export', value: '10' });
    expect(compareItem(typed, blanked, null, 'write')).toBe(false);
    expect(blanked.reason).toBe(
      "conflict: the server's value changed since the export compared it (10 then, a blank now), so it was not written: preview again to see it, then export",
    );
  });

  it('without an approved value (typed data no preview compared) writes only where no value is lost: the stricter reading', () => {
    expect(compareItem(typed, item('11'), undefined, 'write')).toBe(true);
    expect(compareItem(typed, item('11'), null, 'write')).toBe(true);
    expect(compareItem(typed, item('11'), '11.00', 'write')).toBe(true);
    const held = item('11');
    expect(compareItem(typed, held, '99', 'write')).toBe(false);
    expect(held.reason).toBe('conflict: the server holds 99, which no preview showed, so it was not written: preview to see it, then export');
  });

  it('at planning, takes what it read as what the write will expect', () => {
    const planned = item('11');
    expect(compareItem(typed, planned, '10', 'plan')).toBe(true);
    expect(planned.approved).toEqual({ by: 'export', value: '10' });
  });
});

describe('what each write expects, kept between steps', () => {
  it('compares a value known by its hash as the same number whatever its text', () => {
    const hashed: ApprovedValue = { by: 'preview', hash: valueHash('1.50') };
    expect(stillApproved(hashed, '1.5')).toBe(true);
    expect(stillApproved(hashed, '1.51')).toBe(false);
    expect(stillApproved(hashed, null)).toBe(false);
    expect(stillApproved(hashed, undefined)).toBe(false);
    expect(conflictReason(hashed, undefined)).toMatch(/\(another value then, no value now\)/);
  });

  const SEED = 20261128;
  it(`restores exactly what was kept, for any mix of values, blanks, absences and sources (fast-check seed ${SEED})`, () => {
    console.log(`approvals round trip: fast-check seed ${SEED}`);
    const approval = fc.oneof(
      fc.constant(undefined),
      fc.record({ by: fc.constantFrom('preview' as const, 'export' as const), absent: fc.constant(true as const) }),
      fc.record({
        by: fc.constantFrom('preview' as const, 'export' as const),
        value: fc.oneof(fc.constant(null), fc.stringMatching(/^-?\d{1,6}(\.\d{1,4})?$/)),
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.stringMatching(/^\d{1,6}$/), approval, fc.boolean()), { maxLength: 60 }), (rows) => {
        // Some items hold the sheet's value as their approval (the compact '=' form).
        const items = rows.map(([value, approved, same]) => item(value, approved && 'value' in approved && same ? { ...approved, value } : approved));
        const restored = items.map((one) => ({ ...one, approved: undefined }));
        restoreApprovals(restored, keepApprovals(items));
        expect(restored.map((one) => one.approved)).toEqual(items.map((one) => one.approved));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it('keeps no approval of an item the guard leaves out (a settled item has no write left to guard)', () => {
    const items = ['1', '2', '3', '4'].map((value, i) => item(value, { by: 'export', value: `${value}${i}` }));
    const restored = items.map((one) => ({ ...one, approved: undefined }));
    restoreApprovals(
      restored,
      keepApprovals(items, (one) => one.value !== '2' && one.value !== '4'),
    );
    expect(restored.map((one) => one.approved)).toEqual([items[0]!.approved, undefined, items[2]!.approved, undefined]);
    expect(keepApprovals(items, () => false)).toBeUndefined();
  });

  it('past APPROVED_KEPT_BYTES keeps hashes that still compare, and says whose they were', () => {
    const long = '1'.repeat(1000);
    const items = Array.from({ length: Math.ceil(APPROVED_KEPT_BYTES / 1000) + 5 }, (_, i) =>
      item('2', { by: i % 2 ? 'export' : 'preview', value: `${long}${i}` }),
    );
    const restored = items.map((one) => ({ ...one, approved: undefined }));
    restoreApprovals(restored, keepApprovals(items));
    const last = restored[restored.length - 1]!.approved!;
    expect(last).toEqual({ by: items.length % 2 === 0 ? 'export' : 'preview', hash: valueHash(`${long}${items.length - 1}`) });
    expect(stillApproved(last, `${long}${items.length - 1}`)).toBe(true);
  });
});
