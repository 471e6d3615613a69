// What google.script.run can reach in the built dist/Code.js: every sidebar call of ServerApi, and
// besides them only the custom functions, the menu items and the triggers. Names come from the source.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { ROOT, readBuiltCode } from '../support/built-bundle';
import { CUSTOM_FUNCTION_NAMES } from '../../src/core/formulas/names';

/** The functions Apps Script itself calls by name (simple and installable add-on triggers, web app entry points). */
const TRIGGER_NAMES = new Set(['onOpen', 'onInstall', 'onEdit', 'onSelectionChange', 'onChange', 'onFormSubmit', 'doGet', 'doPost']);

function parse(file: string, kind: ts.ScriptKind, text = readFileSync(path.join(ROOT, file), 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/** The method names of `interface ServerApi` in src/shared/rpc.ts. */
function serverApiMethods(): string[] {
  const source = parse('src/shared/rpc.ts', ts.ScriptKind.TS);
  const api = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'ServerApi');
  if (!api) throw new Error('src/shared/rpc.ts declares no interface ServerApi.');
  return api.members.map((member) => {
    if (!member.name || !(ts.isMethodSignature(member) || ts.isPropertySignature(member))) throw new Error(`ServerApi has a member that is not a named method: ${member.getText(source)}`);
    return member.name.getText(source);
  });
}

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
  const rpc = serverApiMethods();
  const menu = menuFunctions();
  const { functions, otherBindings } = topLevelOf(code);

  it('reads a real surface from the source', () => {
    expect(rpc.length).toBeGreaterThan(10);
    expect(rpc).toEqual(expect.arrayContaining(['getSettings', 'saveSettings']));
    expect(menu).toEqual(expect.arrayContaining(['showSidebar']));
    expect(functions).toEqual(expect.arrayContaining(['onOpen', 'onInstall']));
  });

  it('declares every ServerApi method as a top-level function', () => {
    expect(rpc.filter((name) => !functions.includes(name))).toEqual([]);
  });

  it('declares every function the add-on menu calls, and every custom function, as a top-level function', () => {
    expect(menu.filter((name) => !functions.includes(name))).toEqual([]);
    expect(CUSTOM_FUNCTION_NAMES.filter((name) => !functions.includes(name))).toEqual([]);
  });

  it('declares no other top-level function, and each only once', () => {
    const allowed = new Set([...rpc, ...menu, ...CUSTOM_FUNCTION_NAMES, ...TRIGGER_NAMES]);
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
