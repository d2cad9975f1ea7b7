// The CLI's operations through a running server's operator routes (PROTOCOL.md §13.8), used when that server
// holds the embedded store's folder: the server wrote its URL and a key for this run into the folder
// (local-operator.ts). Refusals come back as the CLI's own errors, with the same messages as on the store.
import {
  isJsonObject,
  type CampaignReport,
  type CampaignState,
  type ErrorDetail,
  type RemoteCampaign,
  type RemotePage,
} from 'feature-ts/protocol';
import type { LocalOperator } from '../local-operator.js';
import { clientUserOperations } from './user-operations.js';
import { CliError, unknownAccess, unknownAccount, unknownCampaign, unknownEnvironment } from './cli-error.js';
import type { AccessView, AccountView, EnvironmentView, Operations, StoreUsed } from './operations.js';

/** Reports can take a while on a large environment; anything else answers at once. */
const TIMEOUT_MS = 120_000;

/** How often `report --rebuild` asks the server how far its rebuild is. */
const REBUILD_POLL_MS = 500;

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** The CLI's error when the server answers 404 (an id that names nothing). */
  notFound?: () => CliError;
}

const enc = encodeURIComponent;

const items = <T>(answer: Record<string, unknown>): T[] =>
  Array.isArray(answer.items) ? (answer.items as T[]) : [];

