// The operator routes (PROTOCOL.md §13.8): accounts, environments and remote control accesses, plus the
// import, reports and campaign routes the CLI needs when a server holds the embedded store. `Authorization:
// Bearer <operator key>`; with no operator key configured (FEATURE_OPERATOR_KEY, or the local credential the
// server writes for the CLI) the routes do not exist. Secrets (API keys, client secrets) are in an answer
// once, when made. The campaign routes are the remote control API's own (campaigns.ts), which app.ts also
// registers under /admin/v1/environments/{envId}: the same bodies, answers and field-named errors.
import { needs } from '../auth/route-roles.js';
import { requestCaller } from '../auth/request-caller.js';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { AccessInputError, createAccess } from '../auth/create-access.js';
import { InputError, errors, storeErrors } from '../errors.js';
import { operatorEnvironment } from '../http/operator-scope.js';
import { reportEtag, reportVersions, sendReportAnswer } from '../http/report-etag.js';
import { buildCampaignReport } from '../report/build-report.js';
import type { AccessRecord } from '../store/access-store.js';
import type { Account, EnvironmentChange, EnvironmentRecord } from '../store/account-store.js';
import { FieldError, validateBucketingCampaigns } from '../validation/bucketing-campaigns.js';
import { operatorRoutes as doc } from './operator-schemas.js';
import { accessAnswer, accountAnswer, environmentAnswer } from '../services/operator-answers.js';
import type { AccountStore } from '../store/account-store.js';
import type { AccessStore } from '../store/access-store.js';
import type { CampaignStore } from '../store/campaign-store.js';
import type { ReportStore } from '../store/report-store.js';
import type { UserStore } from '../store/user-store.js';

const PREFIX = '/admin/v1';

// Bodies are checked by their route schemas (operator-schemas.ts); a name is kept without its outer spaces.
const nameOf = (request: FastifyRequest): string => (request.body as { name: string }).name.trim();

/**
 * The operator routes of accounts, environments, accesses, import and reports, as a fastify plugin: app.ts
 * registers it in the operator scope (http/operator-scope.ts: the operator key or a console session).
 */
