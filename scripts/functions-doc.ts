// docs/functions.md, made from the custom functions' JSDoc in src/main.ts (the text the bundle carries and
// Sheets shows in its autocomplete) and from running each example on the workbench's demo data in the Node
// runtime, so the page cannot drift from the code: test/build/functions-doc.test.ts makes it again and compares.
// Usage: npm run docs:functions (after npm run build).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createGasRuntime, type GasRuntime } from '../gas-runtime';
import { DEMO_IDS, DEMO_TOKEN } from '../emulator/demo-data';
import { FUND_CELL_CASES } from '../src/core/formulas/fund-cells';
import { SOURCE_CELL_CASES } from '../src/core/formulas/fund-sources';
import { startEmulatorProcess } from '../emulator/testing';

const ROOT = path.resolve(__dirname, '..');
export const FUNCTIONS_DOC = path.join(ROOT, 'docs', 'functions.md');

export interface Parameter {
  name: string;
  type: string;
  optional: boolean;
  description: string;
}

export interface CustomFunctionDoc {
  name: string;
  /** The JSDoc block as written, delimiters included: the bundle carries it byte for byte. */
  block: string;
  description: string;
  params: Parameter[];
  returns: { type: string; description: string };
  example: string;
}

/** Every `@customfunction` of src/main.ts, in the order the file declares them. */
export function customFunctionDocs(source = readFileSync(path.join(ROOT, 'src', 'main.ts'), 'utf8')): CustomFunctionDoc[] {
  const docs: CustomFunctionDoc[] = [];
  const pattern = /(\/\*\*[\s\S]*?\*\/)\s*global\.([A-Z_][A-Z0-9_]*)\s*=\s*function/g;
  for (const match of source.matchAll(pattern)) {
    const block = match[1]!;
    if (!block.includes('@customfunction')) continue;
    const lines = block
      .replace(/^\/\*\*|\*\/$/g, '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, '').trimEnd());
    const description: string[] = [];
    const params: Parameter[] = [];
    let returns = { type: '', description: '' };
    let example = '';
    for (const line of lines) {
      const param = /^@param \{([^}]*)\} (\[)?([A-Za-z_]+)\]? ?(.*)$/.exec(line);
      const ret = /^@return \{([^}]*)\} ?(.*)$/.exec(line);
      const ex = /^@example (.*)$/.exec(line);
      if (param) params.push({ type: param[1]!, optional: param[2] === '[', name: param[3]!, description: param[4]! });
      else if (ret) returns = { type: ret[1]!, description: ret[2]! };
      else if (ex) example = ex[1]!;
      else if (!line.startsWith('@') && params.length === 0) description.push(line);
    }
    docs.push({ name: match[2]!, block, description: description.join('\n').trim(), params, returns, example });
  }
  return docs;
}

