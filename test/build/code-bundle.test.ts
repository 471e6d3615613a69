// The built dist/Code.js, loaded as Apps Script loads it: what is top-level, and what Sheets reads.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { DIST, ROOT, ensureBuilt, readBuiltCode } from '../support/built-bundle';
import { CUSTOM_FUNCTION_NAMES } from '../../src/core/formulas/names';
import { PROBE_FUNCTION_NAME } from '../../src/core/settings/installation-verdicts';

/** The names src/main.ts assigns to the global object: the add-in's whole public surface. */
function declaredEntryPoints(): string[] {
  const source = readFileSync(path.join(ROOT, 'src', 'main.ts'), 'utf8');
  return [...source.matchAll(/^global\.(\w+)\s*=/gm)].map((m) => m[1]!).sort();
}

function loadTopLevel(code: string): Record<string, unknown> {
  const context = vm.createContext({});
  vm.runInContext(code, context, { filename: 'Code.js' });
  return context as Record<string, unknown>;
}

/** The JSDoc block right before `function NAME(` in the bundle's text. */
function jsDocOf(code: string, name: string): string {
  const match = new RegExp(`(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/)\\s*function ${name}\\(`).exec(code);
  return match?.[1] ?? '';
}

describe('dist/Code.js', () => {
  const code = readBuiltCode();

  it('declares exactly the entry points of src/main.ts as top-level functions, and no helper', () => {
    const context = loadTopLevel(code);
    const topLevel = Object.keys(context).sort();
    expect(topLevel).toEqual(declaredEntryPoints());
    expect(topLevel).toEqual(expect.arrayContaining(['METRIC_VALUES', 'onOpen', 'onInstall']));
    for (const name of topLevel) expect(typeof context[name]).toBe('function');
  });

  it('writes each entry point as a top-level `function NAME(params)` declaration', () => {
    expect(code).toMatch(/^function METRIC_VALUES\(metric_id, start_date, end_date, options\) \{$/m);
    expect(code).toMatch(/^function METRIC_VALUE\(metric_id, period, aggregate\) \{$/m);
    expect(code).toMatch(/^function onOpen\(e\) \{$/m);
    expect(code).toMatch(/^function onInstall\(e\) \{$/m);
  });

  it('replaces the empty declarations with the real implementations when loaded', () => {
    const context = loadTopLevel(code);
    // The generated declarations have empty bodies; the real ones need Apps Script's services,
    // absent from this bare context, so calling them throws where a stub would return undefined.
    for (const name of ['METRIC_VALUES', 'METRIC_VALUE', 'onOpen']) {
      expect(() => (context[name] as () => unknown)()).toThrow(/is not defined/);
    }
    // Sidebar calls return failures as data.
    expect((context['getSettings'] as () => unknown)()).toEqual({ ok: false, error: expect.stringMatching(/PropertiesService is not defined/) });
  });

  it.each(CUSTOM_FUNCTION_NAMES)('keeps the JSDoc Sheets needs for autocomplete on %s', (name) => {
    const doc = jsDocOf(code, name);
    expect(doc).toContain('@customfunction');
    const params = new RegExp(`^function ${name}\\(([^)]*)\\)`, 'm')
      .exec(code)![1]!
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    expect(params.length).toBeGreaterThan(0);
    for (const param of params) expect(doc).toMatch(new RegExp(`@param \\{[^}]+\\} \\[?${param}\\]? \\S`));
    expect(doc).toMatch(/@return \{[^}]+\}/);
    expect(doc).toMatch(new RegExp(`@example =${name}\\(`));
  });

  it("declares every custom function the Refresh menu item looks for, and only those (and the installation check's probe)", () => {
    const customFunctions = declaredEntryPoints().filter((n) => jsDocOf(code, n).includes('@customfunction'));
    expect(customFunctions.sort()).toEqual([...CUSTOM_FUNCTION_NAMES, PROBE_FUNCTION_NAME].sort());
  });

  it('does not mark triggers or sidebar functions as custom functions', () => {
    for (const name of declaredEntryPoints().filter((n) => !/^[A-Z_]+$/.test(n))) {
      expect(jsDocOf(code, name)).not.toContain('@customfunction');
    }
  });
});

describe('dist/Sidebar.html and dist/appsscript.json', () => {
  beforeAll(ensureBuilt);

  it('is one self-contained page: no external script, style or font', () => {
    const html = readFileSync(path.join(DIST, 'Sidebar.html'), 'utf8');
    expect(html).toMatch(/<script>[\s\S]+<\/script>/);
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).not.toMatch(/@import|url\(\s*['"]?https?:/i);
    // One closing script tag: nothing inside the inlined code ended the element early.
    expect(html.match(/<\/script/gi)).toHaveLength(1);
  });

  it('asks for V8 and the narrowest scopes', () => {
    const manifest = JSON.parse(readFileSync(path.join(DIST, 'appsscript.json'), 'utf8'));
    expect(manifest.runtimeVersion).toBe('V8');
    expect(manifest.exceptionLogging).toBe('STACKDRIVER');
    expect([...manifest.oauthScopes].sort()).toEqual([
      'https://www.googleapis.com/auth/script.container.ui',
      'https://www.googleapis.com/auth/script.external_request',
      'https://www.googleapis.com/auth/script.scriptapp',
      // Not spreadsheets.currentonly: a scheduled refresh's trigger has no active spreadsheet and opens it by id (SECURITY.md).
      'https://www.googleapis.com/auth/spreadsheets',
      // Session.getActiveUser() tells the sidebar whether its user owns the spreadsheet; a non-sensitive scope (SECURITY.md).
      'https://www.googleapis.com/auth/userinfo.email',
    ]);
  });
});
