// The campaign routes (PROTOCOL.md §13.5): campaigns of one environment listed, created, read, updated,
// deleted and toggled, the environment's panic switch, and a campaign's report. Every change goes through the
// store, which publishes it: decisions and the bucketing file change at once, other instances within a second.
//
// One fastify plugin, registered twice by app.ts with a base path, an authorization and the schemas: the
// remote control API (/v1/accounts/{accountId}/account_environments/{envId}, a bearer token for exactly each
// call's action and environment, bearer-auth.ts), and the operator routes (/admin/v1/environments/{envId},
// the operator key, for the CLI while a server holds the embedded store). Both answer the same bodies and
// the same errors.
import type { FastifyPluginCallback, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Action, CampaignState, RemoteCampaign, RemotePage } from 'feature-ts/protocol';
import type { AppContext } from '../app-context.js';
import { servedDocument } from '../configuration/environment-state.js';
import { InputError, errors, storeErrors } from '../errors.js';
import { pageParameter } from '../http/query-parameters.js';
import { environmentOf } from '../http/request-environment.js';
import { sendConditional } from '../http/conditional.js';
import { reportEtag, reportVersions, sendReportAnswer } from '../http/report-etag.js';
import { campaignFromRemote, toRemoteCampaign } from '../remote/campaign-format.js';
import { campaignCompatibility } from '../remote/compatibility.js';
import { buildCampaignReport } from '../report/build-report.js';
import { FieldError } from '../validation/bucketing-campaigns.js';
import type { CampaignRecord } from '../store/campaign-store.js';
import { withSchema, type RouteSchema } from './shared-schemas.js';
import type { AccountStore } from '../store/account-store.js';
import type { CampaignStore } from '../store/campaign-store.js';
import type { ReportStore } from '../store/report-store.js';
import type { Role } from '../store/user-store.js';

interface Params {
  envId: string;
  campaignId?: string;
}

const paramsOf = (request: FastifyRequest): Params => request.params as Params;

/** The body's validation errors as 400 invalid_body naming the field (e.g. `variation_groups[0].name`). */
const parseCampaign = (body: unknown, existing?: CampaignRecord) => {
  try {
    return campaignFromRemote(body, existing);
  } catch (error) {
    if (error instanceof FieldError) throw errors.invalidBody(error.path, error.reason);
    if (error instanceof InputError) throw errors.invalidBody('(body)', error.message);
    throw error;
  }
};

/** Where and how one family of campaign routes is served: the plugin's options. */
export interface CampaignRoutes {
  ctx: AppContext<AccountStore & CampaignStore & ReportStore>;
  /** The environment's path, holding `:envId` (and any other parameter the authorization reads). */
  base: string;
  /** Authorizes `action` on the request's environment, and refuses an unknown environment (404). */
  authorize: (action: Action) => onRequestAsyncHookHandler;
  /** The documentation of each route, by the action it needs. */
  schemas: Record<Action, RouteSchema>;
  /** The role a person needs for each route (auth/route-roles.ts), in the operator scope. */
  roles?: Readonly<Record<Action, Role>>;
}

/** `base` with its parameters filled from the request's: the path a `Location` header names. */
const fillPath = (base: string, request: FastifyRequest): string => {
  const params = request.params as Record<string, string>;
  return base.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
};

/**
 * The campaign routes (list, create, read, update, delete, toggle, report) and the panic switch of one
 * environment under `routes.base`, each behind `routes.authorize(action)`.
 */
