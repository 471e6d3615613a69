// The built add-in against the scopes it ships: the sidebar's first call reads who is at the keyboard
// (Session.getActiveUser), which Apps Script refuses when the manifest lacks userinfo.email.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST } from '../support/built-bundle';
import { OWNER, useStack, type Stack } from '../support/stack';

let stack: Stack;
useStack((started) => (stack = started));

const USERINFO_EMAIL = 'https://www.googleapis.com/auth/userinfo.email';
const shipped: string[] = JSON.parse(readFileSync(path.join(DIST, 'appsscript.json'), 'utf8')).oauthScopes;

describe('the scopes the add-in ships', () => {
  it('let the sidebar read its settings and who owns the spreadsheet', () => {
    const rt = stack.runtime();
    expect(rt.callServer('getSettings')).toMatchObject({ ok: true, value: expect.objectContaining({ tokenSet: true }) });
    expect(rt.callServer('getFormulaAccess')).toMatchObject({ ok: true });
    expect(rt.executions.every((execution) => execution.outcome === 'completed')).toBe(true);
  });

  it('without userinfo.email, fail the sidebar\'s first call as Apps Script would', () => {
    const rt = stack.runtime({ oauthScopes: shipped.filter((scope) => scope !== USERINFO_EMAIL) });
    const refusal = `Specified permissions are not sufficient to call Session.getActiveUser. Required permissions: ${USERINFO_EMAIL}`;
    expect(rt.callServer('getSettings', [], { user: OWNER })).toEqual({ ok: false, error: expect.stringContaining(refusal) });
  });
});
