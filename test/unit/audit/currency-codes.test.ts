// The ISO 4217 list the profile import checks currencies against: codes in use only, each once.

import { ISO_4217_CODES, isCurrencyCode, replacementOf } from '../../../src/core/validate/currency-codes';

describe('the ISO 4217 list of codes in use', () => {
  it('holds three upper-case letters per code, each once, in alphabetical order', () => {
    expect(ISO_4217_CODES.length).toBeGreaterThan(170);
    for (const code of ISO_4217_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
    expect(new Set(ISO_4217_CODES).size).toBe(ISO_4217_CODES.length);
    expect([...ISO_4217_CODES].sort()).toEqual(ISO_4217_CODES);
  });

  it('knows the major currencies and the newest codes, and not the testing or no-currency codes', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'JPY', 'CNY', 'XCG', 'ZWG', 'SLE', 'VED']) expect(isCurrencyCode(code)).toBe(true);
    for (const code of ['XTS', 'XXX', 'USS', 'usd', 'EU']) expect(isCurrencyCode(code)).toBe(false);
  });

  it('names the replacement of each withdrawn code, and every replacement is in use and no withdrawn code is', () => {
    expect(replacementOf('HRK')).toBe('EUR');
    expect(replacementOf('ZWL')).toBe('ZWG');
    expect(replacementOf('USD')).toBeUndefined();
    for (const withdrawn of ['ANG', 'BYR', 'CUC', 'HRK', 'MRO', 'SLL', 'STD', 'VEF', 'ZWL']) {
      expect(isCurrencyCode(withdrawn)).toBe(false);
      expect(isCurrencyCode(replacementOf(withdrawn)!)).toBe(true);
    }
  });
});