/** What each function is shown doing on the demo data, and one mistake with the sentence the cell then shows. */
const M = DEMO_IDS.metrics;
export const DEMO_EXAMPLES: Record<string, { ok: string[]; mistake: string } | 'internal'> = {
  METRIC_VALUES: {
    ok: [`=METRIC_VALUES("${M.monthlyRecurringRevenue}", "2024-01-01", "2024-06-30", "headers")`],
    mistake: `=METRIC_VALUES("${M.monthlyRecurringRevenue}", "2024-06-30", "2024-01-01")`,
  },
  METRIC_VALUE: {
    ok: [`=METRIC_VALUE("${M.monthlyRecurringRevenue}", "2024-06")`, `=METRIC_VALUE("${M.monthlyRecurringRevenue}", "2024-Q2", "sum")`],
    mistake: `=METRIC_VALUE("${M.monthlyRecurringRevenue}", "2024-Q2")`,
  },
  METRIC_LATEST: { ok: [`=METRIC_LATEST("${M.netBurn}", "2024-06-30", "with_date")`], mistake: `=METRIC_LATEST("not-a-metric-id", "2024-06-30")` },
  METRIC_SOURCE: { ok: [`=METRIC_SOURCE("${M.monthlyRecurringRevenue}", "2024-06")`], mistake: `=METRIC_SOURCE("${M.monthlyRecurringRevenue}", "2024-Q2")` },
  METRICS: { ok: [`=METRICS("${DEMO_IDS.fund}", "${DEMO_IDS.profile(1)}")`], mistake: `=METRICS("${DEMO_IDS.otherFund}")` },
  CONTACT_LISTS: { ok: [`=CONTACT_LISTS("${DEMO_IDS.fund}")`], mistake: '=CONTACT_LISTS("")' },
  PORTFOLIO_COMPANIES: { ok: [`=PORTFOLIO_COMPANIES("${DEMO_IDS.fund}")`], mistake: `=PORTFOLIO_COMPANIES("${DEMO_IDS.startup}")` },
  PORTFOLIO_PROPERTIES: { ok: [`=PORTFOLIO_PROPERTIES("${DEMO_IDS.fund}")`], mistake: '=PORTFOLIO_PROPERTIES("fund")' },
  PORTFOLIO_PROPERTY_VALUES: { ok: [`=PORTFOLIO_PROPERTY_VALUES("${DEMO_IDS.profile(1)}")`], mistake: `=PORTFOLIO_PROPERTY_VALUES("${DEMO_IDS.profile(13)}")` },
  PORTFOLIO_PROPERTY_OPTIONS: { ok: [`=PORTFOLIO_PROPERTY_OPTIONS("${DEMO_IDS.property(1)}")`], mistake: '=PORTFOLIO_PROPERTY_OPTIONS("")' },
  PORTFOLIO_NOTES: { ok: [`=PORTFOLIO_NOTES("${DEMO_IDS.profile(1)}")`], mistake: '=PORTFOLIO_NOTES("")' },
  PORTFOLIO_VALUE: {
    ok: [
      '=PORTFOLIO_VALUE("Redwood Fintech", "MRR", "2024-06")',
      '=PORTFOLIO_VALUE("Redwood Fintech", "Revenue (sum)", "2024-Q2")',
      '=PORTFOLIO_VALUE("Redwood Fintech", "Revenue", "2024-Q2")',
      '=PORTFOLIO_VALUE("Pinnacle Retail", "Revenue", "2024-Q1")',
      '=PORTFOLIO_VALUE("Aurora Robotics", "Revenue", "2024-Q1")',
    ],
    mistake: '=PORTFOLIO_VALUE("Cirrus Systems", "Revenue", "2024-Q1")',
  },
  PORTFOLIO_METRIC: { ok: ['=PORTFOLIO_METRIC("MRR", {"2024-04","2024-05","2024-06"})'], mistake: '=PORTFOLIO_METRIC("MRR", "")' },
  PORTFOLIO_UNIT: {
    ok: [
      '=PORTFOLIO_UNIT("Bluebird Health", "Net Burn")',
      '=PORTFOLIO_UNIT("Redwood Fintech", "Net Burn")',
      '=PORTFOLIO_UNIT({"Bluebird Health";"Redwood Fintech";"Companies with a value"}, "Net Burn")',
    ],
    mistake: '=PORTFOLIO_UNIT("Bluebird Health", "Net Burnn")',
  },
  // Sheets lists it (it is a custom function), but only Check this installation writes it, into a hidden sheet.
  INSTALLATION_PROBE: 'internal',
  PORTFOLIO_COVERAGE: { ok: ['=PORTFOLIO_COVERAGE("MRR", "2024-Q1", "2024-Q2")'], mistake: '=PORTFOLIO_COVERAGE("MRR", "2024-Q2", "2024-01")' },
  PORTFOLIO_SOURCE: {
    ok: [
      '=PORTFOLIO_SOURCE("Redwood Fintech", "MRR", "2024-06")',
      '=PORTFOLIO_SOURCE("Redwood Fintech", "Revenue (sum)", "2024-Q2")',
      '=PORTFOLIO_SOURCE("Redwood Fintech", "Cash (last)", "2024-Q2")',
      '=PORTFOLIO_SOURCE("Pinnacle Retail", "Revenue", "2024-Q1")',
    ],
    mistake: '=PORTFOLIO_SOURCE("Cirrus Systems", "Revenue", "2024-Q1")',
  },
};

