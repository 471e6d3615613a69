// isValidTimeZone remembers the zones Intl accepted: asked again, each answer stays what Intl gave the first time.

import { isValidTimeZone } from '../time-zone';

describe('isValidTimeZone', () => {
  it('accepts a zone Intl knows every time it is asked, and refuses an unknown one every time, before and after', () => {
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    for (let i = 0; i < 3; i++) {
      expect(isValidTimeZone('Europe/Paris')).toBe(true);
      expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
      expect(isValidTimeZone('')).toBe(false);
    }
  });

  it("accepts Java's fixed offsets without Intl", () => {
    expect(['GMT', 'UTC', 'GMT+05:30', 'GMT-8', 'UTC+0100'].map(isValidTimeZone)).toEqual([true, true, true, true, true]);
  });
});
