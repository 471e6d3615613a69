import { createGasRuntime, formatDate } from '../index';
import { fixture } from './support/fixtures';

const moment = new Date(Date.UTC(2024, 0, 5, 3, 4, 5, 6)); // Friday 2024-01-05 03:04:05.006 UTC

describe('formatDate (Java SimpleDateFormat patterns)', () => {
  it.each([
    ['yyyy-MM-dd HH:mm:ss.SSS', 'UTC', '2024-01-05 03:04:05.006'],
    ['yyyy-MM-dd HH:mm', 'America/New_York', '2024-01-04 22:04'],
    ["EEE, d MMM yyyy 'at' h:mm a", 'America/Los_Angeles', 'Thu, 4 Jan 2024 at 7:04 PM'],
    ['EEEE MMMM yy', 'Asia/Tokyo', 'Friday January 24'],
    ['Z XXX XX X', 'Asia/Kolkata', '+0530 +05:30 +0530 +05'],
    ['z', 'America/New_York', 'EST'],
    ['XXX', 'UTC', 'Z'],
    ["''yyyy'' 'o''clock'", 'UTC', "'2024' o'clock"],
    ['D u k K', 'UTC', '5 5 3 3'],
  ])('%s in %s', (pattern, zone, expected) => {
    expect(formatDate(moment, zone, pattern)).toBe(expected);
  });

  it('uses daylight saving time where the zone has it', () => {
    expect(formatDate(new Date(Date.UTC(2024, 6, 1, 12)), 'America/New_York', 'HH:mm z XXX')).toBe('08:00 EDT -04:00');
  });

  it('falls back to GMT for an unknown zone, as Java does, and accepts fixed GMT offsets', () => {
    expect(formatDate(moment, 'Mars/Olympus', 'HH:mm Z')).toBe('03:04 +0000');
    expect(formatDate(moment, 'GMT+02:00', 'HH:mm XXX')).toBe('05:04 +02:00');
  });

  // isValidTimeZone remembers its answer per zone (time-zone.ts): a second ask must say the same.
  it('keeps telling a known zone from an unknown one when asked again', () => {
    for (let ask = 0; ask < 2; ask++) {
      expect(formatDate(moment, 'Mars/Olympus_Mons', 'HH:mm z')).toBe('03:04 GMT');
      expect(formatDate(moment, 'Asia/Tokyo', 'HH:mm')).toBe('12:04');
    }
  });

  it('rejects letters SimpleDateFormat does not define', () => {
    expect(() => formatDate(moment, 'UTC', 'yyyy-bb')).toThrow("Illegal pattern character 'b'");
  });
});

describe('Utilities', () => {
  it('formats, encodes, digests and decodes as Apps Script does', () => {
    const result = createGasRuntime({ code: fixture('services') }).run('utilities') as Record<string, unknown>;
    expect(result.md5).toEqual([-112, 1, 80, -104, 60, -46, 79, -80, -42, -106, 63, 125, 40, -31, 127, 114]);
    expect((result.sha256 as number[]).slice(0, 4)).toEqual([-70, 120, 22, -65]);
    expect(result.base64).toBe(Buffer.from('héllo??>').toString('base64'));
    expect(result.base64).toContain('+');
    expect(result.webSafe).toBe((result.base64 as string).replace(/\+/g, '-').replace(/\//g, '_'));
    expect(result.decoded).toBe('héllo');
    expect(result.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(result.formatted).toBe('2024-07-04T18:35:09.007+05:30');
  });

  it('refuses malformed base64', () => {
    expect(createGasRuntime({ code: fixture('services') }).run('badDecode')).toBe('Could not decode string.');
  });

  it('keeps Logger and console lines on the runtime', () => {
    const rt = createGasRuntime({ code: fixture('services') });
    expect(rt.run('logSomething')).toBe('count: 3 of 4');
    expect(rt.logs.map((entry) => [entry.level, entry.message, entry.functionName])).toEqual([
      ['log', 'count: 3 of 4', 'logSomething'],
      ['warn', 'careful { a: 1 }', 'logSomething'],
    ]);
  });

  it("files each line under its own execution, and Logger.getLog() holds only the current execution's lines", () => {
    const rt = createGasRuntime({ code: fixture('services') });
    rt.run('logSomething');
    // A second execution's Logger starts empty: its getLog() is not the first one's lines again.
    expect(rt.run('logSomething')).toBe('count: 3 of 4');
    const [first, second] = rt.executions.map((execution) => execution.id);
    expect(first).not.toBe(second);
    expect(rt.logs.map((entry) => entry.executionId)).toEqual([first, first, second, second]);
  });
});
