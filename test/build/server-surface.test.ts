// What google.script.run can reach in the built dist/Code.js: every export of src/server/sidebar-api.ts, and
// besides them only the custom functions, the menu items and the triggers. Names come from the source.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { ROOT, readBuiltCode } from '../support/built-bundle';
import { CUSTOM_FUNCTION_NAMES } from '../../src/core/formulas/names';
import { PROBE_FUNCTION_NAME } from '../../src/core/settings/installation-verdicts';

/** The functions Apps Script itself calls by name (simple and installable add-on triggers, web app entry points). */
const TRIGGER_NAMES = new Set([
  'onOpen',
  'onInstall',
  'onEdit',
  'onSelectionChange',
  'onChange',
  'onFormSubmit',
  'doGet',
  'doPost',
  // The scheduled refresh's time-driven trigger (src/server/snapshot-schedule.ts, SCHEDULED_REFRESH_HANDLER).
  'runScheduledSnapshotRefresh',
]);

function parse(file: string, kind: ts.ScriptKind, text = readFileSync(path.join(ROOT, file), 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The exports of src/server/sidebar-api.ts, which are ServerApi: each must be an `export const` or `export function`. */
function serverFunctions(): string[] {
  const source = parse('src/server/sidebar-api.ts', ts.ScriptKind.TS);
  const names: string[] = [];
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isExportDeclaration(statement) || ts.isExportAssignment(statement))
      throw new Error(`sidebar-api.ts exports other than by declaration: ${statement.getText(source)}`);
    if (!exported) continue;
    if (ts.isVariableStatement(statement)) names.push(...statement.declarationList.declarations.map((d) => d.name.getText(source)));
    else if (ts.isFunctionDeclaration(statement) && statement.name) names.push(statement.name.text);
    else throw new Error(`sidebar-api.ts exports something that is not a server function: ${statement.getText(source).slice(0, 80)}`);
  }
  return names;
}

/** The `global.NAME = sidebar.OTHER` lines of src/main.ts, as [NAME, OTHER]. */
function sidebarGlobals(): Array<[string, string]> {
  const source = parse('src/main.ts', ts.ScriptKind.TS);
  const pairs: Array<[string, string]> = [];
  for (const statement of source.statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isBinaryExpression(statement.expression)) continue;
    const { left, right } = statement.expression;
    if (
      ts.isPropertyAccessExpression(left) &&
      left.expression.getText(source) === 'global' &&
      ts.isPropertyAccessExpression(right) &&
      right.expression.getText(source) === 'sidebar'
    ) {
      pairs.push([left.name.text, right.name.text]);
    }
  }
  return pairs;
}

/** Every top-level name dist/Code.js defined before the server surface was written once (git show 32bbdee:src/main.ts): scripts outside the project call them. */
const NAMES_BEFORE = [
  'METRIC_VALUES',
  'METRIC_VALUE',
  'METRIC_LATEST',
  'METRIC_SOURCE',
  'METRICS',
  'CONTACT_LISTS',
  'PORTFOLIO_COMPANIES',
  'PORTFOLIO_PROPERTIES',
  'PORTFOLIO_PROPERTY_VALUES',
  'PORTFOLIO_PROPERTY_OPTIONS',
  'PORTFOLIO_NOTES',
  'PORTFOLIO_VALUE',
  'PORTFOLIO_METRIC',
  'PORTFOLIO_COVERAGE',
  'onOpen',
  'onInstall',
  'refreshData',
  'freezeSelectionFromMenu',
  'thawSelectionFromMenu',
  'showSidebar',
  'showAudit',
  'showExporter',
  'getSettings',
  'saveSettings',
  'testConnection',
  'listMetrics',
  'latestMetricValues',
  'createMetric',
  'readExportSelection',
  'previewExport',
  'startExport',
  'continueExport',
  'cancelExport',
  'resumeExport',
  'findUnfinishedExport',
  'refreshFormulasFor',
  'activeRange',
  'startImport',
  'continueImport',
  'cancelImport',
  'resumeImport',
  'listNoteTags',
  'addNoteToSelectedContacts',
  'insertPortfolioNotes',
  'buildAudit',
  'startAuditPush',
  'continueAuditPush',
  'cancelAuditPush',
  'resumeAuditPush',
  'findUnfinishedPortfolioJobs',
  'getJobProgress',
  'insertMetricValues',
  'getFormulaAccess',
  'setFormulaAccess',
  'listFundMetricNames',
  'insertPortfolioGrid',
  'buildCoverageSheet',
  'freezeSelection',
  'thawSelection',
];

