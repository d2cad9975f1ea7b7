// The webhook routes (issue 36): an environment's webhook targets and their deliveries, in the operator scope
// (the operator key or a console session). The events themselves are queued by the store's writes; the
// deliverer (webhooks/webhook-deliverer.ts) sends them.
import { needs } from '../auth/route-roles.js';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { operatorEnvironment } from '../http/operator-scope.js';
import { deliveryAnswer, webhookAnswer } from '../services/webhook-answers.js';
import type { AccountStore } from '../store/account-store.js';
import type { WebhookRecord, WebhookStore } from '../store/webhook-store.js';
import { literalAddressProblem } from '../webhooks/webhook-address.js';
import type { WebhookEventType } from '../webhooks/webhook-events.js';
import { webhookRoutes as doc } from './webhook-schemas.js';

const PREFIX = '/admin/v1/environments/:envId/webhooks';

/** How many deliveries the console is shown per webhook. */
export const DELIVERIES_SHOWN = 50;

/**
 * The URL a webhook posts to: absolute http(s), no credentials in it, and unless `privateNetworks`, not a
 * literal address of the server's own network (a name is checked at each delivery, on what it resolves to);
 * else the reason.
 */
const urlProblem = (value: string, privateNetworks: boolean): string | null => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `must be an http:// or https:// URL, not ${url.protocol}//`;
  if (url.username !== '' || url.password !== '')
    return 'must not hold a user name or password: the signature authenticates each delivery';
  return privateNetworks ? null : literalAddressProblem(url);
};

/** The webhook routes, registered by app.ts in the operator scope. */
export const webhookRoutesPlugin: FastifyPluginCallback<{
  ctx: AppContext<AccountStore & WebhookStore>;
  /** FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow: URLs may name loopback, private and link-local addresses. */
  privateNetworks: boolean;
}> = (scope, { ctx, privateNetworks }, registered) => {
  const webhook = async (request: FastifyRequest): Promise<WebhookRecord> => {
    const found = await operatorEnvironment(ctx.store, request);
    const { webhookId } = request.params as { webhookId: string };
    const hook = await ctx.store.getWebhook(found.id, webhookId);
    if (hook === null) throw errors.notFound(request.method, `webhook ${webhookId.slice(0, 64)}`);
    return hook;
  };

  scope.get(PREFIX, needs('admin', doc.listWebhooks), async (request) => {
    const found = await operatorEnvironment(ctx.store, request);
    return { items: (await ctx.store.listWebhooks(found.id)).map(webhookAnswer) };
  });
  scope.post(PREFIX, needs('admin', doc.newWebhook), async (request, reply) => {
    const found = await operatorEnvironment(ctx.store, request);
    const body = request.body as { url: string; events?: WebhookEventType[] };
    const url = body.url.trim();
    const problem = urlProblem(url, privateNetworks);
    if (problem !== null) throw errors.invalidBody('url', problem);
    const { webhook: created, secret } = await ctx.store.createWebhook(found.id, {
      url,
      events: body.events ?? [],
    });
    return reply.code(201).send({ ...webhookAnswer(created), secret });
  });
  scope.delete(`${PREFIX}/:webhookId`, needs('admin', doc.deleteWebhook), async (request, reply) => {
    const hook = await webhook(request);
    await ctx.store.deleteWebhook(hook.envId, hook.id);
    return reply.code(204).send();
  });
  scope.get(`${PREFIX}/:webhookId/deliveries`, needs('admin', doc.listDeliveries), async (request) => {
    const hook = await webhook(request);
    return { items: (await ctx.store.listDeliveries(hook.id, DELIVERIES_SHOWN)).map(deliveryAnswer) };
  });
  scope.post(
    `${PREFIX}/:webhookId/deliveries/:deliveryId/redeliver`,
    needs('admin', doc.redeliver),
    async (request) => {
      const hook = await webhook(request);
      const { deliveryId } = request.params as { deliveryId: string };
      const queued = await ctx.store.redeliver(hook.id, deliveryId, ctx.now());
      if (queued === null) throw errors.notFound(request.method, `delivery ${deliveryId.slice(0, 64)}`);
      return deliveryAnswer(queued);
    },
  );
  registered();
};
