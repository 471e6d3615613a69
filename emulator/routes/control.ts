// The control API under /__emulator/: no auth, not rate-limited, not logged; tests drive the emulator through it.

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Emulator } from '../app';
import { applyFixtures, FixtureError } from '../fixtures';
import { readFaultSettings } from '../faults';
import type { RateLimitSettings } from '../rate-limit';

const config = { kind: 'control' } as const;

function controlError(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(400).send({ errors: [{ type: 'control_invalid', message }] });
}

function objectBody(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Registers every /__emulator/ route on the emulator's server. */
export function registerControlRoutes(app: FastifyInstance, emulator: Emulator): void {
  app.get('/__emulator/health', { config }, async () => ({
    status: 'ok',
    token: emulator.token,
    companyId: emulator.companyId,
    now: emulator.clock.isoNow(),
  }));

  app.post('/__emulator/reset', { config }, async (request, reply) => {
    const empty = objectBody(request.body).empty;
    if (empty !== undefined && typeof empty !== 'boolean') return controlError(reply, 'empty must be a boolean');
    emulator.reset(empty);
    return { status: 'reset', empty: empty ?? null };
  });

  app.get('/__emulator/requests', { config }, async () => ({ requests: emulator.requestLog.list() }));
  app.delete('/__emulator/requests', { config }, async (_request, reply) => {
    emulator.requestLog.clear();
    return reply.code(204).send();
  });

  app.get('/__emulator/faults', { config }, async () => emulator.faults.settings());
  app.post('/__emulator/faults', { config }, async (request, reply) => {
    if (objectBody(request.body).reset === true) {
      emulator.faults.reset();
      return emulator.faults.settings();
    }
    const settings = readFaultSettings(request.body);
    if (typeof settings === 'string') return controlError(reply, settings);
    emulator.faults.update(settings);
    return emulator.faults.settings();
  });

  app.post('/__emulator/release', { config }, async () => ({ released: emulator.releaseHeld() }));

  const clockState = () => ({ now: emulator.clock.isoNow(), offsetMs: emulator.clock.offset() });
  app.get('/__emulator/clock', { config }, async () => clockState());
  app.post('/__emulator/clock', { config }, async (request, reply) => {
    const advanceMs = objectBody(request.body).advanceMs;
    if (typeof advanceMs !== 'number' || !Number.isFinite(advanceMs)) return controlError(reply, 'advanceMs must be a number');
    emulator.clock.advance(advanceMs);
    return clockState();
  });

  app.get('/__emulator/rate-limit', { config }, async () => emulator.rateLimiter.settings);
  app.post('/__emulator/rate-limit', { config }, async (request, reply) => {
    const body = objectBody(request.body);
    const settings: Partial<RateLimitSettings> = {};
    for (const key of ['limit', 'windowSeconds'] as const) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) return controlError(reply, `${key} must be an integer >= 1`);
      settings[key] = value;
    }
    if (body.retryAfter !== undefined) {
      if (typeof body.retryAfter !== 'boolean') return controlError(reply, 'retryAfter must be a boolean');
      settings.retryAfter = body.retryAfter;
    }
    const freshWindow = body.freshWindow;
    if (freshWindow !== undefined && typeof freshWindow !== 'boolean') return controlError(reply, 'freshWindow must be a boolean');
    emulator.rateLimiter.configure(settings);
    // Windows are epoch-aligned, so a test that meets the limit must not start near a boundary: a
    // window ending mid-test would let through what the test expects refused. Done here, in one
    // request, so no time passes between reading the clock and moving it.
    if (freshWindow) emulator.clock.advance(emulator.rateLimiter.msToNextWindow());
    return emulator.rateLimiter.settings;
  });

  app.post('/__emulator/fixtures', { config }, async (request, reply) => {
    // Applied to a copy first, so a bad record leaves the state untouched.
    const draft = emulator.store.snapshot();
    try {
      const created = applyFixtures(draft, request.body, emulator.token, emulator.clock.isoNow());
      emulator.store.replace(draft);
      return reply.code(201).send({ created });
    } catch (error) {
      if (error instanceof FixtureError) return controlError(reply, error.message);
      throw error;
    }
  });

  app.get('/__emulator/state', { config }, async () => emulator.store.state);
}
