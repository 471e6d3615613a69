// An audit's snapshot is acted on only as its pusher signed it, for that audit sheet, with a marker that agrees.

import { createHmac } from 'node:crypto';
import { auditSnapshotScope, requireOwnAudit } from '../../../src/core/audit/audit-trust';
import { serializeSnapshot } from '../../../src/core/audit/snapshot';
import { UntrustedRecordError } from '../../../src/core/errors';
import { signRecord, type Hmac } from '../../../src/core/trust/signed-record';
import { FUND, fundModel } from './audit-fixtures';

const hmacOf =
  (key: string): Hmac =>
  (text) =>
    createHmac('sha256', key).update(text, 'utf8').digest('base64');
const owner = hmacOf('owner-key');
const scope = auditSnapshotScope('spreadsheet-1', 7);
const snapshot = fundModel().snapshot;
const text = serializeSnapshot(snapshot);
const signed = { text, signature: signRecord(owner, scope, text) };
const OTHER = 'c0000000-0000-4000-8000-0000000000ff';
const CHANGED =
  'The audit in "Portfolio audit" was changed by someone else (or written by another user), so it was not used with your connection. Build the audit again from your sidebar, then make your edits and push.';

describe('requireOwnAudit', () => {
  it('says so when someone else built the audit', () => {
    expect(() => requireOwnAudit(hmacOf('editor-key'), scope, signed, { companyId: FUND, rows: [], columns: [] }, 'Portfolio audit')).toThrow(
      'The audit in "Portfolio audit" was built by someone else, and a push sends only an audit you built, with your connection: nothing was sent. Ask them to push it, or build the audit again from your sidebar, then make your edits and push.',
    );
  });

  it('gives back the snapshot its pusher signed for this sheet, its marker agreeing (in any case)', () => {
    expect(requireOwnAudit(owner, scope, signed, { companyId: FUND.toUpperCase(), rows: [], columns: [] }, 'Portfolio audit')).toEqual(snapshot);
  });

  it.each([
    ['unsigned (an older store)', owner, scope, { text, signature: null }, FUND],
    ['with another profile id in it', owner, scope, { ...signed, text: text.replace(snapshot.profiles[0]!, OTHER) }, FUND],
    ['signed for another audit sheet', owner, auditSnapshotScope('spreadsheet-1', 8), signed, FUND],
    ['signed in another spreadsheet', owner, auditSnapshotScope('spreadsheet-2', 7), signed, FUND],
    ['under a marker naming another fund', owner, scope, signed, OTHER],
  ])('refuses a snapshot %s', (_, hmac, where, stored, marker) => {
    expect(() => requireOwnAudit(hmac, where, stored, { companyId: marker, rows: [], columns: [] }, 'Portfolio audit')).toThrow(
      new UntrustedRecordError('The audit in "Portfolio audit"', 'Build the audit again from your sidebar, then make your edits and push.'),
    );
    expect(() => requireOwnAudit(hmac, where, stored, { companyId: marker, rows: [], columns: [] }, 'Portfolio audit')).toThrow(CHANGED);
  });
});
