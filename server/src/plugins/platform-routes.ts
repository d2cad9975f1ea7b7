// Routes only the platform's own SDKs call (PROTOCOL.md §2.6): `POST /events/emotionsai`, where their browser
// SDK sends its "emotion AI" page views and visitor events (the events host's `POST /emotionsai`, mapped here
// by http/platform-paths.ts). We keep none of it, and answer 204 so that nothing is retried.
import type { FastifyPluginCallback } from 'fastify';
import { errors } from '../errors.js';
import { COLLECT_BODY_LIMIT, JSON_OR_TEXT } from '../http/json-body.js';
import {
  EXAMPLE,
  withSchema,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  noContentResponse,
  security,
  type RouteSchema,
} from './shared-schemas.js';

/** `POST /events/emotionsai`. */
export const emotionsAiRouteSchema: RouteSchema = {
  summary: "Accept the platform SDKs' emotion AI events",
  description:
    "Accepts the page views and visitor events that the platform's browser SDK sends to its events host's /emotionsai (PROTOCOL.md §2.6), so that they are not retried, and keeps none. Any JSON body, as application/json or text/plain, at most 3 MiB; no cid check.",
  tags: ['sdk'],
  security: security.none,
  consumes: JSON_OR_TEXT,
  body: {
    title: 'Emotion AI event',
    description: 'Any JSON value.',
    examples: [{ t: 'PAGEVIEW', cid: EXAMPLE.envId, vid: 'visitor-1', dl: 'https://shop.example/' }],
  },
  response: {
    204: noContentResponse('Accepted and discarded.'),
    400: errorResponse(
      'The body is not JSON.',
      errorAnswer(errors.invalidJson('Unexpected end of JSON input')),
    ),
    413: errorResponse('The body is over 3 MiB.', errorAnswer(errors.payloadTooLarge(COLLECT_BODY_LIMIT))),
    415: errorResponse(
      'The body is not application/json or text/plain.',
      errorAnswer(errors.unsupportedMediaType(JSON_OR_TEXT)),
    ),
    500: internalErrorResponse,
  },
};

/** Registers the routes of the platform's SDKs that have no route of our own. */
export const platformRoutes: FastifyPluginCallback = (app, _options, registered) => {
  app.post(
    '/events/emotionsai',
    {
      ...withSchema(emotionsAiRouteSchema),
      bodyLimit: COLLECT_BODY_LIMIT,
      config: { accepts: JSON_OR_TEXT },
    },
    async (_request, reply) => reply.code(204).send(),
  );
  registered();
};
