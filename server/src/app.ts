// `createApp(deps)`: the server as a fastify instance over a store, with nothing listening yet, so tests run
// it in-process on 127.0.0.1:0 and main.ts runs it on PORT. The store belongs to the caller (several apps
// may share one in tests); closing the app flushes what it writes behind.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { ErrorObject } from 'ajv';
import type { Logger } from 'pino';
import type { AppContext } from './app-context.js';
import { AssignmentService } from './assignments/assignment-service.js';
import { AssignmentWriter } from './assignments/assignment-writer.js';
import { EnvironmentCache } from './configuration/environment-cache.js';
import { LiveChanges } from './configuration/live-changes.js';
import { DEFAULT_MAX_STREAMS } from './config.js';
import { OpenStreams } from './http/event-streams.js';
import { registerCors } from './http/cors.js';
import { answerFrameworkError, registerErrorHandlers } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { formatSchemaErrors } from './http/schema-errors.js';
import { compileRequestSchema } from './http/schema-validation.js';
import { registerOpenApi } from './http/openapi.js';
import { rewritePlatformUrl } from './http/platform-paths.js';
import { errors } from './errors.js';
import { STORABLE_TEXT_RULE, isStorableText } from './validation/storable-text.js';
import { createLogger, redactUrl } from './logger.js';
import { carryRequestActors } from './audit/actor.js';
import { scheduleHourlyUpkeep, type UpkeepOptions } from './hourly-upkeep.js';
import { activationRoutes } from './plugins/activation.js';
import { bucketingRoutes } from './plugins/bucketing.js';
import { campaignRoutes } from './plugins/campaigns.js';
import { consoleRoutes } from './plugins/console.js';
import { decisionRoutes } from './plugins/decision.js';
import { eventRoutes } from './plugins/events.js';
import { ofrepRoutes } from './plugins/ofrep.js';
import { oauthRoutes } from './plugins/oauth.js';
import { platformRoutes } from './plugins/platform-routes.js';
import { REMOTE_BASE, remoteRouteSchemas } from './plugins/remote-schemas.js';
import { staticRoutes, type StaticOptions } from './plugins/static.js';
import { streamRoutes } from './plugins/stream.js';
import { invitationScreenRoute } from './plugins/invitation-screen.js';
import { ssoPages } from './plugins/sso.js';
import { SsoProviders } from './sso/sso-providers.js';
import { authorizeCall } from './http/bearer-auth.js';
import { TokenRateLimits, type TokenLimits } from './auth/rate-limits.js';
import { TokenService } from './auth/token-service.js';
import { ConsoleSessions } from './auth/console-sessions.js';
import { People } from './auth/people.js';
import { OperatorKeyLockout } from './auth/operator-auth.js';
import { OperatorKeys } from './auth/operator-keys.js';
import { registerOperatorRoutes } from './operator-routes.js';
import type { Store } from './store/store.js';

/** The live-update streams (§17) an app holds open, and the listeners of their changes. */
export interface LiveUpdates {
  streams: OpenStreams;
  changes: LiveChanges;
}

// Kept beside the app rather than decorated on it: tests and benches count streams and listeners through it.
const liveUpdates = new WeakMap<FastifyInstance, LiveUpdates>();

/** The live-update bookkeeping of an app made by `createApp`. */
export const liveUpdatesOf = (app: FastifyInstance): LiveUpdates => {
  const found = liveUpdates.get(app);
  if (found === undefined) throw new Error('liveUpdatesOf: this app was not made by createApp');
  return found;
};

