// GET /admin/v1/environments/:envId/listening: how many pages listen to an environment's changes now, for the
// console's campaign list and report ("N pages listening now (this server)"). A route of its own rather than a
// field of an answer the console already reads: those answers are conditional (the campaign list's ETag and
// Last-Modified follow the configuration, the report's its figures), and a count that moves with every page
// opened would either make their 304s stale or their ETags churn. The count is this instance's: the streams
// live in its memory (LiveChanges), and summing a fleet's would need every instance to publish its own.
import { needs } from '../auth/route-roles.js';
import type { FastifyPluginCallback } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { LiveChanges } from '../configuration/live-changes.js';
import { operatorEnvironment } from '../http/operator-scope.js';
import type { AccountStore } from '../store/account-store.js';
import { operatorListeningRoutes as doc, type ListeningAnswer } from './operator-listening-schemas.js';

/** The route, as a fastify plugin that app.ts registers in the operator scope (http/operator-scope.ts). */
export const operatorListeningRoute: FastifyPluginCallback<{
  ctx: AppContext<AccountStore>;
  changes: LiveChanges;
}> = (scope, { ctx, changes }, registered) => {
  scope.get(
    '/admin/v1/environments/:envId/listening',
    needs('viewer', doc.listening),
    async (request): Promise<ListeningAnswer> => {
      const found = await operatorEnvironment(ctx.store, request);
      // One listener per open stream (stream.ts subscribes once per stream and unsubscribes when it closes).
      return { env_id: found.id, listening: changes.listenersOf(found.id), counted_on: 'this-instance' };
    },
  );
  registered();
};
