// Schemas of the webhook routes (issue 36, docs/teams.md "Webhooks"): operator routes under an environment.
import { errors } from '../errors.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/webhook-events.js';
import { answer, list, operatorRoute } from './operator-route-schemas.js';
import { EXAMPLE, errorAnswer, errorResponse, noContentResponse, pathParameters } from './shared-schemas.js';

const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;

const webhookSchema = {
  type: 'object',
  required: ['id', 'env_id', 'url', 'events', 'created_at'],
  properties: {
    id: { type: 'string' },
    env_id: { type: 'string' },
    url: { type: 'string' },
    events: {
      type: 'array',
      items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
      description: 'The event kinds it is sent; empty means every kind.',
    },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

const webhookExample = {
  id: EXAMPLE.webhookId,
  env_id: EXAMPLE.envId,
  url: 'https://hooks.example.com/feature',
  events: [],
  created_at: EXAMPLE.time,
};

const deliverySchema = {
  type: 'object',
  required: ['id', 'event_id', 'event_type', 'state', 'attempts', 'created_at', 'body'],
  properties: {
    id: { type: 'string', description: 'The Feature-Webhook-Id header: the same on every retry.' },
    event_id: { type: 'string' },
    event_type: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
    state: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    created_at: { type: 'string', format: 'date-time' },
    next_attempt_at: NULLABLE_TIME,
    last_attempt_at: NULLABLE_TIME,
    last_status: { type: ['integer', 'null'] },
    last_answer: { type: ['string', 'null'], description: 'The start of the last answer (1 KB).' },
    last_error: { type: ['string', 'null'] },
    settled_at: NULLABLE_TIME,
    body: { type: 'string', description: 'The JSON body, exactly as signed and sent.' },
  },
} as const;

const deliveryExample = {
  id: EXAMPLE.deliveryId,
  event_id: 'k2vb7ndq5wfx3hjz6mcp',
  event_type: 'campaign.state_changed',
  state: 'delivered',
  attempts: 1,
  created_at: EXAMPLE.time,
  next_attempt_at: null,
  last_attempt_at: EXAMPLE.time,
  last_status: 200,
  last_answer: 'ok',
  last_error: null,
  settled_at: EXAMPLE.time,
  body: `{"id":"k2vb7ndq5wfx3hjz6mcp","type":"campaign.state_changed","createdAt":"${EXAMPLE.time}","envId":"${EXAMPLE.envId}","data":{"campaign":{"id":"c1","name":"Checkout button","slug":"checkout","state":"paused"},"previousState":"active"}}`,
};

const notFound = (what: string, method = 'GET') =>
  errorResponse(`No ${what} has this id.`, errorAnswer(errors.notFound(method, `${what} nope`)));

/** The webhook routes' options, by route. */
export const webhookRoutes = {
  listWebhooks: operatorRoute({
    summary: "List an environment's webhooks",
    description: 'Oldest first, never with their secrets.',
    params: pathParameters('envId'),
    response: { 200: list('The webhooks.', webhookSchema, webhookExample), 404: notFound('environment') },
  }),
  newWebhook: operatorRoute({
    summary: 'Create a webhook',
    description:
      'Events of this environment are POSTed to `url`, signed with HMAC-SHA256 (`Feature-Signature: t=…,v1=…`), retried with backoff for 24 h and kept across restarts, in order per webhook. The secret is in this answer only. Unless the server is started with FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow, `url` must reach a public address: a loopback, private or link-local address as its host is refused here, and a name is checked at each delivery on what it resolves to.',
    params: pathParameters('envId'),
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: {
          type: 'string',
          minLength: 1,
          maxLength: 2048,
          'x-storable': true,
          description:
            'An absolute http or https URL of a public address (any address with FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow).',
          'x-rule': 'must be an absolute http:// or https:// URL of at most 2048 characters',
        },
        events: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
          description: 'The event kinds to send; absent or empty sends every kind.',
        },
      },
      examples: [
        {
          url: 'https://hooks.example.com/feature',
          events: ['campaign.state_changed', 'environment.panic_changed'],
        },
      ],
    },
    response: {
      201: answer(
        'The webhook, with its signing secret (shown once).',
        {
          ...webhookSchema,
          required: [...webhookSchema.required, 'secret'],
          properties: { ...webhookSchema.properties, secret: { type: 'string' } },
        },
        { ...webhookExample, secret: EXAMPLE.webhookSecret },
      ),
      400: errorResponse(
        'A field is wrong, named by its path.',
        errorAnswer(errors.invalidBody('url', 'must be an absolute http:// or https:// URL')),
      ),
      404: notFound('environment', 'POST'),
    },
  }),
  deleteWebhook: operatorRoute({
    summary: 'Delete a webhook',
    description: 'Nothing more is sent to it; its unsent deliveries are given up.',
    params: pathParameters('envId', 'webhookId'),
    response: { 204: noContentResponse('Deleted.'), 404: notFound('webhook', 'DELETE') },
  }),
  listDeliveries: operatorRoute({
    summary: "A webhook's latest deliveries",
    description:
      'Newest first, at most 50, each with its last attempt and answer; settled ones are kept FEATURE_WEBHOOK_LOG_DAYS days (default 30).',
    params: pathParameters('envId', 'webhookId'),
    response: { 200: list('The deliveries.', deliverySchema, deliveryExample), 404: notFound('webhook') },
  }),
  redeliver: operatorRoute({
    summary: 'Send a delivery again',
    description:
      'Queues it again at once with the same delivery id and body, retried for 24 h from now (the console\'s "send again").',
    params: pathParameters('envId', 'webhookId', 'deliveryId'),
    response: {
      200: answer('The delivery, queued.', deliverySchema, { ...deliveryExample, state: 'pending' }),
      404: notFound('delivery', 'POST'),
    },
  }),
} as const;
