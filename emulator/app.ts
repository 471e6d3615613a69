// Builds the emulator: a Fastify server whose routes, validation and errors follow contract/openapi.yaml.

import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { authenticate, rateLimitKey } from './access';
import { Clock } from './clock';
import { loadContract, type Contract } from './contract';
import { buildDemoState, buildEmptyState, DEMO_IDS, DEMO_TOKEN, demoIdentity } from './demo-data';
import { ApiError, notEmulated, parameterInvalid, rateLimitExceeded, unauthorized } from './errors';
import { FaultInjector, NO_FAULTS, type FaultSettings } from './faults';
import type { EmulatorContext, OperationInput, OperationId, RegisterOperation } from './operation';
import { parseRailsQuery } from './query';
import { DEFAULT_RATE_LIMIT, RateLimiter } from './rate-limit';
import type { UserRecord } from './records';
import { RequestLog, type LoggedRequest } from './request-log';
import { registerContactRoutes } from './routes/contacts';
import { registerControlRoutes } from './routes/control';
import { registerDataPointRoutes } from './routes/data-points';
import { registerMetricRoutes } from './routes/metrics';
import { NOT_EMULATED_ENDPOINTS } from './routes/not-emulated';
import { registerNoteRoutes } from './routes/notes';
import { registerPortfolioNoteRoutes } from './routes/portfolio-notes';
import { registerProfileRoutes } from './routes/portfolio-profiles';
import { registerPropertyRoutes } from './routes/portfolio-properties';
import { registerPropertyValueRoutes } from './routes/portfolio-values';
import { Store } from './store';

/** How to start an emulator; every field is optional. */
export interface EmulatorOptions {
  /** Bearer token of the demo user (default `demo-token`). */
  token?: string;
  /** Id of the demo fund (default the fixed demo id). */
  companyId?: string;
  /** Start with only the fund and its user, no records. */
  empty?: boolean;
  /** Requests per window and token (default 500). */
  rateLimit?: number;
  /** Window length in seconds (default 300). */
  rateWindowSeconds?: number;
  /** Send Retry-After on 429 (default false: the real service promises none). */
  retryAfter?: boolean;
  /** Start-up fault settings (latency, rates, seed, forced runs). */
  faults?: Partial<FaultSettings>;
  /** Persist the state to this JSON file (an existing file is loaded). */
  dataFile?: string;
  /** Check every API response against the contract; a violation answers 500 (conformance tests turn this on). */
  checkResponses?: boolean;
  /** Contract to load (default contract/openapi.yaml). */
  contractPath?: string;
  /**
   * How a request is held for its injected latency (default: a real timer). The emulator's own tests pass one
   * that records the holds and returns at once, so latency and jitter are asserted without reading a clock.
   */
  hold?: (ms: number) => Promise<void>;
}

/** A built emulator: its server and every part a test or the control API may reach. */
export interface Emulator {
  app: FastifyInstance;
  store: Store;
  clock: Clock;
  contract: Contract;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
  requestLog: RequestLog;
  token: string;
  companyId: string;
  /** Back to the start-up state: data (demo or empty), faults, rate counts, clock offset and request log; held requests go on. */
  reset(empty?: boolean): void;
  /**
   * Ends every injected delay now (the requests go on to their answers) and says how many were held: a test moves
   * a runtime's virtual clock while one answer is held, then lets it go, instead of waiting out a real delay.
   */
  releaseHeld(): number;
}

type RouteKind = 'api' | 'not-emulated' | 'control';

function routeKind(request: FastifyRequest): RouteKind | undefined {
  return (request.routeOptions.config as { kind?: RouteKind }).kind;
}

function operationIdOf(request: FastifyRequest): OperationId | undefined {
  return (request.routeOptions.config as { operationId?: OperationId }).operationId;
}

function splitUrl(url: string): { path: string; query: string } {
  const mark = url.indexOf('?');
  return mark === -1 ? { path: url, query: '' } : { path: url.slice(0, mark), query: url.slice(mark + 1) };
}

