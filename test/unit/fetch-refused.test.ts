// A request Apps Script refused to send is reported on its own batch, cell or row, with what to do.

import { FetchRefusedError } from '../../src/core/errors';
import { classifyFailure } from '../../src/core/jobs/classify-failure';

const quota = new FetchRefusedError('Service invoked too many times for one day: urlfetch.', 'https://api.test/v1/contacts', 'daily_quota');
const reason =
  "not sent: Apps Script's daily quota of URL fetches for this account is used up, so nothing was sent. It renews within 24 hours of its first use; until then formulas still show the values the add-in has cached";

describe('FetchRefusedError in the jobs that write', () => {
  // Without the ApiError the export fails only that batch, not the whole metric.
  it.each(['export', 'push', 'import'] as const)('fails only that %s item as refused (nothing was sent), with the reason', (job) => {
    expect(classifyFailure(quota, job)).toEqual({ kind: 'refused', reason });
  });
});
