// Every write of values or formulas into cells goes through the one safe-cell path, src/gas/sheet-io.ts
// (writeValues, writePlainText, restoreFormula, …), which keeps text starting with =, +, - or @ as text
// (src/core/sheets/cell-safety.ts). A setValue(s), setFormula(s) or setRichTextValue(s) anywhere else
// could turn API or person text into a live formula (Freeze once did). Scanned twice: the sources,
// naming file and line, and the bundle Apps Script runs, naming the function the call is in.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT, readBuiltCode } from '../support/built-bundle';

/** The Range methods that put values or formulas into cells (appendRow: Sheet's). */
const CELL_WRITE = /\.(setValues?|setFormulas?|setFormulaR1C1|setFormulasR1C1|setRichTextValues?|appendRow)\s*\(/;
const SAFE_MODULE = 'src/gas/sheet-io.ts';

type Offence = { where: string; line: number; text: string };

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.ts$/.test(name) ? [relative] : [];
  });
}

/** Lines of `text` that write cells, comments left out (JSDoc names setValues() when it explains). */
export function cellWrites(text: string, where: string): Offence[] {
  return text.split('\n').flatMap((line, index) => {
    const code = line
      .replace(/\/\/.*$/, '')
      .replace(/^\s*\*.*$/, '')
      .replace(/\/\*.*?\*\//g, '');
    return CELL_WRITE.test(code) ? [{ where, line: index + 1, text: line.trim() }] : [];
  });
}

/** The top-level functions of the safe-cell module, as its source declares them. */
function safeFunctions(): Set<string> {
  const source = readFileSync(path.join(ROOT, SAFE_MODULE), 'utf8');
  return new Set([...source.matchAll(/^(?:export )?function (\w+)\(/gm)].map((match) => match[1]!));
}

describe('the scanner', () => {
  it.each([
    ['  range.setValues(rows);'],
    ['sheet.getRange(1, 1).setValue(text)'],
    ['cell.setFormula(formula);'],
    ['range.setNumberFormat("@").setValues (rows)'],
    ['cell.setRichTextValue(value)'],
    ['sheet.appendRow(["a"])'],
  ])('finds %p', (line) => {
    expect(cellWrites(line, 'x.ts')).toHaveLength(1);
  });

  it.each([
    ['// setValues would make it a formula'],
    [' * A cell as Range.setValues() takes it'],
    ['writeValues(range, rows);'],
    ['range.getValues()'],
    ['range.setNumberFormat("@")'],
  ])('leaves %p alone', (line) => {
    expect(cellWrites(line, 'x.ts')).toEqual([]);
  });
});

it('no source outside src/gas/sheet-io.ts writes values or formulas into cells', () => {
  const offences = sourceFiles('src')
    .filter((file) => file !== SAFE_MODULE)
    .flatMap((file) => cellWrites(readFileSync(path.join(ROOT, file), 'utf8'), file));
  expect(offences.map(({ where, line, text }) => `${where}:${line}: ${text}`)).toEqual([]);
});

it('in the bundle, every such call is inside a function of src/gas/sheet-io.ts', () => {
  const allowed = safeFunctions();
  const lines = readBuiltCode().split('\n');
  const offences: string[] = [];
  let current = '(top level)';
  lines.forEach((line, index) => {
    const declared = /^(?:async )?function (\w+)\(/.exec(line);
    if (declared) current = declared[1]!;
    if (cellWrites(line, 'dist/Code.js').length === 0) return;
    // esbuild renames a function whose name another module also uses: writeValues2.
    if (!allowed.has(current.replace(/\d+$/, ''))) offences.push(`dist/Code.js:${index + 1} (in ${current}): ${line.trim()}`);
  });
  expect(allowed.has('writeValues')).toBe(true);
  expect(offences).toEqual([]);
});