/** Builds (but does not start) an emulator. */
export function buildEmulator(options: EmulatorOptions = {}): Emulator {
  const startEmpty = options.empty ?? false;
  const stateFor = (empty: boolean, identity: { token: string; companyId: string }) =>
    empty ? buildEmptyState({ fundId: identity.companyId, token: identity.token }) : buildDemoState({ fundId: identity.companyId, token: identity.token });

  const contract = loadContract(options.contractPath);
  // Requests held for their latency right now, each with its early release (for POST /__emulator/release).
  const holding = new Set<() => void>();
  const hold =
    options.hold ??
    ((ms: number) =>
      new Promise<void>((resolve) => {
        const release = (): void => {
          clearTimeout(timer);
          holding.delete(release);
          resolve();
        };
        const timer = setTimeout(release, ms);
        holding.add(release);
      }));
  const clock = new Clock();
  const requested = { token: options.token ?? DEMO_TOKEN, companyId: options.companyId ?? DEMO_IDS.fund };
  const store = new Store(stateFor(startEmpty, requested), options.dataFile);
  // A loaded data file wins over the flags: the token and fund that work are the file's, and a reset keeps them.
  const { token, companyId } = (store.loadedFromFile ? demoIdentity(store.state) : null) ?? requested;
  const initialState = (empty: boolean) => stateFor(empty, { token, companyId });
  const rateLimiter = new RateLimiter(
    {
      limit: options.rateLimit ?? DEFAULT_RATE_LIMIT.limit,
      windowSeconds: options.rateWindowSeconds ?? DEFAULT_RATE_LIMIT.windowSeconds,
      retryAfter: options.retryAfter ?? DEFAULT_RATE_LIMIT.retryAfter,
    },
    clock,
  );
  const startupRateLimit = { ...rateLimiter.settings };
  const faults = new FaultInjector({ ...NO_FAULTS, ...options.faults }, () => clock.now());
  const requestLog = new RequestLog();
  const context: EmulatorContext = { store, clock };

  // Per-request facts live in WeakMaps owned by this emulator, not on module state or patched request types.
  const users = new WeakMap<FastifyRequest, UserRecord>();
  const arrivals = new WeakMap<FastifyRequest, string>();
  const faultsApplied = new WeakMap<FastifyRequest, LoggedRequest['fault']>();

  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    routerOptions: { querystringParser: (raw) => parseRailsQuery(raw) },
  });

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(parameterInvalid('body', 'is not valid JSON'), undefined);
    }
  });

  const emulator: Emulator = {
    app,
    store,
    clock,
    contract,
    rateLimiter,
    faults,
    requestLog,
    token,
    companyId,
    reset(empty = startEmpty) {
      store.replace(initialState(empty));
      requestLog.clear();
      rateLimiter.configure(startupRateLimit);
      faults.reset();
      clock.resetOffset();
      emulator.releaseHeld();
    },
    releaseHeld() {
      const held = [...holding];
      held.forEach((release) => release());
      return held.length;
    },
  };

  const throttled = (reply: FastifyReply, retryAfterSeconds: number): FastifyReply => {
    const error = rateLimitExceeded(rateLimiter.settings.limit, rateLimiter.settings.windowSeconds);
    if (rateLimiter.settings.retryAfter) reply.header('Retry-After', String(retryAfterSeconds));
    return reply.code(429).send(error.body());
  };

  app.addHook('onRequest', async (request, reply) => {
    if (routeKind(request) === 'control') return;
    arrivals.set(request, clock.isoNow());
    const delay = faults.delayFor();
    if (delay > 0) await hold(delay);

    // Injected faults stand for the network and the proxy in front of the service, so they are not counted.
    const outcome = faults.decide();
    if (outcome === 'drop') {
      const { path, query } = splitUrl(request.url);
      requestLog.add({ method: request.method, path, query, status: 0, time: arrivals.get(request) ?? clock.isoNow(), fault: 'drop' });
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (outcome === 'fail') {
      faultsApplied.set(request, '5xx');
      return reply.code(503).type('text/plain; charset=utf-8').send('Service Unavailable');
    }
    if (outcome === 'throttle') {
      faultsApplied.set(request, '429');
      return throttled(reply, rateLimiter.secondsToWindowEnd());
    }

    // Rack::Attack counts every request that reaches the app, whatever it answers.
    const rate = rateLimiter.hit(rateLimitKey(request.headers.authorization, request.ip));
    if (!rate.allowed) return throttled(reply, rate.retryAfterSeconds);

    const kind = routeKind(request);
    if (kind === 'api' || kind === 'not-emulated') {
      users.set(request, authenticate(store, request.headers.authorization));
    }
    return undefined;
  });

  app.addHook('onResponse', async (request, reply) => {
    if (routeKind(request) === 'control') return;
    const { path, query } = splitUrl(request.url);
    const entry: LoggedRequest = {
      method: request.method,
      path,
      query,
      status: reply.statusCode,
      time: arrivals.get(request) ?? clock.isoNow(),
    };
    if (request.body !== undefined) entry.body = request.body;
    const user = users.get(request);
    if (user) entry.userId = user.id;
    const fault = faultsApplied.get(request);
    if (fault) entry.fault = fault;
    requestLog.add(entry);
  });

  if (options.checkResponses) {
    app.addHook('onSend', async (request, reply, payload) => {
      const operationId = operationIdOf(request);
      if (!operationId || faultsApplied.has(request) || typeof payload !== 'string') return payload;
      const violation = contract.checkResponse(operationId, reply.statusCode, JSON.parse(payload));
      if (violation === null) return payload;
      reply.code(500);
      return JSON.stringify({ errors: [{ type: 'emulator_contract_violation', message: violation }] });
    });
  }

  app.setErrorHandler((error: FastifyError | ApiError, _request, reply) => {
    if (error instanceof ApiError) return reply.code(error.status).send(error.body());
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(400).send(parameterInvalid('body', 'must be sent as application/json').body());
    }
    if (error.statusCode !== undefined && error.statusCode < 500) {
      return reply.code(400).send(parameterInvalid('body', error.message).body());
    }
    return reply.code(500).send({ errors: [{ type: 'internal_error', message: error.message }] });
  });

  app.setNotFoundHandler((request, reply) => {
    const { path } = splitUrl(request.url);
    return reply.code(404).send({ errors: [{ type: 'record_missing', message: `No route matches ${request.method} ${path}` }] });
  });

  const register: RegisterOperation = (operationId, handler) => {
    const operation = contract.operations.get(operationId);
    if (!operation) throw new Error(`contract has no operation ${operationId}`);
    app.route({
      method: operation.method,
      url: operation.routePath,
      config: { kind: 'api', operationId },
      handler: async (request, reply) => {
        const user = users.get(request);
        if (!user) throw unauthorized();
        const path = operation.parsePath(request.params);
        const query = operation.parseQuery(request.query);
        const body = operation.parseBody(request.body);
        // The contract's validators just checked these against the very schemas schema.gen.ts was generated from.
        const input = { query, path, body, user } as unknown as OperationInput<typeof operationId>;
        const result = handler(input, context);
        return reply.code(result.status).send(result.body);
      },
    });
  };

  registerMetricRoutes(register);
  registerDataPointRoutes(register);
  registerContactRoutes(register);
  registerNoteRoutes(register);
  registerProfileRoutes(register);
  registerPortfolioNoteRoutes(register);
  registerPropertyRoutes(register);
  registerPropertyValueRoutes(register);
  for (const [method, url] of NOT_EMULATED_ENDPOINTS) {
    app.route({
      method,
      url,
      config: { kind: 'not-emulated' },
      handler: async (_request, reply) => reply.code(501).send(notEmulated().body()),
    });
  }
  registerControlRoutes(app, emulator);

  const missing = [...contract.operations.keys()].filter(
    (id) =>
      !app.hasRoute({
        method: contract.operations.get(id)?.method ?? 'GET',
        url: contract.operations.get(id)?.routePath ?? '',
      }),
  );
  if (missing.length > 0) throw new Error(`emulator has no route for ${missing.join(', ')}`);
  return emulator;
}
