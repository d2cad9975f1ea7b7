// The audit routes (issue 36, docs/teams.md "Audit log"), in the operator scope: an account's log (filtered,
// newest first, keyset-paged by seq), its export as JSON lines (oldest first, streamed a page at a time, so
// a long log never sits whole in memory), and one campaign's history with restore.
import { needs } from '../auth/route-roles.js';
import { Readable } from 'node:stream';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { ActorKind } from '../audit/actor.js';
import type { AppContext } from '../app-context.js';
import { errors, storeErrors } from '../errors.js';
import { operatorEnvironment } from '../http/operator-scope.js';
import { toRemoteCampaign } from '../remote/campaign-format.js';
import { campaignCompatibility } from '../remote/compatibility.js';
import { auditAnswer, campaignEntry } from '../services/audit-answers.js';
import type { AccountStore } from '../store/account-store.js';
import type { CampaignStore } from '../store/campaign-store.js';
import type { AuditFilter, AuditStore, AuditSubjectKind } from '../store/audit-store.js';
import { auditRoutes as doc } from './audit-schemas.js';

/** How many entries the export reads per query. */
const EXPORT_PAGE = 500;

interface AuditQuery {
  actor_kind?: ActorKind;
  actor_id?: string;
  subject_kind?: AuditSubjectKind;
  subject_id?: string;
  action?: string;
  env_id?: string;
  from?: string;
  to?: string;
  before_seq?: number;
  limit?: number;
}

// A full ISO 8601 date-time, or a date alone (midnight UTC): what people type and what toISOString writes.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

const timeParameter = (name: 'from' | 'to', value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const ms = ISO_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms))
    throw errors.invalidBody(name, 'must be an ISO 8601 time such as 2026-11-22T10:00:00Z');
  return ms;
};

/** The store filter of a query (the account comes from the path; none: every entry). */
const filterOf = (query: AuditQuery, accountId: string | null): AuditFilter => {
  const fromMs = timeParameter('from', query.from);
  const toMs = timeParameter('to', query.to);
  return {
    ...(accountId === null ? {} : { accountId }),
    ...(query.actor_kind === undefined ? {} : { actorKind: query.actor_kind }),
    ...(query.actor_id === undefined ? {} : { actorId: query.actor_id }),
    ...(query.subject_kind === undefined ? {} : { subjectKind: query.subject_kind }),
    ...(query.subject_id === undefined ? {} : { subjectId: query.subject_id }),
    ...(query.action === undefined ? {} : { action: query.action }),
    ...(query.env_id === undefined ? {} : { envId: query.env_id }),
    ...(fromMs === undefined ? {} : { fromMs }),
    ...(toMs === undefined ? {} : { toMs }),
  };
};

/** The audit routes, registered by app.ts in the operator scope. */
export const auditRoutesPlugin: FastifyPluginCallback<{
  ctx: AppContext<AccountStore & AuditStore & CampaignStore>;
}> = (scope, { ctx }, registered) => {
  const account = async (request: FastifyRequest): Promise<string> => {
    const { accountId } = request.params as { accountId: string };
    if ((await ctx.store.getAccount(accountId)) === null)
      throw errors.notFound(request.method, `account ${accountId.slice(0, 64)}`);
    return accountId;
  };
  const page = async (filter: AuditFilter, query: AuditQuery, narrow?: string) => {
    const limit = query.limit ?? 50;
    const entries = await ctx.store.listAudit(filter, {
      limit,
      ...(query.before_seq === undefined ? {} : { beforeSeq: query.before_seq }),
    });
    const last = entries.at(-1);
    return {
      items: entries.map((entry) => auditAnswer(narrow === undefined ? entry : campaignEntry(entry, narrow))),
      next_before_seq: entries.length === limit && last !== undefined ? last.seq : null,
    };
  };

  scope.get(
    '/admin/v1/accounts/:accountId/audit',
    needs('admin', doc.accountAudit),
    async (request, reply) => {
      const query = request.query as AuditQuery;
      const filter = filterOf(query, await account(request));
      return reply.header('cache-control', 'no-store').send(await page(filter, query));
    },
  );

  scope.get('/admin/v1/audit', doc.serverAudit, async (request, reply) => {
    const query = request.query as AuditQuery;
    return reply.header('cache-control', 'no-store').send(await page(filterOf(query, null), query));
  });

  scope.get(
    '/admin/v1/accounts/:accountId/audit/export',
    needs('admin', doc.exportAudit),
    async (request, reply) => {
      const filter = filterOf(request.query as AuditQuery, await account(request));
      const store = ctx.store;
      async function* lines(): AsyncGenerator<string> {
        let afterSeq = 0;
        for (;;) {
          const entries = await store.listAuditAscending(filter, { afterSeq, limit: EXPORT_PAGE });
          for (const entry of entries) yield `${JSON.stringify(auditAnswer(entry))}\n`;
          const last = entries.at(-1);
          if (last === undefined || entries.length < EXPORT_PAGE) return;
          afterSeq = last.seq;
        }
      }
      return reply
        .header('cache-control', 'no-store')
        .type('application/x-ndjson')
        .send(Readable.from(lines()));
    },
  );

  const historyPath = '/admin/v1/environments/:envId/campaigns/:campaignId/history';
  scope.get(historyPath, needs('viewer', doc.campaignHistory), async (request, reply) => {
    const environment = await operatorEnvironment(ctx.store, request);
    const { campaignId } = request.params as { campaignId: string };
    const filter: AuditFilter = { envId: environment.id, campaignId };
    return reply
      .header('cache-control', 'no-store')
      .send(await page(filter, request.query as AuditQuery, campaignId));
  });

  scope.post(`${historyPath}/:seq/restore`, needs('editor', doc.restoreCampaign), async (request, reply) => {
    const environment = await operatorEnvironment(ctx.store, request);
    const params = request.params as { campaignId: string; seq: string };
    const { campaignId } = params;
    // At most 15 digits (its schema): a safe integer.
    const seq = Number(params.seq);
    const restored = await storeErrors(() => ctx.store.restoreCampaign(environment.id, campaignId, seq));
    if (restored === null)
      throw errors.notFound(request.method, `history entry ${seq} of campaign ${campaignId.slice(0, 64)}`);
    // As the campaign routes answer it: with what the platform's SDKs would evaluate differently in it.
    const campaigns = (await ctx.store.listCampaigns(environment.id)).map((c) => c.body);
    const compatibility = campaignCompatibility(restored.body, {
      campaigns,
      paths: 'remote',
      accountSettings: environment.accountSettings,
    }).map(({ code, modes, path, message }) => ({ code, modes: [...modes], path, message }));
    return reply.header('cache-control', 'no-store').send({ ...toRemoteCampaign(restored), compatibility });
  });
  registered();
};
