// Which Apps Script members the add-in uses: found by the type checker in src/ (exact class and member), and by
// name in the built bundle (what actually ships, whatever its types said).

import path from 'node:path';
import ts from 'typescript';
import { ROOT } from './built-bundle';

/** Where a member is used: `Class.member` → the source files using it. */
export type MemberUses = Map<string, Set<string>>;

function isAppsScriptDeclaration(node: ts.Node): boolean {
  return /[\\/]@types[\\/]google-apps-script[\\/]/.test(node.getSourceFile().fileName);
}

/** `Range` for a member declared in `interface Range` of the Apps Script types. */
function ownerName(declaration: ts.Declaration): string | null {
  const parent = declaration.parent;
  return ts.isInterfaceDeclaration(parent) || ts.isClassDeclaration(parent) ? (parent.name?.text ?? null) : null;
}

/** The program Apps Script runs: tsconfig.server.json (src/, Apps Script's types, no Node or DOM). */
function serverProgram(): ts.Program {
  const configPath = path.join(ROOT, 'tsconfig.server.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  return ts.createProgram(parsed.fileNames, parsed.options);
}

/**
 * Every member of an Apps Script class that src/ reads (calls, or passes on as a function), keyed
 * `Class.member`, with the files that do; and every member name each Apps Script class declares.
 */
export function appsScriptMembersUsedInSource(): { used: MemberUses; declared: Map<string, Set<string>> } {
  const program = serverProgram();
  const checker = program.getTypeChecker();
  const used: MemberUses = new Map();
  const declared = new Map<string, Set<string>>();
  for (const sourceFile of program.getSourceFiles()) {
    if (isAppsScriptDeclaration(sourceFile)) {
      const collect = (node: ts.Node): void => {
        if ((ts.isMethodSignature(node) || ts.isPropertySignature(node)) && ts.isIdentifier(node.name)) {
          const owner = ownerName(node);
          if (owner) (declared.get(node.name.text) ?? declared.set(node.name.text, new Set()).get(node.name.text)!).add(owner);
        }
        ts.forEachChild(node, collect);
      };
      collect(sourceFile);
      continue;
    }
    if (sourceFile.isDeclarationFile) continue;
    const file = path.relative(ROOT, sourceFile.fileName);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) {
        const declaration = checker.getSymbolAtLocation(node.name)?.declarations?.[0];
        if (declaration && isAppsScriptDeclaration(declaration)) {
          const owner = ownerName(declaration);
          if (owner) {
            const key = `${owner}.${node.name.text}`;
            (used.get(key) ?? used.set(key, new Set()).get(key)!).add(file);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  return { used, declared };
}

/** Apps Script's global services as the bundle names them (`SpreadsheetApp.getActiveSpreadsheet`). */
const GLOBAL_SERVICES = [
  'SpreadsheetApp',
  'PropertiesService',
  'CacheService',
  'LockService',
  'ScriptApp',
  'Session',
  'UrlFetchApp',
  'Utilities',
  'HtmlService',
  'DriveApp',
  'MailApp',
  'GmailApp',
  'DocumentApp',
  'CalendarApp',
  'FormApp',
  'SlidesApp',
  'ContentService',
  'XmlService',
  'Charts',
  'Jdbc',
  'Maps',
  'Browser',
];

/** `Service.member` for every global service member the bundle's text reads. */
export function globalServiceMembersInBundle(code: string): Set<string> {
  const pattern = new RegExp(`\\b(${GLOBAL_SERVICES.join('|')})\\s*\\.\\s*([A-Za-z_$][\\w$]*)`, 'g');
  return new Set([...code.matchAll(pattern)].map((match) => `${match[1]}.${match[2]}`));
}

/** Methods of JavaScript's own objects: a bundle's `.get(` or `.filter(` is one of these as often as an Apps Script call. */
function builtInMethodNames(): Set<string> {
  const holders: object[] = [
    Object.prototype,
    Array.prototype,
    String.prototype,
    Number.prototype,
    Date.prototype,
    Map.prototype,
    Set.prototype,
    WeakMap.prototype,
    Promise.prototype,
    RegExp.prototype,
    Function.prototype,
    Error.prototype,
    Object,
    Array,
    String,
    Number,
    Date,
    Promise,
    JSON,
    Math,
    Reflect,
    Intl.DateTimeFormat.prototype,
    Intl.NumberFormat.prototype,
    ArrayBuffer.prototype,
    Uint8Array.prototype,
    Object.getPrototypeOf(Uint8Array.prototype) as object,
  ];
  return new Set(holders.flatMap((holder) => Object.getOwnPropertyNames(holder)));
}

/** Every name the bundle calls as a method (`.name(`) that some Apps Script class declares and JavaScript's objects do not. */
export function appsScriptNamedCallsInBundle(code: string, declared: Map<string, Set<string>>): Set<string> {
  const builtIns = builtInMethodNames();
  const called = new Set([...code.matchAll(/\.\s*([A-Za-z_$][\w$]*)\s*\(/g)].map((match) => match[1]!));
  return new Set([...called].filter((name) => declared.has(name) && !builtIns.has(name)));
}
