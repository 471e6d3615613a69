// core/trust: a record verifies only for the user who signed it, unchanged, in the scope it was signed for.

import { createHmac } from 'node:crypto';
import { UntrustedRecordError } from '../../../src/core/errors';
import { requireSigned, signedByAnother, signRecord, verifyRecord, type Hmac } from '../../../src/core/trust/signed-record';

const hmacOf =
  (key: string): Hmac =>
  (text) =>
    createHmac('sha256', key).update(text, 'utf8').digest('base64');
const owner = hmacOf('owner-key');
const editor = hmacOf('editor-key');
const scope = { purpose: 'snapshot', spreadsheetId: 'sheet-1' };
const record = JSON.stringify({ metricIds: ['a'], range: 'B2:D6' });

describe('signed records', () => {
  it('verify for the signer, unchanged, in the same scope', () => {
    expect(verifyRecord(owner, scope, record, signRecord(owner, scope, record))).toBe(true);
  });

  it('do not verify once a character changed, for another user, another spreadsheet or another purpose', () => {
    const signature = signRecord(owner, scope, record);
    expect(verifyRecord(owner, scope, record.replace('B2', 'B3'), signature)).toBe(false);
    expect(verifyRecord(editor, scope, record, signature)).toBe(false);
    expect(verifyRecord(owner, { ...scope, spreadsheetId: 'sheet-2' }, record, signature)).toBe(false);
    expect(verifyRecord(owner, { ...scope, purpose: 'audit' }, record, signature)).toBe(false);
  });

  it('treat a missing, empty or non-text signature as not verified', () => {
    for (const signature of [undefined, null, '', 42, signRecord(owner, scope, record).slice(1)])
      expect(verifyRecord(owner, scope, record, signature)).toBe(false);
  });

  it('keep the scope apart from the record: moving text between them changes the signature', () => {
    expect(signRecord(owner, { purpose: 'a', spreadsheetId: 'b' }, 'c')).not.toBe(signRecord(owner, { purpose: 'a', spreadsheetId: '' }, 'bc'));
  });

  it("name their signer, so another user's record can be told from a tampered one (for words only)", () => {
    const signature = signRecord(owner, scope, record);
    expect(signedByAnother(editor, signature)).toBe(true);
    expect(signedByAnother(owner, signature)).toBe(false);
    // A damaged or missing signature names no one: it reads as changed, not as another user's.
    for (const damaged of ['', 'forged', undefined, 7, `${signature}:x`]) expect(signedByAnother(editor, damaged)).toBe(false);
    // The signer's part says nothing of the key: every record of one user carries the same.
    expect(signRecord(owner, { ...scope, purpose: 'audit' }, 'x').split(':')[0]).toBe(signature.split(':')[0]);
  });

  it('refuse with a sentence that says someone else changed it and what to do', () => {
    expect(() =>
      requireSigned(owner, scope, record, 'forged', { what: 'The definition of the snapshot at Sheet1!B2:D6', remedy: 'Insert the snapshot again.' }),
    ).toThrow(new UntrustedRecordError('The definition of the snapshot at Sheet1!B2:D6', 'Insert the snapshot again.'));
    expect(() => requireSigned(owner, scope, record, 'forged', { what: 'X', remedy: 'Y' })).toThrow(/^X was changed by someone else/);
  });
});
