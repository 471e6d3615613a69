// Loads contract/openapi.yaml and compiles, per operation, the validators that turn bad requests into the spec's errors.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ApiError, parameterInvalid, recordMissing, type ErrorItem } from './errors';
import { queryConflicts } from './query';

/** Where the contract lives in the repository. */
export const CONTRACT_PATH = path.resolve(__dirname, '..', 'contract', 'openapi.yaml');

const SCHEMA_BASE = 'https://contract.invalid/schemas/';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

/** A JSON Schema as found in the YAML; its shape is Ajv's business. */
type Schema = Record<string, unknown>;

interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  style?: string;
  schema: Schema;
}

interface OperationObject {
  operationId: string;
  parameters?: Array<ParameterObject | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { $ref: string } | { content?: Record<string, { schema: Schema }> }>;
}

/** The parts of an OpenAPI 3.1 document the emulator reads. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>>>;
  components: {
    schemas: Record<string, Schema>;
    parameters?: Record<string, ParameterObject>;
    responses?: Record<string, { content?: Record<string, { schema: Schema }> }>;
  };
}

/** One operation of the contract, ready to check a request's query, path and body. */
export interface CompiledOperation {
  operationId: string;
  method: Uppercase<HttpMethod>;
  /** The contract's path, e.g. `/metrics/{metric_id}/data_points`. */
  path: string;
  /** The same path in Fastify's syntax, e.g. `/metrics/:metric_id/data_points`. */
  routePath: string;
  /** Coerces, defaults and validates the query; throws 400 parameter_invalid. */
  parseQuery(query: unknown): Record<string, unknown>;
  /** Validates path parameters; throws 404 where the operation lists 404, else 400. */
  parsePath(params: unknown): Record<string, string>;
  /** Validates the JSON body; throws 400 for the root key, 422 for the record's attributes. */
  parseBody(body: unknown): unknown;
}

/** The loaded contract: its document, its operations, and a response checker for conformance runs. */
export interface Contract {
  document: OpenApiDocument;
  operations: Map<string, CompiledOperation>;
  /** Why a response breaks the contract, or null when it conforms. */
  checkResponse(operationId: string, status: number, body: unknown): string | null;
  /** Compiles every validator now, as the first use of each would; throws as that use would on a schema Ajv refuses. */
  compileAll(): void;
}

/**
 * A value made on its first use. Ajv's compiling is most of an emulator's start (about 0.7 s of CPU for all
 * seventeen operations, requests and responses), and a process serves a handful of operations and checks
 * responses only in conformance runs; the validators are the same whenever they are made.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** Reads the contract and prepares its validators, each compiled on its first use (compileAll for all at once); throws if the YAML is broken. */
export function loadContract(file: string = CONTRACT_PATH): Contract {
  const document = parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  const requestAjv = createAjv(document, true);
  // Only conformance runs check responses: their Ajv (its schemas checked against the meta-schema) waits for them.
  const responseAjv = onFirstUse(() => createAjv(document, false));
  const operations = new Map<string, CompiledOperation & { compile(): void }>();
  const responseCheckers = new Map<string, () => Map<string, ValidateFunction>>();

  for (const [contractPath, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operations.set(operation.operationId, compileOperation(document, requestAjv, contractPath, method, operation));
      responseCheckers.set(
        operation.operationId,
        onFirstUse(() => compileResponses(document, responseAjv(), operation)),
      );
    }
  }

  return {
    document,
    operations,
    checkResponse(operationId, status, body) {
      const checkers = responseCheckers.get(operationId)?.();
      if (!checkers) return `unknown operation ${operationId}`;
      const check = checkers.get(String(status));
      if (!check) return `${operationId} does not declare status ${status}`;
      if (check(body)) return null;
      return `${operationId} ${status}: ${responseAjv().errorsText(check.errors)}`;
    },
    compileAll() {
      for (const operation of operations.values()) operation.compile();
      for (const checkers of responseCheckers.values()) checkers();
    },
  };
}

function createAjv(document: OpenApiDocument, useDefaults: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, useDefaults });
  addFormats(ajv);
  // OpenAPI annotations Ajv does not know; they document, they never validate.
  ajv.addVocabulary([...collectExtensionKeywords(document), 'example']);
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    ajv.addSchema({ ...(rewriteRefs(schema) as Schema), $id: SCHEMA_BASE + name });
  }
  return ajv;
}

function collectExtensionKeywords(document: OpenApiDocument): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        visit(value);
      }
    }
  };
  visit(document.components.schemas);
  visit(document.paths);
  return found;
}

