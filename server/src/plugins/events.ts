// Hit collection (PROTOCOL.md §5, §12): `POST /events` (batch and single forms), `/events/analytics`
// (developer usage counts) and `/events/troubleshooting` (accepted and discarded). An answer is sent only
// once every accepted hit is committed (§5.2); the first 1 000 hits of a request are processed, the rest
// rejected by index, and an answer lists at most 100 rejections (`rejectedCount` gives the total).
import type { FastifyPluginCallback } from 'fastify';
import { HIT_LIMITS, type CollectAnswer } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { COLLECT_BODY_LIMIT, JSON_OR_TEXT } from '../http/json-body.js';
import { checkBatch } from '../validation/batch.js';
import { checkHit } from '../validation/hit.js';
import { hitsRouteSchema, troubleshootingRouteSchema, usageRouteSchema } from './events-schemas.js';
import { withSchema, type RouteSchema } from './shared-schemas.js';
import type { CollectStore } from '../store/collect-store.js';

const collect = { bodyLimit: COLLECT_BODY_LIMIT, config: { accepts: JSON_OR_TEXT } };

/** A hit route's options: the shared limits, and its schema (checked requests, serialized answers, document). */
const collecting = (schema: RouteSchema) => ({ ...collect, ...withSchema(schema) });

/** A usage hit's `cv[key]` as stored (the schema checked its length): "unknown" when absent. */
const usageText = (cv: Record<string, unknown>, key: string): string => {
  const value = cv[key];
  return typeof value === 'string' ? value : 'unknown';
};

/** Registers the hit, usage and troubleshooting routes. */
export const eventRoutes: FastifyPluginCallback<{ ctx: AppContext<CollectStore> }> = (
  app,
  { ctx },
  registered,
) => {
  app.post('/events', collecting(hitsRouteSchema), async (request, reply) => {
    // The route's schema checked the envelope (an object, cid a string, h an array when sent); each hit is
    // checked on its own below. What the schema leaves: a body that is neither a batch nor one hit.
    const body = request.body as Record<string, unknown>;
    const batch = Array.isArray(body.h);
    if (!batch && (typeof body.t !== 'string' || body.t === 'BATCH')) {
      throw errors.invalidBody('h', 'must be an array of hits (or send one hit with its t)');
    }
    const cid = body.cid as string;
    const state = await ctx.environments.get(cid);
    if (state === null) throw errors.unknownEnvironment(cid);
    const items: unknown[] = Array.isArray(body.h) ? body.h : [body];
    const now = ctx.now();
    const limit = HIT_LIMITS.maxHitsPerBatch;
    const { rows, rejected, rejectedCount } = checkBatch(
      items,
      limit,
      (item, index) => checkHit(item, cid, batch ? `h[${index}]` : '', now),
      (index) =>
        `h[${index}] was not processed: a request's first ${limit} hits are, send at most ${limit} per request`,
    );
    const accepted = await ctx.store.insertHits(state.environment.id, rows);
    return reply.send({
      accepted,
      duplicates: rows.length - accepted,
      rejected,
      rejectedCount,
    } satisfies CollectAnswer);
  });

  app.post('/events/analytics', collecting(usageRouteSchema), async (request, reply) => {
    // The route's schema checked it all: t, cid, and cv's keys and values (storable strings, the two kept
    // ones within their lengths: stored as sent or refused, never cut, which could split a surrogate pair).
    const body = request.body as { cid: string; cv: Record<string, unknown> };
    const cid = body.cid;
    const name = usageText(body.cv, 'stack.name');
    const version = usageText(body.cv, 'stack.version');
    const state = await ctx.environments.get(cid);
    if (state === null) throw errors.unknownEnvironment(cid);
    const day = new Date(ctx.now()).toISOString().slice(0, 10);
    await ctx.store.countUsage(state.environment.id, name, version, day);
    return reply.send({ accepted: 1, duplicates: 0, rejected: [], rejectedCount: 0 } satisfies CollectAnswer);
  });

  // The platform's SDKs send troubleshooting hits here; we accept them so they are not retried, and keep none.
  app.post('/events/troubleshooting', collecting(troubleshootingRouteSchema), async (_request, reply) =>
    reply.send({ accepted: 0, duplicates: 0, rejected: [], rejectedCount: 0 } satisfies CollectAnswer),
  );
  registered();
};
