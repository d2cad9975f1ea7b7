// The operator routes (PROTOCOL.md §13.8) as one fastify scope: guarded by the operator key or a console
// session, each route's role checked after that (auth/route-roles.ts), holding the route groups of accounts,
// insights, rollups, webhooks, people, the audit log and single sign-on settings, and the campaign routes under
// /admin/v1/environments/{envId}. app.ts registers it only when an operator key is set.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.js';
import type { OperatorCheckOptions } from './auth/operator-auth.js';
import type { People } from './auth/people.js';
import { ACTION_ROLES } from './auth/route-roles.js';
import type { LiveChanges } from './configuration/live-changes.js';
import { guardOperatorScope, operatorEnvironment } from './http/operator-scope.js';
import { rememberEnvironment } from './http/request-environment.js';
import { auditRoutesPlugin } from './plugins/audit.js';
import { campaignRoutes } from './plugins/campaigns.js';
import { joinRoutes } from './plugins/join.js';
import { operatorAccountRoutes } from './plugins/operator.js';
import { operatorInsightRoutes } from './plugins/operator-insights.js';
import { operatorListeningRoute } from './plugins/operator-listening.js';
import { operatorRollupRoutes } from './plugins/operator-rollups.js';
import { OPERATOR_CAMPAIGNS_BASE, operatorCampaignRoutes } from './plugins/operator-schemas.js';
import { ssoSettingsRoutes } from './plugins/sso-settings.js';
import { userRoutes } from './plugins/users.js';
import { webhookRoutesPlugin } from './plugins/webhooks.js';
import type { SsoProviders } from './sso/sso-providers.js';

/** What the operator scope is built from, besides the app's context. */
export interface OperatorRoutesOptions extends Omit<OperatorCheckOptions, 'users'> {
  readonly ctx: AppContext;
  readonly changes: LiveChanges;
  readonly people: People;
  readonly ssoProviders: SsoProviders;
  /** Whether webhooks may reach loopback and private addresses (FEATURE_WEBHOOK_PRIVATE_NETWORKS). */
  readonly webhookPrivateNetworks: boolean;
}

/** Registers the operator scope on `app`. */
export const registerOperatorRoutes = (app: FastifyInstance, options: OperatorRoutesOptions): void => {
  const { ctx, keys, sessions, lockout, changes, people, ssoProviders } = options;
  void app.register((scope, _options, registered) => {
    guardOperatorScope(scope, { keys, sessions, lockout, users: ctx.store }, ctx.store);
    void scope.register(operatorAccountRoutes, { ctx });
    void scope.register(operatorInsightRoutes, { ctx });
    void scope.register(operatorListeningRoute, { ctx, changes });
    void scope.register(operatorRollupRoutes, { ctx });
    void scope.register(webhookRoutesPlugin, { ctx, privateNetworks: options.webhookPrivateNetworks });
    void scope.register(userRoutes, { ctx, people });
    void scope.register(joinRoutes, { people });
    void scope.register(auditRoutesPlugin, { ctx });
    void scope.register(ssoSettingsRoutes, { ctx, providers: ssoProviders });
    void scope.register(campaignRoutes, {
      ctx,
      base: OPERATOR_CAMPAIGNS_BASE,
      // The key was checked by the scope's hook; what is left is the environment (404 when unknown).
      authorize: () => async (request) => {
        rememberEnvironment(request, await operatorEnvironment(ctx.store, request));
      },
      schemas: operatorCampaignRoutes,
      roles: ACTION_ROLES,
    });
    registered();
  });
};