/** Component refs point into the document; Ajv knows each component by its own $id instead. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      copy[key] = SCHEMA_BASE + value.slice('#/components/schemas/'.length);
    } else {
      copy[key] = rewriteRefs(value);
    }
  }
  return copy;
}

function resolveParameter(document: OpenApiDocument, parameter: ParameterObject | { $ref: string }): ParameterObject {
  if (!('$ref' in parameter)) return parameter;
  const name = parameter.$ref.replace('#/components/parameters/', '');
  const resolved = document.components.parameters?.[name];
  if (!resolved) throw new Error(`contract: unresolved parameter ${parameter.$ref}`);
  return resolved;
}

function compileOperation(
  document: OpenApiDocument,
  ajv: Ajv2020,
  contractPath: string,
  method: HttpMethod,
  operation: OperationObject,
): CompiledOperation & { compile(): void } {
  const parameters = (operation.parameters ?? []).map((parameter) => resolveParameter(document, parameter));
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
  const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
  const queryValidator = onFirstUse(() => ajv.compile(objectSchemaOf(queryParameters)));
  const pathValidator = onFirstUse(() => ajv.compile(objectSchemaOf(pathParameters)));
  const pathFailsAs404 = '404' in operation.responses;

  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const bodyValidator = onFirstUse(() => (bodySchema ? ajv.compile(rewriteRefs(bodySchema) as Schema) : undefined));
  const rootKey = bodySchema ? singleRequiredKey(bodySchema) : undefined;
  const rootIsArray = bodySchema && rootKey ? schemaTypeOfProperty(bodySchema, rootKey) === 'array' : false;

  return {
    operationId: operation.operationId,
    method: method.toUpperCase() as Uppercase<HttpMethod>,
    path: contractPath,
    routePath: contractPath.replace(/\{([^}]+)\}/g, ':$1'),
    parseQuery(query) {
      const conflicts = queryConflicts(query);
      if (conflicts.length > 0) throw new ApiError(400, conflicts.map(mixedForms));
      const value = coerceQuery(query, queryParameters);
      const validateQuery = queryValidator();
      if (validateQuery(value)) return value;
      throw new ApiError(400, queryItems(validateQuery.errors ?? []));
    },
    parsePath(params) {
      const validatePath = pathValidator();
      if (validatePath(params)) return params as Record<string, string>;
      const items = queryItems(validatePath.errors ?? []);
      if (pathFailsAs404) throw recordMissing(`No record with ${items[0]?.field ?? 'this'} ${describeValue(params, items[0]?.field)}`);
      throw new ApiError(400, items);
    },
    parseBody(body) {
      const validateBody = bodyValidator();
      if (!validateBody || !rootKey) return body;
      if (body === undefined || body === null) throw parameterInvalid(rootKey, 'is missing: the body must be a JSON object');
      if (validateBody(body)) return body;
      throw bodyError(validateBody.errors ?? [], rootKey, rootIsArray);
    },
    compile() {
      queryValidator();
      pathValidator();
      bodyValidator();
    },
  };
}

function compileResponses(document: OpenApiDocument, ajv: Ajv2020, operation: OperationObject): Map<string, ValidateFunction> {
  const checkers = new Map<string, ValidateFunction>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const resolved = '$ref' in response ? document.components.responses?.[response.$ref.replace('#/components/responses/', '')] : response;
    const schema = resolved?.content?.['application/json']?.schema;
    checkers.set(status, ajv.compile(schema ? (rewriteRefs(schema) as Schema) : {}));
  }
  return checkers;
}

function objectSchemaOf(parameters: ParameterObject[]): Schema {
  const properties: Record<string, unknown> = {};
  for (const parameter of parameters) properties[parameter.name] = rewriteRefs(parameter.schema);
  return {
    type: 'object',
    properties,
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

function singleRequiredKey(schema: Schema): string | undefined {
  const required = schema.required;
  return Array.isArray(required) && typeof required[0] === 'string' ? required[0] : undefined;
}

function schemaTypeOfProperty(schema: Schema, key: string): unknown {
  const properties = schema.properties as Record<string, Schema> | undefined;
  return properties?.[key]?.type;
}

/** Query strings carry text only; integer parameters are converted here so Ajv can check their bounds. */
function coerceQuery(query: unknown, parameters: ParameterObject[]): Record<string, unknown> {
  const source = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  // No prototype: a `__proto__` key in the query must stay a key, not become this object's prototype.
  const result = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) result[key] = value;
  for (const parameter of parameters) {
    const value = result[parameter.name];
    const type = parameter.schema.type;
    if ((type === 'integer' || type === 'number') && typeof value === 'string' && /^[+-]?\d+(\.\d+)?$/.test(value)) {
      result[parameter.name] = Number(value);
    }
  }
  return result;
}

