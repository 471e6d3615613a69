// The contract itself: it parses, every $ref resolves, it names what the client needs, and Redocly finds it valid OpenAPI 3.1.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { CONTRACT_PATH, loadContract } from '../contract';

// biome-ignore lint/suspicious/noExplicitAny: the parsed contract is walked generically below
const document = parse(readFileSync(CONTRACT_PATH, 'utf8')) as Record<string, any>; // any: walked generically below

function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((child) => refsIn(child, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsIn(value, found);
    }
  }
  return found;
}

function resolvePointer(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), document);
}

describe('contract/openapi.yaml', () => {
  it('is an OpenAPI 3.1 document with bearer security applied globally', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(50);
    const broken = refs.filter((ref) => !ref.startsWith('#/') || resolvePointer(ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('names every component schema the client imports', () => {
    const names = [
      'Metric',
      'MetricInput',
      'DataPoint',
      'DataPointSource',
      'DataPointInput',
      'Contact',
      'ContactInput',
      'ContactList',
      'Note',
      'NoteInput',
      'NoteTag',
      'PortfolioCompanyProfile',
      'PortfolioCompanyProfileInput',
      'PortfolioNote',
      'PortfolioProperty',
      'PortfolioPropertyValue',
      'PortfolioPropertyValueInput',
      'PortfolioPropertyOption',
      'PaginationMeta',
      'ErrorItem',
      'ErrorBody',
    ];
    for (const name of names) expect(document.components.schemas).toHaveProperty(name);
  });

  it('gives every operation its agreed operationId', () => {
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId));
    expect(ids.sort()).toEqual([
      'createContact',
      'createMetric',
      'createNote',
      'createPortfolioCompanyProfile',
      'getPortfolioNote',
      'listContactLists',
      'listDataPoints',
      'listMetrics',
      'listNoteTags',
      'listPortfolioCompanyProfiles',
      'listPortfolioNotes',
      'listPortfolioProperties',
      'listPortfolioPropertyOptions',
      'listPortfolioPropertyValues',
      'updatePortfolioCompanyProfile',
      'upsertDataPoints',
      'upsertPortfolioPropertyValue',
    ]);
  });

  it('keeps the bounds the spec states', () => {
    const schemas = document.components.schemas;
    expect(document.components.parameters.Page.schema).toEqual(expect.objectContaining({ minimum: 1, default: 1 }));
    const pageSize = document.paths['/data_points'].get.parameters.find((p: { name?: string }) => p.name === 'page_size');
    expect(pageSize.schema).toEqual(expect.objectContaining({ minimum: 1, maximum: 100, default: 25 }));
    expect(schemas.PortfolioCompanyProfileInput.properties.fiscal_year_end_month).toEqual(expect.objectContaining({ minimum: 1, maximum: 12 }));
    const upsert = document.paths['/metrics/{metric_id}/data_points'].put.requestBody.content['application/json'].schema;
    expect(upsert.properties.data_points.maxItems).toBe(50);
    expect(schemas.MetricInput.properties.frequency.enum).toEqual(['daily', 'weekly', 'monthly', 'quarterly']);
    expect(schemas.Metric.properties.frequency.enum).toBeUndefined();
    expect(schemas.DataPointSource.properties.source_type.enum).toBeUndefined();
  });

  it('declares the six error types with their statuses', () => {
    const responses = document.components.responses;
    const examples = Object.fromEntries(
      // biome-ignore lint/suspicious/noExplicitAny: a YAML node
      Object.values(responses).map((response: any) => [response.content['application/json'].example.errors[0].type, response]), // any: YAML node
    );
    expect(Object.keys(examples).sort()).toEqual([
      'attribute_invalid',
      'forbidden',
      'parameter_invalid',
      'rate_limit_exceeded',
      'record_missing',
      'unauthorized',
    ]);
  });

  it('records the decisions the spec leaves open', () => {
    const decisions = JSON.stringify(document).match(/"x-decision":"[^"\\]*(?:\\.[^"\\]*)*"/g) ?? [];
    expect(decisions.length).toBeGreaterThanOrEqual(20);
    const text = decisions.join('\n');
    for (const phrase of ['plaintext_content', 'metric_id[]=a', 'Total Invested', 'annually', 'exact match', 'total_pages is 0', 'data_points[i].date']) {
      expect(text).toContain(phrase);
    }
  });

  it('compiles into request validators for all seventeen operations', () => {
    const contract = loadContract();
    expect(contract.operations.size).toBe(17);
    // Each validator is compiled on its first use: all of them at once, here, so a schema Ajv refuses fails this test.
    expect(() => contract.compileAll()).not.toThrow();
  });

  it('passes the OpenAPI 3.1 structural lint', async () => {
    // Redocly comes with openapi-typescript; it knows the OpenAPI 3.1 structure without any network.
    const { lint, createConfig } = await import('@redocly/openapi-core');
    const config = await createConfig({
      rules: {
        struct: 'error',
        'no-unresolved-refs': 'error',
        'operation-operationId-unique': 'error',
        'path-parameters-defined': 'error',
        'no-invalid-media-type-examples': 'error',
      },
    });
    const problems = await lint({ ref: path.resolve(CONTRACT_PATH), config });
    expect(problems.map((problem) => `${problem.message} at ${problem.location[0]?.pointer ?? ''}`)).toEqual([]);
  });

  it('is what src/core/api/schema.gen.ts was generated from', () => {
    const generated = readFileSync(path.resolve(__dirname, '../../src/core/api/schema.gen.ts'), 'utf8');
    for (const name of Object.keys(document.components.schemas)) expect(generated).toContain(`${name}: {`);
    expect(generated).toContain('metric_id: string | string[];');
  });
});

describe('conformance checking', () => {
  it('turns a response that breaks the contract into a 500 naming the violation', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { startEmulatorInProcess } = await import('../testing');
    const directory = mkdtempSync(path.join(tmpdir(), 'contract-'));
    const original = readFileSync(CONTRACT_PATH, 'utf8');
    const frequency = 'type: string\n          description: How often the metric has a data point.';
    expect(original).toContain(frequency);
    const stricter = original.replace(frequency, frequency.replace('string', 'integer'));
    const contractPath = path.join(directory, 'openapi.yaml');
    writeFileSync(contractPath, stricter);
    const emulator = await startEmulatorInProcess({ contractPath, checkResponses: true });
    try {
      const answer = await fetch(`${emulator.url}/metrics?company_id=${emulator.companyId}`, { headers: { authorization: `Bearer ${emulator.token}` } });
      expect(answer.status).toBe(500);
      const body = (await answer.json()) as { errors: Array<{ type: string; message: string }> };
      expect(body.errors[0]).toEqual({ type: 'emulator_contract_violation', message: expect.stringContaining('frequency must be integer') });
    } finally {
      await emulator.stop();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
