import { didYouMean, nearestNames } from '../../src/core/sheets/nearest-names';

describe('nearestNames', () => {
  const names = ['Net Burn', 'Revenue', 'Monthly Recurring Revenue', 'Cash', 'Cash Balance', 'Headcount', 'MRR'];

  it('names the names a typo away, nearest first, without regard to case', () => {
    expect(nearestNames('Net Brun', names)).toEqual(['Net Burn']);
    expect(nearestNames('monthly recuring revenue', names)).toEqual(['Monthly Recurring Revenue']);
    expect(nearestNames('Cahs', names)).toEqual(['Cash']);
  });

  it('falls back to names that contain it, and names nothing when nothing is near', () => {
    expect(nearestNames('Balance', names)).toEqual(['Cash Balance']);
    expect(nearestNames('Burn multiple', names)).toEqual([]);
    expect(didYouMean('Burn multiple', names)).toBe('');
    expect(didYouMean('Cas', ['Cash', 'Cat'])).toBe('; did you mean "Cash" or "Cat"?');
  });
});
