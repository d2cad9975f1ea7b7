// Hit collection (PROTOCOL.md §5, §12): `POST /events` (batch and single forms), `/events/analytics`
// (developer usage counts) and `/events/troubleshooting` (accepted and discarded). An answer is sent only
// once every accepted hit is committed (§5.2); the first 1 000 hits of a request are processed, the rest
// rejected by index, and an answer lists at most 100 rejections (`rejectedCount` gives the total).
import type { FastifyInstance } from 'fastify';
import { HIT_LIMITS, isJsonObject, type CollectAnswer } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import { checkBatch } from '../validation/batch.js';
import { badString } from '../validation/fields.js';
import { checkHit } from '../validation/hit.js';
import { STORABLE_TEXT_RULE, isStorableText, shownKey } from '../validation/storable-text.js';
import { COLLECT_BODY_LIMIT, environmentIdOf } from './activation.js';
import { hitsRouteSchema, troubleshootingRouteSchema, usageRouteSchema } from './events-schemas.js';
import { documented, type RouteSchema } from './shared-schemas.js';

const collect = { bodyLimit: COLLECT_BODY_LIMIT, config: { accepts: JSON_OR_TEXT } };

/** A hit route's options: the shared limits, and its schema for the OpenAPI document. */
const collecting = (schema: RouteSchema) => ({ ...collect, ...documented(schema) });

// The longest SDK name and version a usage count keeps (§12).
const USAGE_NAME_LENGTH = 100;
const USAGE_VERSION_LENGTH = 50;

/** A usage hit's `cv[key]` as stored: "unknown" when absent; 400 when empty or longer than `max`. */
const usageText = (cv: Record<string, unknown>, key: string, max: number): string => {
  const value = cv[key];
  if (value === undefined) return 'unknown';
  const problem = badString(value, max);
  if (problem !== null) throw errors.invalidBody(`cv.${key}`, problem);
  return value as string;
};

/** Registers the hit, usage and troubleshooting routes. */
export const registerEventRoutes = (app: FastifyInstance, ctx: AppContext): void => {
  app.post('/events', collecting(hitsRouteSchema), async (request, reply) => {
    const body = request.body;
    if (!isJsonObject(body))
      throw errors.invalidBody('(body)', 'must be a hit batch: {"cid":…,"t":"BATCH","h":[…]}');
    const batch = Array.isArray(body.h);
    if (!batch && (typeof body.t !== 'string' || body.t === 'BATCH')) {
      throw errors.invalidBody('h', 'must be an array of hits (or send one hit with its t)');
    }
    const cid = environmentIdOf(body);
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
    const body = request.body;
    if (!isJsonObject(body) || body.t !== 'USAGE') {
      throw errors.invalidBody('t', 'must be "USAGE" (a developer usage hit)');
    }
    const cid = environmentIdOf(body);
    if (!isJsonObject(body.cv)) throw errors.invalidBody('cv', 'must be an object of strings');
    for (const [key, value] of Object.entries(body.cv)) {
      const path = `cv.${shownKey(key)}`;
      if (!isStorableText(key)) throw errors.invalidBody(path, `${STORABLE_TEXT_RULE} (in its key)`);
      if (typeof value !== 'string') throw errors.invalidBody(path, 'must be a string');
      if (!isStorableText(value)) throw errors.invalidBody(path, STORABLE_TEXT_RULE);
    }
    // The two values kept are stored as sent or refused, never cut (a cut could split a surrogate pair).
    const name = usageText(body.cv, 'stack.name', USAGE_NAME_LENGTH);
    const version = usageText(body.cv, 'stack.version', USAGE_VERSION_LENGTH);
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
};
