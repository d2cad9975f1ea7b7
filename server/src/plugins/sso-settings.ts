// The single sign-on settings routes (issue 36): an account's OpenID provider and role mappings, in the
// operator scope, for admins of the account (and the operator key). The issuer is discovered before anything is saved, so a typo shows up here and not when the
// first person tries to sign in. The client secret is write-only.
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { needs } from '../auth/route-roles.js';
import { errors } from '../errors.js';
import { callbackUrlOf } from '../sso/callback-url.js';
import { issuerUrlProblem, providerErrorText, type SsoProviders } from '../sso/sso-providers.js';
import type { Account, AccountStore } from '../store/account-store.js';
import type { DomainRole, GroupRole, SsoSettings, SsoStore } from '../store/sso-store.js';
import { ssoRoutes as doc } from './sso-settings-schemas.js';

const PATH = '/admin/v1/accounts/:accountId/sso';

/** A PUT body, as its schema lets it through. */
interface SettingsBody {
  name: string;
  issuer: string;
  client_id: string;
  client_secret?: string;
  groups_claim?: string;
  group_roles?: GroupRole[];
  domain_roles?: DomainRole[];
  enabled?: boolean;
}

/** The settings as a route answers them: never the secret. */
export const ssoSettingsAnswer = (settings: SsoSettings, redirectUri: string) => ({
  account_id: settings.accountId,
  name: settings.name,
  issuer: settings.issuer,
  client_id: settings.clientId,
  client_secret: '(set)',
  groups_claim: settings.groupsClaim,
  group_roles: settings.groupRoles,
  domain_roles: settings.domainRoles,
  enabled: settings.enabled,
  redirect_uri: redirectUri,
  created_at: new Date(settings.createdMs).toISOString(),
  updated_at: new Date(settings.updatedMs).toISOString(),
});

/** The settings routes, registered by app.ts in the operator scope. */
export const ssoSettingsRoutes: FastifyPluginCallback<{
  ctx: AppContext<AccountStore & SsoStore>;
  providers: SsoProviders;
}> = (scope, { ctx, providers }, registered) => {
  const account = async (request: FastifyRequest): Promise<Account> => {
    const { accountId } = request.params as { accountId: string };
    const found = await ctx.store.getAccount(accountId);
    if (found === null) throw errors.notFound(request.method, `account ${accountId.slice(0, 64)}`);
    return found;
  };

  scope.get(PATH, needs('admin', doc.readSettings), async (request) => {
    const owner = await account(request);
    const settings = await ctx.store.getSsoSettings(owner.id);
    if (settings === null) throw errors.noSsoSettings(owner.id);
    return ssoSettingsAnswer(settings, callbackUrlOf(request));
  });
  scope.put(PATH, needs('admin', doc.putSettings), async (request) => {
    const owner = await account(request);
    const body = request.body as SettingsBody;
    const issuer = body.issuer.trim();
    const problem = issuerUrlProblem(issuer);
    if (problem !== null) throw errors.invalidBody('issuer', problem);
    const clientSecret = body.client_secret ?? (await ctx.store.getSsoSettings(owner.id))?.clientSecret;
    if (clientSecret === undefined) throw errors.ssoSecretRequired();
    const clientId = body.client_id.trim();
    try {
      await providers.discoverNow({ issuer, clientId, clientSecret });
    } catch (error) {
      throw errors.ssoIssuerUndiscoverable(issuer, providerErrorText(error));
    }
    const saved = await ctx.store.putSsoSettings(
      owner.id,
      {
        name: body.name.trim(),
        issuer,
        clientId,
        clientSecret: body.client_secret ?? null,
        groupsClaim: body.groups_claim ?? 'groups',
        groupRoles: body.group_roles ?? [],
        domainRoles: (body.domain_roles ?? []).map((m) => ({ domain: m.domain.toLowerCase(), role: m.role })),
        enabled: body.enabled ?? true,
      },
      ctx.now(),
    );
    // Removed since the secret was read: the next save gives one again.
    if (saved === null) throw errors.ssoSecretRequired();
    return ssoSettingsAnswer(saved, callbackUrlOf(request));
  });
  scope.delete(PATH, needs('admin', doc.deleteSettings), async (request, reply) => {
    const owner = await account(request);
    if (!(await ctx.store.deleteSsoSettings(owner.id))) throw errors.noSsoSettings(owner.id);
    return reply.code(204).send();
  });
  registered();
};
