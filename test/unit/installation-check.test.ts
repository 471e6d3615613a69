// The installation check's sentences: a status per observation, what it means and what to do, never a token.

import {
  apiChecks,
  CHECK,
  probeChecks,
  quotasCheck,
  scopesCheck,
  summaryOf,
  triggerCheck,
  writtenDatesCheck,
  type ProbeFindings,
} from '../../src/core/settings/installation-verdicts';
import { MANIFEST_SCOPES, SCOPE } from '../../src/core/settings/permissions';

const BASE = 'https://api.example.com/';
const DATE = {
  iso: '2024-01-15',
  spreadsheetMidnight: Date.UTC(2024, 0, 15, 5),
  scriptMidnight: Date.UTC(2024, 0, 15),
  spreadsheetZone: 'America/New_York',
  scriptZone: 'Etc/UTC',
};

function findings(over: Partial<ProbeFindings> = {}): ProbeFindings {
  return {
    first: { activeRange: 'Installation probe!B1', cachedBytes: 100_000, runId: 'run-1', dateMs: DATE.spreadsheetMidnight, returnedDate: '2024-01-15 00:00' },
    fromEarlierCheck: false,
    probeCell: 'Installation probe!B1',
    expectedCacheBytes: 100_000,
    callerIsOwner: true,
    date: DATE,
    rewrite: { identical: 'reran', afterClear: 'reran' },
    waitedSeconds: 30,
    writtenDateFormat: 'M/d/yyyy',
    ...over,
  };
}

describe('the API checks', () => {
  it.each([
    [{ kind: 'accepted', baseUrl: BASE }, 'pass', 'pass'],
    [{ kind: 'refused', baseUrl: BASE, status: 401 }, 'fail', 'pass'],
    [{ kind: 'unreachable', baseUrl: BASE, reason: 'Address unavailable' }, 'fail', 'pass'],
    [{ kind: 'not-allowed', baseUrl: BASE }, 'fail', 'fail'],
    [{ kind: 'answered', baseUrl: BASE, status: 503, sentence: 'Try again in a minute.' }, 'degraded', 'pass'],
    [{ kind: 'not-sent', baseUrl: BASE, sentence: 'The daily quota is spent.' }, 'degraded', 'degraded'],
    [{ kind: 'no-settings', sentence: 'No API token is set.' }, 'fail', 'degraded'],
  ] as const)('%j: API %s, allowlist %s', (seen, api, allowlist) => {
    const [apiCheck, allowlistCheck] = apiChecks(seen);
    expect([apiCheck!.name, apiCheck!.status, allowlistCheck!.name, allowlistCheck!.status]).toEqual([CHECK.api, api, CHECK.allowlist, allowlist]);
    if ('baseUrl' in seen) expect(apiCheck!.detail).toContain(BASE);
  });
});

