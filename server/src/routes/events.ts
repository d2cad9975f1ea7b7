// Hit collection (PROTOCOL.md §5, §12): `POST /events` (batch and single forms), `/events/analytics`
// (developer usage counts) and `/events/troubleshooting` (accepted and discarded). An answer is sent only
// once every accepted hit is committed (§5.2).
import type { FastifyInstance } from 'fastify';
import { isJsonObject, type CollectAnswer } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import type { HitRow } from '../store/store.js';
import { checkHit } from '../validation/hit.js';
import { COLLECT_BODY_LIMIT, environmentIdOf } from './activation.js';
import { hitsRouteSchema, troubleshootingRouteSchema, usageRouteSchema } from './events-schemas.js';
import { documented, type RouteSchema } from './shared-schemas.js';

const collect = { bodyLimit: COLLECT_BODY_LIMIT, config: { accepts: JSON_OR_TEXT } };

/** A hit route's options: the shared limits, and its schema for the OpenAPI document. */
const collecting = (schema: RouteSchema) => ({ ...collect, ...documented(schema) });

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
    const rows: HitRow[] = [];
    const rejected: CollectAnswer['rejected'] = [];
    items.forEach((item, index) => {
      const checked = checkHit(item, cid, batch ? `h[${index}]` : '', now);
      if ('row' in checked) rows.push(checked.row);
      else rejected.push({ index, message: checked.message });
    });
    const accepted = await ctx.store.insertHits(state.environment.id, rows);
    return reply.send({ accepted, duplicates: rows.length - accepted, rejected } satisfies CollectAnswer);
  });

  app.post('/events/analytics', collecting(usageRouteSchema), async (request, reply) => {
    const body = request.body;
    if (!isJsonObject(body) || body.t !== 'USAGE') {
      throw errors.invalidBody('t', 'must be "USAGE" (a developer usage hit)');
    }
    const cid = environmentIdOf(body);
    if (!isJsonObject(body.cv)) throw errors.invalidBody('cv', 'must be an object of strings');
    for (const [key, value] of Object.entries(body.cv)) {
      if (typeof value !== 'string') throw errors.invalidBody(`cv.${key}`, 'must be a string');
    }
    const state = await ctx.environments.get(cid);
    if (state === null) throw errors.unknownEnvironment(cid);
    const name = body.cv['stack.name'];
    const version = body.cv['stack.version'];
    const day = new Date(ctx.now()).toISOString().slice(0, 10);
    await ctx.store.countUsage(
      state.environment.id,
      typeof name === 'string' ? name.slice(0, 100) : 'unknown',
      typeof version === 'string' ? version.slice(0, 50) : 'unknown',
      day,
    );
    return reply.send({ accepted: 1, duplicates: 0, rejected: [] } satisfies CollectAnswer);
  });

  // The platform's SDKs send troubleshooting hits here; we accept them so they are not retried, and keep none.
  app.post('/events/troubleshooting', collecting(troubleshootingRouteSchema), async (_request, reply) =>
    reply.send({ accepted: 0, duplicates: 0, rejected: [] } satisfies CollectAnswer),
  );
};
