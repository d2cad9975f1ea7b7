// One visitor's decision, as the decision API makes it (PROTOCOL.md §3, §8): the environment's compiled
// configuration, the visitor's stored histories (§8.4; with experience continuity both ids', §8.5), and the
// new assignments remembered (written behind). The decision route and OFREP (§18) both decide through here,
// so that a visitor gets the same variations whichever route asks, and each later decision stays sticky to
// what either gave. Nothing else is written: the context hit and activations are the decision route's.
import type { FastifyBaseLogger } from 'fastify';
import { evaluate, type EvaluateOptions } from 'feature-ts/engine';
import type { AssignmentHistory, Decision, VisitorContext } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import type { EnvironmentState } from '../configuration/environment-state.js';

/** The visitor a decision is made for, as a route read it. */
export interface VisitorToDecide {
  /** The current id: the authenticated id once logged in. */
  visitorId: string;
  /** The anonymous id of an authenticated visitor (§8.5), or null. */
  anonymousId: string | null;
  context: VisitorContext;
}

/** The variation of each group the decision holds. */
const decidedGroups = (decision: Decision): AssignmentHistory =>
  Object.fromEntries(decision.campaigns.map((c) => [c.variationGroupId, c.variation.id]));

/**
 * Decides for `visitor` in the environment `state` serves (§3): in panic no campaign and `panic: true`;
 * otherwise the engine's decision over the visitor's stored assignments, whose new assignments are recorded.
 * The decision's campaign objects are the engine's shared, frozen ones.
 */
export const decideForVisitor = async (
  ctx: AppContext<unknown>,
  state: EnvironmentState,
  visitor: VisitorToDecide,
  options: EvaluateOptions,
  log: FastifyBaseLogger,
): Promise<Decision> => {
  if (state.compiled.panic) return { visitorId: visitor.visitorId, campaigns: [], panic: true };
  const envId = state.environment.id;
  const now = ctx.now();
  // §8.5: with continuity, histories are looked up under the authenticated id first, then the anonymous
  // one, and new assignments are stored under both.
  const ids =
    state.environment.accountSettings.enabledXPC &&
    visitor.anonymousId !== null &&
    visitor.anonymousId !== visitor.visitorId
      ? [visitor.visitorId, visitor.anonymousId]
      : [visitor.visitorId];
  const assignments = await ctx.assignments.historyOf(envId, ids, now);
  const result = evaluate(
    state.compiled,
    { id: visitor.visitorId, anonymousId: visitor.anonymousId, context: visitor.context, assignments },
    options,
  );
  ctx.assignments.record(envId, ids, result.newAssignments, now);
  if (ids.length > 1)
    ctx.assignments.carryOver(envId, visitor.visitorId, decidedGroups(result.decision), now);
  if (result.reasons.length > 0 && ctx.log.isLevelEnabled('debug')) {
    log.debug({ envId, reasons: result.reasons }, 'decision reasons');
  }
  return result.decision;
};
