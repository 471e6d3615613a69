// A request Apps Script refused to send is reported on its own batch, cell or row, with what to do.

import { classifyPushFailure } from '../../src/core/audit/push-errors';
import { classifyWriteFailure } from '../../src/core/directory/write-failure';
import { classifyFailure } from '../../src/core/export/batch-errors';
import { FetchRefusedError } from '../../src/core/api/transport';

const quota = new FetchRefusedError('Service invoked too many times for one day: urlfetch.', 'https://api.test/v1/contacts', 'daily_quota');
const reason = "not sent: Apps Script's daily quota of URL fetches for this account is used up, so nothing was sent. Try again tomorrow, when the quota has renewed";

describe('FetchRefusedError in the jobs that write', () => {
  it('fails only that export batch, with the reason', () => {
    expect(classifyFailure(quota)).toEqual({ kind: 'batch', reason });
  });

  it('fails only that audit cell, with the reason', () => {
    expect(classifyPushFailure(quota)).toEqual({ kind: 'cell', reason });
  });

  it('fails only that imported row as refused (nothing was created), with the reason', () => {
    expect(classifyWriteFailure(quota)).toEqual({ kind: 'refused', reason });
  });
});