/** Apps Script's server-side services: the page runs in a browser, where none of them exists. */
const APPS_SCRIPT_GLOBALS =
  /\b(SpreadsheetApp|PropertiesService|CacheService|LockService|UrlFetchApp|Utilities|HtmlService|ScriptApp|Session|DriveApp|GoogleAppsScript)\b/;

/** The functions the add-on menu calls: the second argument of each `.addItem(caption, functionName)` in src/server/menu.ts. */
function menuFunctions(): string[] {
  const source = parse('src/server/menu.ts', ts.ScriptKind.TS);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'addItem') {
      const functionName = node.arguments[1];
      if (!functionName || !ts.isStringLiteral(functionName)) throw new Error(`A menu item's function is not a string literal: ${node.getText(source)}`);
      names.push(functionName.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** The bundle's top level: its function declarations, and any other binding (variable, class) it declares. */
function topLevelOf(code: string): { functions: string[]; otherBindings: string[] } {
  const bundle = parse('dist/Code.js', ts.ScriptKind.JS, code);
  const functions: string[] = [];
  const otherBindings: string[] = [];
  for (const statement of bundle.statements) {
    if (ts.isFunctionDeclaration(statement)) functions.push(statement.name?.text ?? '(anonymous)');
    else if (ts.isVariableStatement(statement)) otherBindings.push(...statement.declarationList.declarations.map((d) => d.name.getText(bundle)));
    else if (ts.isClassDeclaration(statement)) otherBindings.push(statement.name?.text ?? '(anonymous class)');
  }
  return { functions, otherBindings };
}

const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();

describe('the server surface of dist/Code.js', () => {
  const code = readBuiltCode();
  const rpc = serverFunctions();
  const menu = menuFunctions();
  const { functions, otherBindings } = topLevelOf(code);

  it('reads a real surface from the source', () => {
    expect(rpc.length).toBeGreaterThan(10);
    expect(rpc).toEqual(expect.arrayContaining(['getSettings', 'saveSettings']));
    expect(menu).toEqual(expect.arrayContaining(['showSidebar']));
    expect(functions).toEqual(expect.arrayContaining(['onOpen', 'onInstall']));
  });

  it('declares every server function as a top-level function', () => {
    expect(rpc.filter((name) => !functions.includes(name))).toEqual([]);
  });

  it('gives every server function one global in src/main.ts, under its own name, and no global to anything else', () => {
    const globals = sidebarGlobals();
    expect(globals.filter(([name, target]) => name !== target)).toEqual([]);
    expect(sorted(globals.map(([name]) => name))).toEqual(sorted(rpc));
    expect(globals).toHaveLength(rpc.length);
  });

  it('still defines every name it defined before', () => {
    expect(NAMES_BEFORE.filter((name) => !functions.includes(name))).toEqual([]);
  });

  it('keeps the page off Apps Script: no file under sidebar/ names one of its services', () => {
    const files = readdirSync(path.join(ROOT, 'sidebar')).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.filter((name) =>
      APPS_SCRIPT_GLOBALS.test(readFileSync(path.join(ROOT, 'sidebar', name), 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')),
    );
    expect(offenders).toEqual([]);
  });

  it('declares every function the add-on menu calls, and every custom function, as a top-level function', () => {
    expect(menu.filter((name) => !functions.includes(name))).toEqual([]);
    expect(CUSTOM_FUNCTION_NAMES.filter((name) => !functions.includes(name))).toEqual([]);
  });

  it('declares no other top-level function, and each only once', () => {
    const allowed = new Set([...rpc, ...menu, ...CUSTOM_FUNCTION_NAMES, PROBE_FUNCTION_NAME, ...TRIGGER_NAMES]);
    expect(functions.filter((name) => !allowed.has(name))).toEqual([]);
    expect(functions).toHaveLength(new Set(functions).size);
  });

  it('declares no top-level variable or class, and leaves nothing else global once run', () => {
    expect(otherBindings).toEqual([]);
    // Loading runs the bundle, which assigns the real implementations to the global object: no extra name may appear.
    const context = vm.createContext({});
    vm.runInContext(code, context, { filename: 'Code.js' });
    expect(sorted(Object.keys(context))).toEqual(sorted(functions));
    for (const name of rpc) expect(typeof (context as Record<string, unknown>)[name]).toBe('function');
  });
});