describe('the probe checks', () => {
  it("pass when the probe saw its cell, the cache, its date at the spreadsheet's midnight, and reran", () => {
    expect(probeChecks(findings()).map((c) => c.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass', 'pass']);
  });

  it('say what each different observation means', () => {
    const statuses = (f: ProbeFindings) => Object.fromEntries(probeChecks(f).map((c) => [c.name, c.status]));
    expect(statuses(findings({ first: { ...findings().first!, activeRange: 'Sheet1!A1' } }))[CHECK.activeRange]).toBe('degraded');
    expect(statuses(findings({ first: { ...findings().first!, cachedBytes: 0 } }))[CHECK.sharedCache]).toBe('degraded');
    expect(statuses(findings({ callerIsOwner: false, first: { ...findings().first!, cachedBytes: 0 } }))[CHECK.sharedCache]).toBe('degraded');
    expect(statuses(findings({ first: { ...findings().first!, dateMs: DATE.scriptMidnight } }))[CHECK.dateArguments]).toBe('degraded');
    expect(statuses(findings({ first: { ...findings().first!, dateMs: DATE.scriptMidnight + 3_600_000 } }))[CHECK.dateArguments]).toBe('fail');
    expect(statuses(findings({ first: { ...findings().first!, returnedDate: '2024-01-14 19:00' } }))[CHECK.returnedDates]).toBe('fail');
    expect(statuses(findings({ rewrite: { identical: 'kept', afterClear: 'reran' } }))[CHECK.recalculation]).toBe('degraded');
    expect(statuses(findings({ rewrite: { identical: 'kept', afterClear: 'kept' } }))[CHECK.recalculation]).toBe('fail');
  });

  it("read the previous check's probe when Sheets calculated it only after that check ended", () => {
    const checks = probeChecks(findings({ fromEarlierCheck: true, rewrite: null }));
    expect(checks.map((c) => [c.name, c.status])).toEqual([
      [CHECK.probe, 'degraded'],
      [CHECK.activeRange, 'pass'],
      [CHECK.sharedCache, 'pass'],
      [CHECK.dateArguments, 'pass'],
      [CHECK.returnedDates, 'pass'],
    ]);
  });

  it('say the probe did not calculate, and run none of its checks, when it showed nothing in time', () => {
    expect(probeChecks(findings({ first: null }))).toEqual([{ name: CHECK.probe, status: 'degraded', detail: expect.stringContaining('within 30 seconds') }]);
  });
});

describe('the quotas and the summary', () => {
  it('pass below 80% of a consumer day and name what is not counted', () => {
    const check = quotasCheck({ day: '2024-01-15', urlFetch: 100, properties: null, triggerRuntimeMs: 60_000 });
    expect(check.status).toBe('pass');
    expect(check.detail).toBe(
      "Used on 2024-01-15: URL Fetch calls: 100 of 20,000 a day on a consumer account; Properties reads and writes: not counted; Triggers' total runtime: 1 min of 90 min a day on a consumer account.",
    );
  });

  it('are degraded near a limit, saying it resets within 24 hours', () => {
    const check = quotasCheck({ day: '2024-01-15', urlFetch: 19_000, properties: 45_000, triggerRuntimeMs: 0 });
    expect(check.status).toBe('degraded');
    expect(check.detail).toContain('URL Fetch calls and Properties reads and writes are close to the daily limit');
    expect(check.detail).toContain('within 24 hours');
  });

  it('sums up failures and degradations, asking for the report with any bug', () => {
    expect(summaryOf([{ name: 'a', status: 'pass', detail: '' }])).toBe('All 1 check passed: Portfolio Metrics works as designed here.');
    expect(
      summaryOf([
        { name: 'a', status: 'fail', detail: '' },
        { name: 'b', status: 'degraded', detail: '' },
      ]),
    ).toBe(
      '1 check failed and 1 check found the add-in slower or limited: read each line for what it means and what to do. If something here does not work, send this report with the bug.',
    );
  });
});

describe('the written-dates check', () => {
  it.each([
    ['M/d/yyyy', 'pass', 'took the format M/d/yyyy'],
    ['dd/MM/yyyy', 'pass', 'took the format dd/MM/yyyy'],
    ['0.###############', 'degraded', 'format their dates as yyyy-mm-dd instead'],
    ['', 'degraded', 'took the format of a number'],
    [null, 'degraded', 'Not tested'],
  ] as const)('a written date in %p says %p', (format, status, words) => {
    const check = writtenDatesCheck(format);
    expect([check.name, check.status]).toEqual([CHECK.writtenDates, status]);
    expect(check.detail).toContain(words);
  });
});

describe('the permissions check', () => {
  it('passes when every scope is granted, naming them', () => {
    expect(scopesCheck([], MANIFEST_SCOPES, null)).toEqual({
      name: CHECK.scopes,
      status: 'pass',
      detail: 'Every permission the add-in asks for is granted: spreadsheets, script.external_request, script.container.ui, script.scriptapp, userinfo.email.',
    });
  });

  it("lists each declined scope in the consent screen's words, what stops without it, and where to grant it", () => {
    const check = scopesCheck(
      [SCOPE.externalRequest],
      MANIFEST_SCOPES.filter((scope) => scope !== SCOPE.externalRequest),
      'https://script.google.com/macros/d/x/authorize',
    );
    expect(check).toEqual({
      name: CHECK.scopes,
      status: 'fail',
      detail:
        'A permission the add-in asks for is not granted: "Connect to an external service" (without it: formulas and every feature that reads or writes the API). Everything else works. To grant it, open https://script.google.com/macros/d/x/authorize and tick it; if Google does not ask, remove Portfolio Metrics at myaccount.google.com › Security › Third-party apps with account access and open it again.',
    });
  });

  it('marks the trigger check as not tested when its permission is missing, with the reason', () => {
    expect(triggerCheck({ notGranted: 'Scheduling … needs the permission.' })).toEqual({
      name: CHECK.trigger,
      status: 'fail',
      detail: 'Not tested: Scheduling … needs the permission.',
    });
  });

  it("fails the API check with the permission's sentence, and leaves the allowlist untested", () => {
    expect(
      apiChecks({ kind: 'not-permitted', baseUrl: 'https://api.test', sentence: 'Reaching the API needs …' }).map((check) => [
        check.name,
        check.status,
        check.detail,
      ]),
    ).toEqual([
      [CHECK.api, 'fail', 'Reaching the API needs …'],
      [CHECK.allowlist, 'degraded', 'Not tested: nothing can be sent until that permission is granted. Run the check again then.'],
    ]);
  });
});