export const operatorAccountRoutes: FastifyPluginCallback<{
  ctx: AppContext<AccountStore & AccessStore & CampaignStore & ReportStore & UserStore>;
}> = (scope, { ctx }, registered) => {
  const account = async (request: FastifyRequest): Promise<Account> => {
    const { accountId } = request.params as { accountId: string };
    const found = await ctx.store.getAccount(accountId);
    if (found === null) throw errors.notFound(request.method, `account ${accountId.slice(0, 64)}`);
    return found;
  };
  const environment = (request: FastifyRequest): Promise<EnvironmentRecord> =>
    operatorEnvironment(ctx.store, request);
  const access = async (request: FastifyRequest): Promise<AccessRecord> => {
    const { accessId } = request.params as { accessId: string };
    const found = await ctx.store.getAccess(accessId);
    if (found === null) throw errors.notFound(request.method, `access ${accessId.slice(0, 64)}`);
    return found;
  };

  scope.get(`${PREFIX}/accounts`, needs('signed_in', doc.listAccounts), async (request) => {
    const caller = requestCaller(request);
    const all = await ctx.store.listAccounts();
    if (caller.kind === 'operator_key') return { items: all.map(accountAnswer) };
    // A person sees the accounts they belong to, and nothing of the others.
    const theirs = new Set((await ctx.store.membershipsOf(caller.user.id)).map((m) => m.accountId));
    return { items: all.filter((a) => theirs.has(a.id)).map(accountAnswer) };
  });
  scope.post(`${PREFIX}/accounts`, needs('operator_key', doc.newAccount), async (request, reply) => {
    const created = await storeErrors(() => ctx.store.createAccount(nameOf(request)));
    return reply.code(201).send(accountAnswer(created));
  });

  scope.get(
    `${PREFIX}/accounts/:accountId/environments`,
    needs('viewer', doc.listEnvironments),
    async (request) => ({
      items: (await ctx.store.listEnvironments((await account(request)).id)).map(environmentAnswer),
    }),
  );
  scope.post(
    `${PREFIX}/accounts/:accountId/environments`,
    needs('admin', doc.newEnvironment),
    async (request, reply) => {
      const owner = await account(request);
      const { enabledXPC, enabled1V1T } = request.body as EnvironmentChange;
      const { environment: created, apiKey } = await storeErrors(() =>
        ctx.store.createEnvironment({
          accountId: owner.id,
          name: nameOf(request),
          accountSettings: {
            ...(enabledXPC === undefined ? {} : { enabledXPC }),
            ...(enabled1V1T === undefined ? {} : { enabled1V1T }),
          },
        }),
      );
      return reply.code(201).send({ ...environmentAnswer(created), api_key: apiKey });
    },
  );
  scope.post(`${PREFIX}/environments/:envId/rotate-key`, needs('admin', doc.rotateKey), async (request) => {
    const found = await environment(request);
    return { id: found.id, api_key: await ctx.store.rotateApiKey(found.id) };
  });
  scope.patch(`${PREFIX}/environments/:envId`, needs('admin', doc.updateEnvironment), async (request) => {
    const found = await environment(request);
    // One transaction and one audit entry, whatever the body holds.
    await ctx.store.updateEnvironment(found.id, request.body as EnvironmentChange);
    return environmentAnswer(await environment(request));
  });
  scope.put(
    `${PREFIX}/environments/:envId/campaigns`,
    needs('editor', doc.importCampaigns),
    async (request) => {
      const found = await environment(request);
      let campaigns;
      try {
        campaigns = validateBucketingCampaigns(request.body);
      } catch (error) {
        if (error instanceof FieldError) throw errors.invalidBody(error.path, error.reason);
        if (error instanceof InputError) throw errors.invalidBody('(body)', error.message);
        throw error;
      }
      const count = await storeErrors(() => ctx.store.replaceCampaigns(found.id, campaigns));
      return { envId: found.id, campaigns: count };
    },
  );
  scope.get(`${PREFIX}/environments/:envId/reports`, needs('viewer', doc.reports), async (request, reply) => {
    const found = await environment(request);
    const wanted = (request.query as Record<string, unknown>).campaign;
    const all = await ctx.store.listCampaigns(found.id, { includeDeleted: true });
    const chosen =
      typeof wanted === 'string' ? all.filter((c) => c.id === wanted || c.body.slug === wanted) : all;
    if (typeof wanted === 'string' && chosen.length === 0)
      throw errors.notFound(request.method, `campaign ${wanted.slice(0, 64)}`);
    // Conditional (issue 31): the tag covers which campaigns are listed, in order, and each one's version.
    const versions = await reportVersions(ctx.store, found.id, chosen);
    const nowMs = ctx.now();
    const now = new Date(nowMs);
    return sendReportAnswer(request, reply, reportEtag('reports', versions, nowMs), async () => ({
      reports: await Promise.all(chosen.map((c) => buildCampaignReport(ctx.store, found.id, c.id, now))),
    }));
  });

  scope.get(`${PREFIX}/accounts/:accountId/accesses`, needs('admin', doc.listAccesses), async (request) => ({
    items: (await ctx.store.listAccesses((await account(request)).id)).map(accessAnswer),
  }));
  scope.post(
    `${PREFIX}/accounts/:accountId/accesses`,
    needs('admin', doc.newAccess),
    async (request, reply) => {
      const owner = await account(request);
      // The access's own rules (known actions, environments of the account) are createAccess's.
      const body = request.body as Record<string, unknown>;
      try {
        const { access: created, clientSecret } = await createAccess(ctx.store, {
          accountId: owner.id,
          name: body.name,
          actions: body.actions,
          environments: body.environments,
        });
        return await reply.code(201).send({ ...accessAnswer(created), client_secret: clientSecret });
      } catch (error) {
        if (error instanceof AccessInputError)
          throw errors.invalidBody(error.field, error.message.slice(error.field.length + 2));
        throw error;
      }
    },
  );
  scope.get(`${PREFIX}/accesses/:accessId`, needs('admin', doc.readAccess), async (request) =>
    accessAnswer(await access(request)),
  );
  scope.post(`${PREFIX}/accesses/:accessId/revoke`, needs('admin', doc.revokeAccess), async (request) => {
    const found = await access(request);
    const revoked = await ctx.store.revokeAccess(found.id);
    return accessAnswer(revoked ?? found);
  });
  registered();
};
