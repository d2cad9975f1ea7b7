// Read-only operator routes for the browser console (PROTOCOL.md §13.8): an environment's live traffic, to
// watch an integration send activations and hits, and a campaign report's daily series, for a chart. They
// are registered inside operator.ts's scope, whose hook has already checked the operator key.
import { needs } from '../auth/route-roles.js';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { TrafficAnswer, TrafficEntry } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { operatorEnvironment } from '../http/operator-scope.js';
import { pageParameter } from '../http/query-parameters.js';
import { reportEtag, reportVersions, sendReportAnswer } from '../http/report-etag.js';
import { buildDailySeries } from '../report/daily-series.js';
import type { TrafficItem, TrafficPage } from '../store/collect-store.js';
import { operatorInsightRoutes as doc } from './operator-insight-schemas.js';
import type { AccountStore } from '../store/account-store.js';
import type { CampaignStore } from '../store/campaign-store.js';
import type { CollectStore } from '../store/collect-store.js';
import type { ReportStore } from '../store/report-store.js';

const PREFIX = '/admin/v1/environments/:envId';

const iso = (ms: number): string => new Date(ms).toISOString();

/** One traffic row as the route answers it. */
export const trafficItemAnswer = (item: TrafficItem): TrafficEntry =>
  item.kind === 'activation'
    ? {
        kind: item.kind,
        seq: item.seq,
        received_at: iso(item.receivedMs),
        created_at: iso(item.createdMs),
        visitor_id: item.visitorId,
        anonymous_id: item.anonymousId,
        campaign_id: item.campaignId,
        variation_group_id: item.variationGroupId,
        variation_id: item.variationId,
        hid: item.hid,
      }
    : {
        kind: item.kind,
        seq: item.seq,
        received_at: iso(item.receivedMs),
        created_at: iso(item.createdMs),
        type: item.type,
        visitor_id: item.visitorId,
        customer_id: item.customerId,
        goal: item.goal,
        revenue: item.revenue,
        hid: item.hid,
        body: item.body,
      };

/** A page of traffic as the route answers it. */
export const trafficAnswer = (page: TrafficPage): TrafficAnswer => ({
  items: page.items.map(trafficItemAnswer),
  cursor: page.cursor,
});

/** A cursor parameter: a seq this route answered (0 or more, as the query schema checked it), 0 when absent. */
const cursorParameter = (request: FastifyRequest, name: string): number => pageParameter(request, name, 0);

/** The visitor parameter (a storable string of 1-256 characters, as the query schema checked it), or null. */
const visitorParameter = (request: FastifyRequest): string | null => {
  const value = (request.query as Record<string, unknown>).visitor;
  return typeof value === 'string' ? value : null;
};

/**
 * GET …/environments/:envId/traffic and GET …/environments/:envId/reports/:campaignId/days, as a fastify
 * plugin that app.ts registers in the operator scope (http/operator-scope.ts).
 */
export const operatorInsightRoutes: FastifyPluginCallback<{
  ctx: AppContext<AccountStore & CampaignStore & CollectStore & ReportStore>;
}> = (scope, { ctx }, registered) => {
  const environment = (request: FastifyRequest) => operatorEnvironment(ctx.store, request);
  scope.get(`${PREFIX}/traffic`, needs('viewer', doc.traffic), async (request) => {
    const found = await environment(request);
    const query = {
      afterActivation: cursorParameter(request, 'after_activation'),
      afterHit: cursorParameter(request, 'after_hit'),
      visitor: visitorParameter(request),
      limit: pageParameter(request, 'limit', 50),
    };
    return trafficAnswer(await ctx.store.traffic(found.id, query));
  });

  scope.get(`${PREFIX}/reports/:campaignId/days`, needs('viewer', doc.days), async (request, reply) => {
    const found = await environment(request);
    const { campaignId } = request.params as { campaignId: string };
    // Deleted campaigns keep their report, and so their series; only an id never used here is unknown.
    const known = (await ctx.store.listCampaigns(found.id, { includeDeleted: true })).find(
      (c) => c.id === campaignId,
    );
    if (known === undefined) throw errors.notFound(request.method, `campaign ${campaignId.slice(0, 64)}`);
    // Conditional (issue 31): the console re-reads the series every few seconds; unchanged, it is a 304.
    const versions = await reportVersions(ctx.store, found.id, [known]);
    const now = ctx.now();
    return sendReportAnswer(request, reply, reportEtag('days', versions, now), () =>
      buildDailySeries(ctx.store, found.id, campaignId, new Date(now)),
    );
  });
  registered();
};
