// The CDN files (PROTOCOL.md §6): the bucketing file and account settings of an environment, served from
// memory with a strong ETag and the stored configuration time as Last-Modified (§2.5). No API key.
import type { FastifyPluginCallback } from 'fastify';
import type { AppContext } from '../app-context.js';
import { sendConditional } from '../http/conditional.js';
import { environmentOf, requireEnvironment } from '../http/environment-auth.js';
import { accountSettingsRouteSchema, bucketingFileRouteSchema } from './bucketing-schemas.js';
import { withSchema } from './shared-schemas.js';

/** Registers the bucketing file and account settings routes. */
export const bucketingRoutes: FastifyPluginCallback<{ ctx: AppContext<unknown> }> = (
  app,
  { ctx },
  registered,
) => {
  const onRequest = requireEnvironment(ctx.environments);
  const file = { ...withSchema(bucketingFileRouteSchema), onRequest };
  const settings = { ...withSchema(accountSettingsRouteSchema), onRequest };
  app.get('/cdn/:envId/bucketing.json', file, async (request, reply) => {
    const state = environmentOf(request);
    return sendConditional(request, reply, state.bucketing, state.environment.configTime, ctx.now());
  });
  app.get('/cdn/:envId/accountSettings.json', settings, async (request, reply) => {
    const state = environmentOf(request);
    return sendConditional(request, reply, state.accountSettings, state.environment.configTime, ctx.now());
  });
  registered();
};