export const campaignRoutes: FastifyPluginCallback<CampaignRoutes> = (app, routes, registered) => {
  const { base, ctx } = routes;
  // One route per action: its schema, whose security names the action, is the action's.
  const guard = (action: Action) => ({
    ...withSchema(routes.schemas[action]),
    ...(routes.roles === undefined ? {} : { config: { role: routes.roles[action] } }),
    onRequest: routes.authorize(action),
  });
  /**
   * The campaign the path names by its id, else by its slug (as the CLI and the console name campaigns: a
   * slug is what people remember); 404 when neither names one. Deleted campaigns only with `includeDeleted`.
   */
  const campaignOf = async (
    request: FastifyRequest,
    options: { includeDeleted?: boolean } = {},
  ): Promise<CampaignRecord> => {
    const { envId, campaignId = '' } = paramsOf(request);
    // Deleted campaigns are not in getCampaign's answer: with them, the list is the one place to look.
    const byId = options.includeDeleted === true ? null : await ctx.store.getCampaign(envId, campaignId);
    if (byId !== null) return byId;
    const all = await ctx.store.listCampaigns(envId, options);
    // A slug is unique among live campaigns; a deleted one may have held it before: the live one wins.
    const bySlug = all.filter((c) => c.body.slug === campaignId);
    const campaign =
      all.find((c) => c.id === campaignId) ?? bySlug.find((c) => c.deletedMs === null) ?? bySlug[0] ?? null;
    if (campaign === null) throw errors.unknownCampaign(campaignId);
    return campaign;
  };
  /**
   * Campaigns as the routes answer them: with what the platform's own SDKs would evaluate differently in each,
   * in the environment as it is (its campaigns in order and its account settings).
   */
  const withCompatibility = async (
    request: FastifyRequest,
    shown: readonly CampaignRecord[],
    all?: readonly CampaignRecord[],
  ): Promise<RemoteCampaign[]> => {
    const campaigns = (all ?? (await ctx.store.listCampaigns(paramsOf(request).envId))).map((c) => c.body);
    const { accountSettings } = environmentOf(request);
    return shown.map((record) => ({
      ...toRemoteCampaign(record),
      compatibility: campaignCompatibility(record.body, { campaigns, paths: 'remote', accountSettings }).map(
        ({ code, modes, path, message }) => ({ code, modes: [...modes], path, message }),
      ),
    }));
  };
  /** A GET answer with ETag and Last-Modified (§2.5), so pollers can ask cheaply. */
  const sendRead = (request: FastifyRequest, reply: FastifyReply, value: unknown) =>
    sendConditional(request, reply, servedDocument(value), environmentOf(request).configTime, ctx.now());

  app.get(`${base}/campaigns`, guard('campaign.list'), async (request, reply) => {
    const page = pageParameter(request, '_page', 1);
    const perPage = pageParameter(request, '_max_per_page', 10);
    const campaigns = await ctx.store.listCampaigns(paramsOf(request).envId);
    const items = await withCompatibility(
      request,
      campaigns.slice((page - 1) * perPage, page * perPage),
      campaigns,
    );
    const answer: RemotePage<(typeof items)[number]> = {
      items,
      current_items_count: items.length,
      current_page: page,
      total_count: campaigns.length,
      items_per_page: perPage,
      last_page: Math.max(1, Math.ceil(campaigns.length / perPage)),
    };
    return sendRead(request, reply, answer);
  });

  app.post(`${base}/campaigns`, guard('campaign.create'), async (request, reply) => {
    const { envId } = paramsOf(request);
    const parsed = parseCampaign(request.body);
    const created = await storeErrors(() =>
      ctx.store.createCampaign(envId, parsed.campaign, {
        description: parsed.description,
        state: parsed.state ?? 'active',
      }),
    );
    return reply
      .code(201)
      .header('location', `${fillPath(base, request)}/campaigns/${encodeURIComponent(created.id)}`)
      .send((await withCompatibility(request, [created]))[0]);
  });

  app.get(`${base}/campaigns/:campaignId`, guard('campaign.read'), async (request, reply) => {
    const campaign = await campaignOf(request);
    const [answer] = await withCompatibility(request, [campaign]);
    return sendRead(request, reply, answer);
  });

  app.patch(`${base}/campaigns/:campaignId`, guard('campaign.update'), async (request) => {
    const existing = await campaignOf(request);
    // campaignFromRemote refuses a state other than the stored one (the toggle route's job).
    const parsed = parseCampaign(request.body, existing);
    const { envId } = paramsOf(request);
    const updated = await storeErrors(() =>
      ctx.store.updateCampaign(envId, existing.id, parsed.campaign, {
        description: parsed.description,
        ...(parsed.position === undefined ? {} : { position: parsed.position }),
      }),
    );
    return (await withCompatibility(request, [updated]))[0];
  });

  app.delete(`${base}/campaigns/:campaignId`, guard('campaign.delete'), async (request, reply) => {
    const { envId, campaignId = '' } = paramsOf(request);
    const { id } = await campaignOf(request);
    if (!(await ctx.store.deleteCampaign(envId, id))) throw errors.unknownCampaign(campaignId);
    return reply.code(204).send();
  });

  app.patch(`${base}/campaigns/:campaignId/toggle`, guard('campaign.toggle'), async (request) => {
    // Checked by campaignToggleBodySchema.
    const { state } = request.body as { state: CampaignState };
    const existing = await campaignOf(request);
    if (existing.state === 'interrupted' && state !== 'interrupted')
      throw errors.conflict(
        `Campaign "${existing.id}" is interrupted, which is final: create a new campaign to run it again.`,
      );
    const { envId } = paramsOf(request);
    await storeErrors(() => ctx.store.setCampaignState(envId, existing.id, state));
    return (await withCompatibility(request, [await campaignOf(request)]))[0];
  });

  app.patch(`${base}/panic`, guard('environment.panic'), async (request) => {
    // Checked by panicBodySchema.
    const { panic } = request.body as { panic: 'on' | 'off' };
    await ctx.store.setPanic(paramsOf(request).envId, panic === 'on');
    return { panic };
  });

  app.get(`${base}/campaigns/:campaignId/report`, guard('report.read'), async (request, reply) => {
    const { envId } = paramsOf(request);
    // Deleted campaigns keep their report; only an id or slug never used in the environment is unknown.
    const known = await campaignOf(request, { includeDeleted: true });
    // Conditional (issue 31): an unchanged report is a 304, computed from nothing but its ETag's parts.
    const versions = await reportVersions(ctx.store, envId, [known]);
    const now = ctx.now();
    return sendReportAnswer(request, reply, reportEtag('report', versions, now), () =>
      buildCampaignReport(ctx.store, envId, known.id, new Date(now)),
    );
  });
  registered();
};
