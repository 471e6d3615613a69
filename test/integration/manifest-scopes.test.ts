// The built add-in against the scopes it ships: the sidebar's first call asks who is at the keyboard
// (Session.getActiveUser), which Apps Script refuses without userinfo.email, so it asks whether it was granted first.

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

  it('without userinfo.email in the grant, still load the settings, with ownership unknown and the permission named', () => {
    const rt = stack.runtime({ oauthScopes: shipped.filter((scope) => scope !== USERINFO_EMAIL) });
    const settings = rt.callServer('getSettings', [], { user: OWNER }) as { ok: boolean; value: { isOwner: boolean | null; sharingNote: string } };
    expect(settings).toMatchObject({ ok: true, value: { isOwner: null } });
    expect(settings.value.sharingNote).toContain('"See your primary Google Account email address"');
    // The guard asked first: Session was never called, so nothing failed.
    expect(rt.executions.every((execution) => execution.outcome === 'completed')).toBe(true);
  });
});