/** What a fund's cells show in each case, from the table the functions themselves share (fund-cells.ts). */
function fundCellCases(): string[] {
  return [
    "## What a fund's cells show",
    '',
    '`PORTFOLIO_VALUE` and `PORTFOLIO_METRIC` show the same thing for a company, metric name and period, and',
    "`PORTFOLIO_COVERAGE` counts it as the same case, so a model's total, a table's and the coverage agree. Nothing",
    "in a fund's value cells is an error unless the whole block is wrong: Sheets' `SUM` skips empty cells and text",
    "but fails on an error, so a `=SUM` row under a model adds the numbers, and `COUNT` (the model's *Companies with a",
    "value* line, `PORTFOLIO_METRIC`'s last row) says how many companies that total holds.",
    '',
    '| when | the cell shows | PORTFOLIO_COVERAGE counts it as |',
    '| --- | --- | --- |',
    ...FUND_CELL_CASES.map((c) => `| ${c.when} | ${c.value.replace(/\|/g, '\\|')} | ${c.coverage} |`),
    '',
    "A period holding several of a metric's values (a quarter of a monthly metric) is combined only as the metric's",
    'name says: `Revenue (sum)`, `Cash (last)`, `Headcount (average)`, `Cash (first)`, in the name cell or argument.',
    'The aggregate belongs to that name: typing another name over it (`Cash` over `Revenue (sum)`) makes the cells',
    'ask, never sum the new metric. The older last argument (`=PORTFOLIO_VALUE($A2, $A$1, B$1, "sum")`, in sheets and',
    'scripts written before) still works where a period holds one value, and otherwise combines nothing by itself:',
    "the cell says what to type; when it contradicts the name's own aggregate, the cell is an error saying so.",
    "`PORTFOLIO_COVERAGE`'s last argument is a reporting rule, not a value: it serves the names that name none.",
    '',
    '*Insert a fund model* writes one grid formula per block, `=PORTFOLIO_VALUE($A2:$A33, $A$1, B$1:J$1)`: Sheets runs it',
    'once, where one formula per value cell (its *One formula per cell* option) is one execution per value, which Apps',
    'Script refuses past its rate ("Script invoked too many times per second", docs/platform.md §14). Both show the cases',
    'above alike, the block showing as text the sentence a single cell shows as its error.',
    '',
    'Two companies of one name are told apart by a label, the name and the profile id: `Cirrus Systems',
    "(b0000000-0000-4000-8000-000000000014)`. The fund's tables, the fund model's rows and the sidebar's lists",
    'show it, and every function reads it back as that company; the bare shared name is an error naming both labels.',
    '',
    "Companies may keep one metric name in different units (the demo's Net Burn: Bluebird Health in euros, the rest in",
    "dollars). Every fund table says each row's unit: `PORTFOLIO_METRIC`'s last column *Unit*, and a fund model's unit",
    "column, the last column of its block's one `PORTFOLIO_VALUE` (a period cell reading `Unit` gives the company's unit).",
    "Where the rows are in more than one unit, `PORTFOLIO_METRIC`'s *Companies with a value* line says so (`rows in USD",
    "and EUR: a total over them adds different currencies`), as do `PORTFOLIO_UNIT` over that line and the insert's status.",
    'Nothing the add-in writes adds a total; one you add under such rows mixes units.',
  ];
}

/** What a PORTFOLIO_SOURCE cell shows in each case, from its own table (fund-sources.ts). */
function sourceCellCases(): string[] {
  return [
    "## What a fund cell's source shows",
    '',
    "`PORTFOLIO_SOURCE` takes `PORTFOLIO_VALUE`'s arguments, so a block of it beside a model's block (or one grid",
    'formula, `=PORTFOLIO_SOURCE(A2:A33, A1, B1:I1)`) says where each value came from. A source is one text, the type',
    "as `METRIC_SOURCE` gives it and the label; the links are in `METRIC_SOURCE` and in the sidebar's provenance sheet.",
    "Every cell of one metric name reads one series with sources: that of every company's metric of the name, together.",
    '',
    '| when | PORTFOLIO_SOURCE shows |',
    '| --- | --- |',
    ...SOURCE_CELL_CASES.map((c) => `| ${c.when} | ${c.source.replace(/\|/g, '\\|')} |`),
  ];
}

/** Rows shown per result: enough to see its shape; the rest is counted. */
const SHOWN_ROWS = 6;