/** What the app is built from; the upkeep's options say how long what is kept. */
export interface AppDeps extends UpkeepOptions {
  store: Store;
  /** A logger (default: pino at `info` on stdout). */
  logger?: Logger;
  /** FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow: webhook URLs may name the server's own network (default false). */
  webhookPrivateNetworks?: boolean;
  /** The demo page and SDK bundles; without it `/` and `/sdk/` are not served. */
  static?: StaticOptions;
  /** The clock, for tests. */
  now?: () => number;
  /**
   * How often cached environments are compared with the database, catching changes whose notification
   * was missed (default 5000 ms).
   */
  configCheckIntervalMs?: number;
  /** Limits of the token routes (§13.7), and of wrong operator keys; tests set their own. */
  tokenLimits?: Partial<TokenLimits>;
  /** FEATURE_MAX_TOKEN_LIFETIME in seconds: tokens live at most this long, none without expiry. */
  maxTokenLifetimeSeconds?: number | null;
  /**
   * Whose X-Forwarded-For is believed for the client IP (TRUST_PROXY): proxy addresses or CIDRs,
   * comma-separated; absent, the socket's address is the client's.
   */
  trustProxy?: string;
  /** Keys that open the operator routes (§13.8); none: the routes do not exist. */
  operatorKeys?: readonly string[];
  /**
   * The console's sessions, made with the same `operatorKeys` (default: new ones); the caller keeps them to
   * make sign-in links.
   */
  consoleSessions?: ConsoleSessions;
  /** FEATURE_MAX_STREAMS: live-update streams open at once at most (§17; default 10 000). */
  maxStreams?: number;
  /** How often open streams get a `: ping` comment (default 25 000 ms); tests set a short one. */
  streamPingIntervalMs?: number;
}

