// The Shared Drive connection's pure rules (src/core/settings/shared-drive.ts): which stored record counts as this
// spreadsheet's connection, who decides formula access, and what a formula says when it may use no token.

import { ConfigError } from '../../src/core/errors';
import { CHECK, fileCaseCheck } from '../../src/core/settings/installation-verdicts';
import { callerDecides, decodeConnection, encodeConnection, sharedDriveFormulaProblem, type SharedDriveConnection } from '../../src/core/settings/shared-drive';

const SHEET = '1abcSpreadsheetId';
const RECORD = { v: 1 as const, email: 'alex@fund.example', spreadsheetId: SHEET, connectedAt: '2026-11-28T12:00:00.000Z' };

describe('decodeConnection', () => {
  it('reads back the record it encoded', () => {
    expect(decodeConnection(encodeConnection(RECORD), SHEET)).toEqual(RECORD);
    expect(decodeConnection(encodeConnection({ ...RECORD, email: null }), SHEET)).toEqual({ ...RECORD, email: null });
  });

  it('is no connection for a copy of the spreadsheet (another id), a damaged value, or another layout', () => {
    expect(decodeConnection(encodeConnection(RECORD), 'the copy')).toBeNull();
    for (const text of [
      null,
      '',
      'not json',
      '[]',
      '{}',
      JSON.stringify({ ...RECORD, v: 2 }),
      JSON.stringify({ ...RECORD, email: 7 }),
      JSON.stringify({ ...RECORD, connectedAt: 1 }),
    ]) {
      expect(decodeConnection(text, SHEET)).toBeNull();
    }
  });
});

describe('who decides and what a formula says', () => {
  const notConnected: SharedDriveConnection = { kind: 'not-connected' };
  const mine: SharedDriveConnection = { kind: 'connected', email: RECORD.email, verified: true };
  const theirs: SharedDriveConnection = { kind: 'connected', email: RECORD.email, verified: false };
  const hidden: SharedDriveConnection = { kind: 'connected', email: null, verified: false };
  const settings = { token: true, baseUrl: true };

  it('lets anyone decide while no one connected the file, then only the person who did', () => {
    expect([notConnected, mine, theirs, hidden].map(callerDecides)).toEqual([true, true, false, false]);
  });

  it("lets a formula use only the connecting person's settings, with a token and an address", () => {
    expect(sharedDriveFormulaProblem(mine, settings)).toBeNull();
    for (const connection of [notConnected, theirs, hidden]) expect(sharedDriveFormulaProblem(connection, settings)).toBeInstanceOf(ConfigError);
    expect(sharedDriveFormulaProblem(mine, { token: false, baseUrl: true })!.message).toBe(
      `Formulas in this Shared Drive spreadsheet use the API connection of ${RECORD.email}, who connected it and has not set an API token: they can set it in Extensions › Portfolio Metrics › Open sidebar › Settings.`,
    );
    expect(sharedDriveFormulaProblem(mine, { token: true, baseUrl: false })!.message).toContain("has not set the API's base URL");
    // Each sentence is one sentence that says what to do, and names the person when it is known.
    expect(sharedDriveFormulaProblem(theirs, settings)!.message).toMatch(
      new RegExp(`^This spreadsheet is in a Shared Drive and was connected by ${RECORD.email.replace('.', '\\.')}, [^.]*insert the values as a snapshot`),
    );
    expect(sharedDriveFormulaProblem(hidden, settings)!.message).toContain(
      'was connected by someone whose email Apps Script does not reveal, but Sheets ran this formula',
    );
  });
});

describe("Check this installation's line on whose file this is", () => {
  it('passes for an owned file, naming the owner when known, and is degraded in a Shared Drive or when Apps Script will not say', () => {
    expect(fileCaseCheck({ kind: 'owned', ownerEmail: 'o@fund.example', callerIsOwner: false })).toEqual({
      name: CHECK.file,
      status: 'pass',
      detail:
        "This spreadsheet is owned by o@fund.example: formulas here use the owner's API connection and the companies the owner allows, whoever opens it; your own jobs use yours.",
    });
    expect(fileCaseCheck({ kind: 'owned', ownerEmail: null, callerIsOwner: null }).detail).toMatch(
      /^This spreadsheet has an owner, whose email Apps Script does not reveal: formulas here use the owner's/,
    );
    expect(fileCaseCheck({ kind: 'shared-drive', connection: { kind: 'connected', email: null, verified: false } }).detail).toMatch(
      /^This spreadsheet is in a Shared Drive, which has no owner, and was connected by someone whose email Apps Script does not reveal:/,
    );
    expect(fileCaseCheck({ error: 'You do not have permission to call Session.getActiveUser' })).toMatchObject({
      status: 'degraded',
      detail: expect.stringMatching(/^Apps Script did not say whose file this is \(You do not have permission/),
    });
  });
});
