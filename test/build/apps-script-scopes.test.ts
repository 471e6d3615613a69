// Every Apps Script method the add-in calls is in gas-runtime/scopes.ts (so the runtime checks its scopes as Apps
// Script does), and appsscript.json grants what those methods need: a method missing from either would first fail
// on a real install.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST, readBuiltCode } from '../support/built-bundle';
import { appsScriptMembersUsedInSource, appsScriptNamedCallsInBundle, globalServiceMembersInBundle } from '../support/apps-script-calls';
import { LISTED_METHODS } from '../../gas-runtime/scopes';

/**
 * Names the bundle calls that some obscure Apps Script class also declares, but that are the add-in's own methods
 * (the type checker finds no Apps Script receiver for them in src/).
 */
const OWN_METHODS: Record<string, string> = {
  list: 'the API client: dataPoints.list, metrics.list',
  listProperties: 'the API client: portfolio.listProperties',
  run: 'single-flight: flight.run',
  key: 'cache keys: this.key',
  send: 'job kinds: kind.send',
  load: 'job kinds: kind.load',
  state: 'job kinds: kind.state',
  commit: 'the audit store: store.commit',
  cell: 'cell places: places.cell',
  note: 'describe.note (provenance)',
  label: 'describe.label (provenance)',
};

describe('the Apps Script methods the add-in calls', () => {
  const code = readBuiltCode();
  // One type-checked pass over src/ (about 10 s): exact classes and members.
  const { used, declared } = appsScriptMembersUsedInSource();
  const listedNames = new Set([...LISTED_METHODS.keys()].map((key) => key.slice(key.indexOf('.') + 1)));

  it('are each listed in gas-runtime/scopes.ts with their reference page', () => {
    const missing = [...used].filter(([member]) => !LISTED_METHODS.has(member)).map(([member, files]) => `${member} (${[...files].join(', ')})`);
    expect(missing).toEqual([]);
    expect(used.size).toBeGreaterThan(100);
    for (const [member, { page }] of LISTED_METHODS)
      expect(page).toMatch(new RegExp(`^https://developers\\.google\\.com/apps-script/reference/.+#${member.split('.')[1]}$`));
  });

  it('include every global service member the built bundle reads, and every Apps Script method name it calls', () => {
    const services = [...globalServiceMembersInBundle(code)];
    expect(services).toEqual(expect.arrayContaining(['SpreadsheetApp.getActiveSpreadsheet', 'Session.getActiveUser', 'UrlFetchApp.fetchAll']));
    expect(services.filter((member) => !LISTED_METHODS.has(member))).toEqual([]);
    const unlisted = [...appsScriptNamedCallsInBundle(code, declared)].filter((name) => !listedNames.has(name) && !(name in OWN_METHODS));
    expect(unlisted).toEqual([]);
  });

  it('get from appsscript.json one of the scopes each needs', () => {
    const granted = new Set<string>(JSON.parse(readFileSync(path.join(DIST, 'appsscript.json'), 'utf8')).oauthScopes);
    const ungranted = [...used.keys()]
      .map((member) => ({ member, scopes: LISTED_METHODS.get(member)?.scopes ?? [] }))
      .filter(({ scopes }) => scopes.length > 0 && !scopes.some((scope) => granted.has(scope)))
      .map(({ member, scopes }) => `${member} needs ${scopes.join(' or ')}`);
    expect(ungranted).toEqual([]);
    // Nothing granted that no call needs: each scope in the manifest is the only one some call accepts, or one it lists.
    const needed = new Set([...used.keys()].flatMap((member) => LISTED_METHODS.get(member)?.scopes ?? []));
    expect([...granted].filter((scope) => !needed.has(scope))).toEqual([]);
  });
});