/** Builds the server (PROTOCOL.md §2-§6, §12, §17, §18); call `listen` on the result. */
export const createApp = async (deps: AppDeps): Promise<FastifyInstance> => {
  const log = deps.logger ?? createLogger();
  const baseLog: FastifyBaseLogger = log;
  const app: FastifyInstance = Fastify({
    loggerInstance: baseLog,
    // Requests are logged below at debug, a level that is off by default and in benchmarks.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    routerOptions: { ignoreTrailingSlash: true },
    forceCloseConnections: true,
    // A URL the router cannot decode answers 400 invalid_url from the catalogue, with CORS (§2.1).
    frameworkErrors: answerFrameworkError,
    // The platform's SDKs call root paths on their own hosts (PROTOCOL.md §2.6): served at our routes.
    rewriteUrl: rewritePlatformUrl,
    bodyLimit: 1024 * 1024,
    // Every request part is checked against its route's schema, and a refusal names each wrong field.
    schemaErrorFormatter: (validationErrors, part) =>
      formatSchemaErrors(validationErrors as unknown as ErrorObject[], part),
    ...(deps.trustProxy === undefined ? {} : { trustProxy: deps.trustProxy }),
  });
  app.setValidatorCompiler(compileRequestSchema);
  const writer = new AssignmentWriter(deps.store, log);
  const ctx: AppContext = {
    store: deps.store,
    environments: new EnvironmentCache(
      deps.store,
      log,
      deps.configCheckIntervalMs === undefined ? {} : { checkIntervalMs: deps.configCheckIntervalMs },
    ),
    assignments: new AssignmentService(deps.store, writer),
    log,
    now: deps.now ?? Date.now,
  };
  await ctx.environments.start();
  const changes = new LiveChanges(ctx.environments, log);
  changes.start();
  const streams = new OpenStreams({
    limit: deps.maxStreams ?? DEFAULT_MAX_STREAMS,
    ...(deps.streamPingIntervalMs === undefined ? {} : { pingIntervalMs: deps.streamPingIntervalMs }),
  });
  liveUpdates.set(app, { streams, changes });

  // First: the OpenAPI document is collected from the routes as they are registered.
  await registerOpenApi(app);
  registerJsonBodyParser(app);
  registerErrorHandlers(app);
  registerCors(app);
  carryRequestActors(app);
  // Path parameters reach the store (ids are looked up): refuse text it cannot hold before it gets there.
  app.addHook('onRequest', (request, _reply, done) => {
    for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
      if (typeof value === 'string' && !isStorableText(value)) {
        done(errors.invalidBody(`path.${name}`, STORABLE_TEXT_RULE));
        return;
      }
    }
    done();
  });
  // A change made through this instance is seen by its next request at once: the cached environment is
  // dropped before the answer leaves, rather than when this instance's own change notification comes back
  // (a few ms on PostgreSQL; a request in between would see the state before the change).
  app.addHook('onSend', (request, reply, payload, done) => {
    const envId = (request.params as { envId?: unknown } | undefined)?.envId;
    // Only the routes that change a configuration: the remote control API and the operator routes (a decision
    // is a POST too, and must keep the cache).
    const route = request.routeOptions.url ?? '';
    const configures = route.startsWith('/v1/') || route.startsWith('/admin/v1/');
    const changes = request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS';
    if (configures && changes && typeof envId === 'string' && reply.statusCode < 400)
      ctx.environments.invalidate(envId);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (log.isLevelEnabled('debug')) {
      request.log.debug(
        {
          method: request.method,
          url: redactUrl(request.url),
          status: reply.statusCode,
          ms: reply.elapsedTime,
        },
        'request',
      );
    }
    done();
  });
  // One fastify plugin per route group. What they share comes through their options (the app's context) and
  // the http/ helpers, never another route file.
  void app.register(decisionRoutes, { ctx });
  void app.register(activationRoutes, { ctx });
  void app.register(eventRoutes, { ctx });
  void app.register(bucketingRoutes, { ctx });
  void app.register(streamRoutes, { ctx, changes, streams });
  void app.register(ofrepRoutes, { ctx });
  void app.register(platformRoutes);
  const tokens = new TokenService(deps.store, ctx.now);
  void app.register(oauthRoutes, {
    tokens,
    limits: new TokenRateLimits(deps.tokenLimits, ctx.now),
    maxLifetimeSeconds: deps.maxTokenLifetimeSeconds ?? null,
    audit: deps.store,
  });
  // The remote control API: the campaign routes, each call with a bearer token for exactly its action (§13.6).
  void app.register(campaignRoutes, {
    ctx,
    base: REMOTE_BASE,
    authorize: (action) => async (request) => authorizeCall(request, tokens, ctx.store, action),
    schemas: remoteRouteSchemas,
  });
  const operatorKeys = deps.operatorKeys ?? [];
  const consoleSessions =
    deps.consoleSessions ?? new ConsoleSessions(deps.store, { operatorKeys, now: ctx.now });
  // Wrong passwords are counted apart from wrong operator keys, with the same thresholds (password-lockout.ts).
  const people = new People(deps.store, consoleSessions, {
    now: ctx.now,
    ...(deps.tokenLimits === undefined ? {} : { limits: deps.tokenLimits }),
  });
  // One count of wrong operator keys per address, whether sent to the console's sign-in or as a Bearer key, with
  // the token routes' thresholds (kept apart from theirs: a job's wrong client secrets lock no operator out).
  const lockout = new OperatorKeyLockout(new TokenRateLimits(deps.tokenLimits, ctx.now));
  // The accounts' OpenID providers, discovered when settings are saved and before each sign-in.
  const ssoProviders = new SsoProviders(ctx.now);
  // The operator routes exist only with an operator key (§13.8): one scope (operator-routes.ts).
  if (operatorKeys.length > 0)
    registerOperatorRoutes(app, {
      ctx,
      keys: new OperatorKeys(operatorKeys),
      sessions: consoleSessions,
      lockout,
      changes,
      people,
      ssoProviders,
      webhookPrivateNetworks: deps.webhookPrivateNetworks ?? false,
    });
  void app.register(consoleRoutes, {
    sessions: consoleSessions,
    users: deps.store,
    people,
    operatorKeys,
    lockout,
    ...(deps.static?.consoleDir === undefined ? {} : { consoleDir: deps.static.consoleDir }),
    now: ctx.now,
    audit: deps.store,
  });
  // Single sign-on (it opens console sessions) and the invitation screen exist with the console (an operator key).
  const sso = { store: deps.store, providers: ssoProviders, sessions: consoleSessions, now: ctx.now };
  if (operatorKeys.length > 0) void app.register(ssoPages, sso).register(invitationScreenRoute, { people });
  if (deps.static !== undefined) void app.register(staticRoutes, deps.static);

  scheduleHourlyUpkeep(app, ctx, deps);
  // Before the server stops accepting: an open stream never ends by itself, and clients reconnect elsewhere.
  app.addHook('preClose', (done) => {
    streams.endAll();
    done();
  });
  app.addHook('onClose', async () => {
    changes.stop();
    await ctx.environments.stop();
    await writer.flush();
  });
  return app;
};
