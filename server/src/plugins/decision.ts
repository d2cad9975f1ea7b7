// The decision API (PROTOCOL.md §3): `POST /v2/{envId}/campaigns`. The engine decides over the
// environment's compiled configuration and the visitor's stored assignments (services/visitor-decision.ts,
// shared with OFREP); new assignments are written behind, the context is stored as a SEGMENT hit unless
// asked not to.
import type { FastifyPluginCallback } from 'fastify';
import type { Decision } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import { environmentOf, requireEnvironmentAndKey } from '../http/environment-auth.js';
import { JSON_OR_TEXT } from '../http/json-body.js';
import type { ActivationRow, HitRow } from '../store/collect-store.js';
import {
  readDecisionQuery,
  validateDecisionRequest,
  type DecisionInput,
} from '../validation/decision-request.js';
import { segmentValues } from '../validation/hit.js';
import { decisionJson } from '../http/decision-json.js';
import { decideForVisitor } from '../services/visitor-decision.js';
import { decisionRouteSchema } from './decision-schemas.js';
import { withSchema } from './shared-schemas.js';
import type { CollectStore } from '../store/collect-store.js';

/** The decision route's body limit (§2.1). */
export const DECISION_BODY_LIMIT = 64 * 1024;

const segmentHit = (input: DecisionInput, now: number): HitRow => ({
  hid: null,
  type: 'SEGMENT',
  // Hits carry the anonymous id in vid and the authenticated id in cuid (§5.1).
  visitorId: input.anonymousId ?? input.visitorId,
  customerId: input.anonymousId === null ? null : input.visitorId,
  goal: null,
  revenue: null,
  createdMs: now,
  receivedMs: now,
  body: {
    t: 'SEGMENT',
    vid: input.anonymousId ?? input.visitorId,
    cuid: input.anonymousId === null ? null : input.visitorId,
    s: segmentValues(input.context),
  },
});

const activationsOf = (decision: Decision, input: DecisionInput, now: number): ActivationRow[] =>
  decision.campaigns.map((campaign) => ({
    hid: null,
    visitorId: input.visitorId,
    anonymousId: input.anonymousId,
    campaignId: campaign.id,
    variationGroupId: campaign.variationGroupId,
    variationId: campaign.variation.id,
    createdMs: now,
    receivedMs: now,
  }));

/** Registers the decision route. */
export const decisionRoutes: FastifyPluginCallback<{ ctx: AppContext<CollectStore> }> = (
  app,
  { ctx },
  registered,
) => {
  app.post(
    '/v2/:envId/campaigns',
    {
      ...withSchema(decisionRouteSchema),
      bodyLimit: DECISION_BODY_LIMIT,
      config: { accepts: JSON_OR_TEXT },
      onRequest: requireEnvironmentAndKey(ctx.environments),
    },
    async (request, reply) => {
      const state = environmentOf(request);
      const envId = state.environment.id;
      const query = readDecisionQuery(request.query);
      const input = validateDecisionRequest(request.body);
      const decision = await decideForVisitor(
        ctx,
        state,
        input,
        { exposeAllKeys: query.exposeAllKeys, extras: query.accountSettings },
        request.log,
      );
      if (decision.panic === true) return reply.send(decision);
      const now = ctx.now();
      if (input.consent && query.sendContextEvent && Object.keys(input.context).length > 0) {
        ctx.store.insertHits(envId, [segmentHit(input, now)]).catch((error: unknown) => {
          request.log.error({ err: error, envId }, 'the context (SEGMENT hit) could not be stored');
        });
      }
      if (input.consent && input.triggerHit && decision.campaigns.length > 0) {
        // The caller asked the server to report the exposures itself; it waits for them to be durable.
        await ctx.store.insertActivations(envId, activationsOf(decision, input, now));
      }
      // Byte-identical to serializing the object, with the shared campaigns' JSON cached.
      return reply.type('application/json; charset=utf-8').send(decisionJson(decision));
    },
  );
  registered();
};