/** Checks that the server at `operator.url` answers the operator routes with `operator.key`. */
export const operatorAnswers = async (operator: LocalOperator): Promise<boolean> => {
  try {
    const response = await fetch(`${operator.url}/admin/v1/accounts`, {
      headers: { authorization: `Bearer ${operator.key}` },
      signal: AbortSignal.timeout(5_000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
};

/** Operations through the server described by `operator`. */
export const operatorClient = (operator: LocalOperator, used: StoreUsed): Operations => {
  const call = async ({ method, path, body, notFound }: Call): Promise<Record<string, unknown>> => {
    let response: Response;
    try {
      response = await fetch(`${operator.url}/admin/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${operator.key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new CliError(
        'server_unreachable',
        `The running server at ${operator.url} did not answer (${why}): check that it still runs, then run the command again.`,
      );
    }
    const text = await response.text();
    let answer: unknown = null;
    try {
      answer = text === '' ? {} : JSON.parse(text);
    } catch {
      // Not JSON: said below with the status.
    }
    if (response.ok && isJsonObject(answer)) return answer;
    if (response.status === 404 && notFound !== undefined) throw notFound();
    const given = isJsonObject(answer) && typeof answer.code === 'string' ? answer.code : 'server_error';
    // A refused input has the code it has without a server.
    const code = given === 'invalid_body' ? 'invalid_input' : given;
    const message =
      isJsonObject(answer) && typeof answer.message === 'string'
        ? answer.message
        : `The running server at ${operator.url} answered ${response.status} to ${method} /admin/v1${path}.`;
    // The fields a refused campaign names (§2.4), as the CLI names them without a server.
    const details =
      isJsonObject(answer) && Array.isArray(answer.details) ? (answer.details as ErrorDetail[]) : undefined;
    throw new CliError(code, message, details);
  };

  /**
   * A call to the campaign routes of an environment (the remote control API's, under
   * /admin/v1/environments/{envId}): their 404 is the environment's (unknown_environment) or the campaign's
   * (not_found), said as the CLI says them without a server.
   */
  const campaignCall = async (envId: string, campaign: string, request: Call) =>
    call({ ...request, path: `/environments/${enc(envId)}${request.path}` }).catch((error: unknown) => {
      if (error instanceof CliError && error.code === 'unknown_environment') throw unknownEnvironment(envId);
      if (error instanceof CliError && error.code === 'not_found') throw unknownCampaign(envId, campaign);
      throw error;
    });
  /** Every campaign, page after page (a page holds at most 100). */
  const listCampaigns = async (envId: string): Promise<RemoteCampaign[]> => {
    const campaigns: RemoteCampaign[] = [];
    for (let page = 1; ; page++) {
      const answer = (await campaignCall(envId, '', {
        method: 'GET',
        path: `/campaigns?_page=${page}&_max_per_page=100`,
      })) as unknown as RemotePage<RemoteCampaign>;
      campaigns.push(...answer.items);
      if (page >= answer.last_page || answer.items.length === 0) return campaigns;
    }
  };
  const campaignPath = (campaignId: string): string => `/campaigns/${enc(campaignId)}`;

  return {
    ...clientUserOperations(call),
    used,
    listAccounts: async () => items<AccountView>(await call({ method: 'GET', path: '/accounts' })),
    createAccount: async (name) =>
      (await call({ method: 'POST', path: '/accounts', body: { name } })) as AccountView,
    listEnvironments: async (accountId) =>
      items<EnvironmentView>(
        await call({
          method: 'GET',
          path: `/accounts/${enc(accountId)}/environments`,
          notFound: () => unknownAccount(accountId),
        }),
      ),
    createEnvironment: async ({ accountId, name, enabledXPC, enabled1V1T }) => {
      const { api_key: apiKey, ...environment } = await call({
        method: 'POST',
        path: `/accounts/${enc(accountId)}/environments`,
        body: { name, enabledXPC, enabled1V1T },
        notFound: () => unknownAccount(accountId),
      });
      return { environment: environment as EnvironmentView, apiKey: String(apiKey) };
    },
    rotateApiKey: async (envId) => {
      const answer = await call({
        method: 'POST',
        path: `/environments/${enc(envId)}/rotate-key`,
        notFound: () => unknownEnvironment(envId),
      });
      return String(answer.api_key);
    },
    setPanic: async (envId, panic) =>
      (await call({
        method: 'PATCH',
        path: `/environments/${enc(envId)}`,
        body: { panic },
        notFound: () => unknownEnvironment(envId),
      })) as EnvironmentView,
    importCampaigns: async (envId, file) => {
      // Checked here first, so a bad file is refused with the same message as without a server (loaded
      // here: the other commands through a server need no schema).
      const { validateBucketingCampaigns } = await import('../validation/bucketing-campaigns.js');
      validateBucketingCampaigns(file);
      const answer = await call({
        method: 'PUT',
        path: `/environments/${enc(envId)}/campaigns`,
        body: file,
        notFound: () => unknownEnvironment(envId),
      });
      return Number(answer.campaigns);
    },
    reports: async (envId, campaign) => {
      const query = campaign === undefined ? '' : `?campaign=${enc(campaign)}`;
      const answer = await call({ method: 'GET', path: `/environments/${enc(envId)}/reports${query}` }).catch(
        (error: unknown) => {
          // A 404 is the environment's (unknown_environment) or the campaign's (not_found).
          if (error instanceof CliError && error.code === 'unknown_environment')
            throw unknownEnvironment(envId);
          if (error instanceof CliError && error.code === 'not_found' && campaign !== undefined)
            throw unknownCampaign(envId, campaign);
          throw error;
        },
      );
      return Array.isArray(answer.reports) ? (answer.reports as CampaignReport[]) : [];
    },
    rebuildReports: async (onProgress) => {
      // The server rebuilds in the background (plugins/operator-rollups.ts): started here, then watched.
      let state = await call({ method: 'POST', path: '/reports/rebuild' });
      while (state.state === 'running') {
        onProgress({
          folded: Number(state.folded),
          total: Number(state.total),
          elapsedMs: Number(state.elapsed_ms),
        });
        await new Promise((resolve) => setTimeout(resolve, REBUILD_POLL_MS));
        state = await call({ method: 'GET', path: '/reports/rebuild' });
      }
      if (state.state !== 'done')
        throw new CliError(
          'rebuild_failed',
          `The server's rebuild of the report rollups stopped: ${String(state.error)}. Its log says more; run \`report --rebuild\` again once it is fixed.`,
        );
      return { total: Number(state.total), folded: Number(state.total), elapsedMs: Number(state.elapsed_ms) };
    },
    createAccess: async ({ accountId, name, actions, environments }) => {
      const { client_secret: clientSecret, ...access } = await call({
        method: 'POST',
        path: `/accounts/${enc(accountId)}/accesses`,
        body: { name, actions, environments },
        notFound: () => unknownAccount(accountId),
      });
      return { access: access as AccessView, clientSecret: String(clientSecret) };
    },
    listAccesses: async (accountId) =>
      items<AccessView>(
        await call({
          method: 'GET',
          path: `/accounts/${enc(accountId)}/accesses`,
          notFound: () => unknownAccount(accountId),
        }),
      ),
    getAccess: async (accessId) =>
      (await call({
        method: 'GET',
        path: `/accesses/${enc(accessId)}`,
        notFound: () => unknownAccess(accessId),
      })) as AccessView,
    revokeAccess: async (accessId) =>
      (await call({
        method: 'POST',
        path: `/accesses/${enc(accessId)}/revoke`,
        notFound: () => unknownAccess(accessId),
      })) as AccessView,
    listCampaigns,
    getCampaign: async (envId, wanted) => {
      try {
        return (await campaignCall(envId, wanted, {
          method: 'GET',
          path: campaignPath(wanted),
        })) as unknown as RemoteCampaign;
      } catch (error) {
        // Not an id: perhaps a slug, which the API does not look up.
        if (!(error instanceof CliError && error.code === 'unknown_campaign')) throw error;
        const bySlug = (await listCampaigns(envId)).find((c) => c.slug === wanted);
        if (bySlug === undefined) throw error;
        return bySlug;
      }
    },
    createCampaign: async (envId, body) =>
      (await campaignCall(envId, '', {
        method: 'POST',
        path: '/campaigns',
        body,
      })) as unknown as RemoteCampaign,
    updateCampaign: async (envId, campaignId, body) =>
      (await campaignCall(envId, campaignId, {
        method: 'PATCH',
        path: campaignPath(campaignId),
        body,
      })) as unknown as RemoteCampaign,
    toggleCampaign: async (envId, campaignId, state: CampaignState) =>
      (await campaignCall(envId, campaignId, {
        method: 'PATCH',
        path: `${campaignPath(campaignId)}/toggle`,
        body: { state },
      })) as unknown as RemoteCampaign,
    deleteCampaign: async (envId, campaignId) => {
      await campaignCall(envId, campaignId, { method: 'DELETE', path: campaignPath(campaignId) });
    },
    apiKeyMatches: async (envId, apiKey) => {
      // No operator route checks a key; the decision route does, before it reads the body (§2.2): an empty
      // body is refused (400) after a good key and never decides anything, a wrong key is 403.
      const response = await fetch(`${operator.url}/v2/${enc(envId)}/campaigns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: '{}',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await response.body?.cancel();
      if (response.status === 404) throw unknownEnvironment(envId);
      return response.status !== 401 && response.status !== 403;
    },
    endConsoleSessions: async () =>
      Number((await call({ method: 'DELETE', path: '/console/sessions' })).ended),
    close: () => Promise.resolve(),
  };
};