const cellText = (value: unknown): string => {
  const text = String(value ?? '');
  return (text.length > 60 ? `${text.slice(0, 57)}…` : text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
};

function resultTable(rows: unknown[][]): string {
  const width = Math.max(...rows.map((row) => row.length));
  const shown = rows.slice(0, SHOWN_ROWS);
  const line = (cells: unknown[]) => `| ${Array.from({ length: width }, (_, i) => cellText(cells[i])).join(' | ')} |`;
  // A table needs a header row: the result's own first row serves, as the cells show it.
  const out = [line(shown[0]!), `|${' --- |'.repeat(width)}`, ...shown.slice(1).map(line)];
  const more = rows.length - SHOWN_ROWS;
  if (more > 0) out.push(`\n…and ${more} more ${more === 1 ? 'row' : 'rows'} (${rows.length} in all).`);
  return out.join('\n');
}

function signature(doc: CustomFunctionDoc): string {
  return `${doc.name}(${doc.params.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ')})`;
}

/** Runs a formula in A1 and answers what the cells show (display values, as a person reads them). */
function run(rt: GasRuntime, formula: string): string {
  const sheet = rt.spreadsheet.getActiveSheet();
  const outcome = rt.evaluateFormula(formula, { cell: 'A1' });
  const width = outcome.ok ? Math.max(...outcome.values.map((row) => row.length)) : 1;
  const rows = outcome.ok ? sheet.getRange(1, 1, outcome.values.length, width).getDisplayValues() : [];
  sheet.clear();
  if (!outcome.ok) return `the cell shows \`${outcome.error.code}\`: ${outcome.error.message}`;
  return rows.length === 1 && rows[0]!.length === 1 ? `the cell shows **${cellText(rows[0]![0])}**` : resultTable(rows);
}

/** The whole page. Runs every example on the demo data (the built bundle and a child-process emulator). */
export async function renderFunctionsDoc(): Promise<string> {
  const emulator = await startEmulatorProcess();
  const rt = createGasRuntime({ code: { path: path.join(ROOT, 'dist', 'Code.js') }, files: path.join(ROOT, 'dist'), timeZone: 'America/New_York' });
  try {
    rt.properties
      .user('owner@example.com')
      .setProperties({ METRICS_API_TOKEN: DEMO_TOKEN, METRICS_API_BASE_URL: emulator.url, METRICS_DEFAULT_COMPANY_ID: emulator.companyId });
    const docs = customFunctionDocs();
    const parts = [
      '# Custom functions',
      '',
      "Every function the add-in adds to Sheets: what it takes, what it returns, and what it gives on the workbench's demo",
      'data (`npm start`; the fund Northwind Ventures). Generated from the JSDoc in `src/main.ts`, the text Sheets shows',
      'in its autocomplete, and from running each example in the Node runtime: `npm run docs:functions` writes this page,',
      'and `test/build/functions-doc.test.ts` fails when it and the code differ. Do not edit it by hand.',
      '',
      'Each function runs as its own execution, caches what it reads, and shows a sentence saying what to do when it',
      'cannot give a value (hover over the cell). Periods, aggregates and how several cells share one read are in the',
      '[guide](guide.md).',
      '',
      ...docs.map((doc) => `- [${doc.name}](#${doc.name.toLowerCase()})`),
      "- [What a fund's cells show](#what-a-funds-cells-show)",
      "- [What a fund cell's source shows](#what-a-fund-cells-source-shows)",
    ];
    for (const doc of docs) {
      const examples = DEMO_EXAMPLES[doc.name];
      parts.push('', `## ${doc.name}`, '', `\`${signature(doc)}\``, '', doc.description, '');
      if (doc.params.length) {
        parts.push('| argument | type | meaning |', '| --- | --- | --- |');
        for (const p of doc.params)
          parts.push(`| \`${p.name}\`${p.optional ? ' (optional)' : ''} | \`${p.type.replace(/\|/g, '\\|')}\` | ${p.description.replace(/\|/g, '\\|')} |`);
        parts.push('');
      }
      parts.push(`**Returns** \`${doc.returns.type}\`: ${doc.returns.description}`, '', `Example: \`${doc.example}\``);
      if (!examples) throw new Error(`${doc.name} has no demo example in scripts/functions-doc.ts: add one.`);
      if (examples === 'internal') {
        parts.push('', 'Not for models: *Check this installation* writes it into a hidden sheet and deletes it when the check ends.');
        continue;
      }
      parts.push('', '**On the demo data**');
      for (const formula of examples.ok) parts.push('', '```', formula, '```', '', run(rt, formula));
      parts.push('', '**A mistake, and what the cell says**', '', '```', examples.mistake, '```', '', run(rt, examples.mistake));
      if (doc.name === 'PORTFOLIO_COVERAGE') parts.push('', ...fundCellCases());
      if (doc.name === 'PORTFOLIO_SOURCE') parts.push('', ...sourceCellCases());
    }
    return `${parts.join('\n')}\n`;
  } finally {
    await rt.close();
    await emulator.stop();
  }
}

if (require.main === module) {
  renderFunctionsDoc().then(
    (text) => {
      writeFileSync(FUNCTIONS_DOC, text);
      console.log(`Wrote ${path.relative(ROOT, FUNCTIONS_DOC)}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
