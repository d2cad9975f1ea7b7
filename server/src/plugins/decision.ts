// The decision API (PROTOCOL.md §3): `POST /v2/{envId}/campaigns`. The engine decides over the
// environment's compiled configuration and the visitor's stored assignments; new assignments are written
// behind, the context is stored as a SEGMENT hit unless asked not to.
import type { FastifyPluginCallback } from 'fastify';
import { evaluate } from 'feature-ts/engine';
import type { AssignmentHistory, Decision } from 'feature-ts/protocol';
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

/** The variation of each group the decision holds. */
const decidedGroups = (decision: Decision): AssignmentHistory =>
  Object.fromEntries(decision.campaigns.map((c) => [c.variationGroupId, c.variation.id]));

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
      if (state.compiled.panic) {
        return reply.send({ visitorId: input.visitorId, campaigns: [], panic: true } satisfies Decision);
      }
      const now = ctx.now();
      // §8.5: with continuity, histories are looked up under the authenticated id first, then the anonymous
      // one, and new assignments are stored under both.
      const ids =
        state.environment.accountSettings.enabledXPC &&
        input.anonymousId !== null &&
        input.anonymousId !== input.visitorId
          ? [input.visitorId, input.anonymousId]
          : [input.visitorId];
      const assignments = await ctx.assignments.historyOf(envId, ids, now);
      const result = evaluate(
        state.compiled,
        { id: input.visitorId, anonymousId: input.anonymousId, context: input.context, assignments },
        { exposeAllKeys: query.exposeAllKeys, extras: query.accountSettings },
      );
      ctx.assignments.record(envId, ids, result.newAssignments, now);
      if (ids.length > 1)
        ctx.assignments.carryOver(envId, input.visitorId, decidedGroups(result.decision), now);
      if (result.reasons.length > 0 && ctx.log.isLevelEnabled('debug')) {
        request.log.debug({ envId, reasons: result.reasons }, 'decision reasons');
      }
      if (input.consent && query.sendContextEvent && Object.keys(input.context).length > 0) {
        ctx.store.insertHits(envId, [segmentHit(input, now)]).catch((error: unknown) => {
          request.log.error({ err: error, envId }, 'the context (SEGMENT hit) could not be stored');
        });
      }
      if (input.consent && input.triggerHit && result.decision.campaigns.length > 0) {
        // The caller asked the server to report the exposures itself; it waits for them to be durable.
        await ctx.store.insertActivations(envId, activationsOf(result.decision, input, now));
      }
      // Byte-identical to serializing the object, with the shared campaigns' JSON cached.
      return reply.type('application/json; charset=utf-8').send(decisionJson(result.decision));
    },
  );
  registered();
};