function describeValue(params: unknown, field: string | undefined): string {
  if (!field || !params || typeof params !== 'object') return '';
  return String((params as Record<string, unknown>)[field] ?? '');
}

const KEYWORD_RANK: Record<string, number> = { type: 1, oneOf: 2, anyOf: 2, if: 2 };

/** Ajv reports a failing oneOf branch by branch; the caller needs one clear sentence per field. */
function bestPerField(errors: ErrorObject[], fieldOf: (error: ErrorObject) => string): Map<string, ErrorObject> {
  const best = new Map<string, ErrorObject>();
  for (const error of errors) {
    const field = fieldOf(error);
    const current = best.get(field);
    if (!current || isBetter(error, current)) best.set(field, error);
  }
  return best;
}

function isBetter(candidate: ErrorObject, current: ErrorObject): boolean {
  const depth = candidate.instancePath.length - current.instancePath.length;
  if (depth !== 0) return depth > 0;
  return (KEYWORD_RANK[candidate.keyword] ?? 0) < (KEYWORD_RANK[current.keyword] ?? 0);
}

function pathSegments(error: ErrorObject): string[] {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === 'required' && params.missingProperty) segments.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && params.additionalProperty) segments.push(params.additionalProperty);
  return segments;
}

/** Query fields read as the client wrote them: `page`, `metric_id`, `filter[portfolio_company_profile_id]`. */
function queryField(error: ErrorObject): string {
  const [name = '', key] = pathSegments(error);
  return key !== undefined && !/^\d+$/.test(key) ? `${name}[${key}]` : name;
}

/** A key sent both as `key=v` and as `key[]=v` (or `key[k]=v`): the service cannot tell which the client meant. */
function mixedForms(field: string): ErrorItem {
  return {
    type: 'parameter_invalid',
    field,
    message: `is sent both as a single value (${field}=…) and as a list or object (${field}[]=…); send one form, e.g. ${field}[]=a&${field}[]=b for several`,
  };
}

function queryItems(errors: ErrorObject[]): ErrorItem[] {
  return [...bestPerField(errors, queryField)].map(([field, error]) => ({
    type: 'parameter_invalid',
    field,
    message:
      error.keyword === 'type' && error.params.type === 'object' ? 'must be an object (deep-object style, e.g. filter[key]=value)' : describeError(error),
  }));
}

/** Body fields are named inside the root record (`name`), or under the root array (`data_points[3].date`). */
function bodyField(segments: string[], rootIsArray: boolean): string {
  const inside = rootIsArray ? segments : segments.slice(1);
  let field = '';
  for (const segment of inside) {
    if (/^\d+$/.test(segment)) field += `[${segment}]`;
    else field += field === '' ? segment : `.${segment}`;
  }
  return field || (segments[0] ?? '');
}

function bodyError(errors: ErrorObject[], rootKey: string, rootIsArray: boolean): ApiError {
  // A missing or mistyped root key is Rails' ParameterMissing: a malformed request (400), not a bad attribute.
  const rootProblem = errors.find((error) => error.instancePath === '' || (error.instancePath === `/${rootKey}` && error.keyword === 'type'));
  if (rootProblem) {
    return parameterInvalid(rootKey, `is required and must be ${rootIsArray ? 'an array' : 'an object'}`);
  }
  const best = bestPerField(errors, (error) => bodyField(pathSegments(error), rootIsArray));
  return new ApiError(
    422,
    [...best].map(([field, error]) => ({ type: 'attribute_invalid', field, message: describeError(error) })),
  );
}

const FORMAT_MESSAGES: Record<string, string> = {
  uuid: 'must be a UUID',
  date: 'must be a date (YYYY-MM-DD)',
  'date-time': 'must be a date-time (ISO 8601)',
  email: 'must be an email address',
  uri: 'must be a URL',
};

function describeError(error: ErrorObject): string {
  const params = error.params as { format?: string; allowedValues?: unknown[]; pattern?: string };
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known attribute';
    case 'format':
      return FORMAT_MESSAGES[params.format ?? ''] ?? `must be a valid ${params.format ?? 'value'}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues ?? []).join(', ')}`;
    case 'pattern':
      return `must match the pattern ${params.pattern ?? ''}`;
    default:
      return error.message ?? 'is invalid';
  }
}
