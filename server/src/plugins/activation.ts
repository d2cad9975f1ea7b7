// Activation (exposure) collection (PROTOCOL.md §4): `POST /v2/activate`, batch and single forms; valid items
// are stored durably (idempotent on hid) before the answer. The first 1 000 items are processed and the rest
// rejected by index, never a 400 for the size: the platform's SDK sends its whole queue in one request and
// would re-send it forever after a 4xx.
import type { FastifyPluginCallback } from 'fastify';
import { MAX_ACTIVATIONS_PROCESSED, type CollectAnswer } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { apiKeyOf } from '../http/environment-auth.js';
import { COLLECT_BODY_LIMIT, JSON_OR_TEXT } from '../http/json-body.js';
import { secretMatches } from '../ids.js';
import { checkActivation } from '../validation/activation.js';
import { checkBatch } from '../validation/batch.js';
import { activationRouteSchema } from './activation-schemas.js';
import { withSchema } from './shared-schemas.js';
import type { CollectStore } from '../store/collect-store.js';

/** Registers the activation route. */
export const activationRoutes: FastifyPluginCallback<{ ctx: AppContext<CollectStore> }> = (
  app,
  { ctx },
  registered,
) => {
  app.post(
    '/v2/activate',
    {
      ...withSchema(activationRouteSchema),
      bodyLimit: COLLECT_BODY_LIMIT,
      config: { accepts: JSON_OR_TEXT },
    },
    async (request, reply) => {
      // The route's schema checked the envelope (an object, cid a string, batch an array when sent); each
      // activation is checked on its own below. What the schema leaves: neither a batch nor one activation.
      const body = request.body as Record<string, unknown>;
      const batch = Array.isArray(body.batch);
      if (!batch && body.caid === undefined && body.vaid === undefined) {
        throw errors.invalidBody(
          'batch',
          'must be an array of activations (or send one activation with caid and vaid)',
        );
      }
      const cid = body.cid as string;
      const items: unknown[] = Array.isArray(body.batch) ? body.batch : [body];
      const state = await ctx.environments.get(cid);
      if (state === null) throw errors.unknownEnvironment(cid);
      const key = apiKeyOf(request);
      // Optional here (some platform SDKs send none), but when present it must be right (§2.2).
      if (key !== undefined && !secretMatches(key, state.environment.apiKeyDigest))
        throw errors.invalidApiKey();
      const now = ctx.now();
      const { rows, rejected, rejectedCount } = checkBatch(
        items,
        MAX_ACTIVATIONS_PROCESSED,
        (item, index) =>
          checkActivation(item, cid, batch ? `batch[${index}]` : '', now, state.variationOwners),
        (index) =>
          `batch[${index}] was not processed: a request's first ${MAX_ACTIVATIONS_PROCESSED} activations are, send at most ${MAX_ACTIVATIONS_PROCESSED} per request`,
      );
      const accepted = await ctx.store.insertActivations(state.environment.id, rows);
      if (rejectedCount === 0) return reply.code(204).send();
      return reply.send({
        accepted,
        duplicates: rows.length - accepted,
        rejected,
        rejectedCount,
      } satisfies CollectAnswer);
    },
  );
  registered();
};
