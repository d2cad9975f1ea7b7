// Schema of the live-update stream (PROTOCOL.md §17), for request checks and the OpenAPI document. Its answer
// is `text/event-stream`, written by the route itself (never serialized by fastify): the schema documents it.
import { errors } from '../errors.js';
import { DEFAULT_MAX_STREAMS } from '../config.js';
import { malformedPathResponse } from './bucketing-schemas.js';
import { changeEventText } from '../http/event-streams.js';
import {
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  pathParameters,
  security,
  type RouteSchema,
} from './shared-schemas.js';

/** Seconds a client refused for the stream limit is asked to wait (§17). */
export const STREAM_RETRY_AFTER_SECONDS = 5;

const exampleEvent = changeEventText({
  revision: 1795600000,
  etag: '"fW5OCNnosXEIlV2j4qQbTGxaMf7QYRz9"',
  lastModified: 'Wed, 25 Nov 2026 10:00:00 GMT',
});

/** `GET /v1/{envId}/stream`. */
export const streamRouteSchema: RouteSchema = {
  summary: 'Follow configuration changes (server-sent events)',
  description: `An event stream (PROTOCOL.md §17) that says when the environment's bucketing file or decisions change: one \`change\` event per change (a campaign created, changed, toggled or deleted; panic; account settings), on every server instance sharing the database, within a second. Its \`id\` is the environment's revision (it only rises); \`etag\` and \`lastModified\` are those of the bucketing file now, for a conditional download. A reconnect whose \`Last-Event-ID\` is older than the current revision gets one event at once. A \`: ping\` comment comes every 25 s. No API key; CORS from any origin. At most FEATURE_MAX_STREAMS open streams per server process (default ${DEFAULT_MAX_STREAMS}); the server ends its streams when it shuts down.`,
  tags: ['sdk'],
  security: security.none,
  params: pathParameters('envId'),
  querystring: {
    type: 'object',
    properties: {
      event: {
        type: 'string',
        enum: ['change', 'message'],
        default: 'change',
        description:
          '`change` (the default): events named `event: change`, as the SDKs read them. `message`: the same events with no event name, which EventSource delivers as `message`, the only event OFREP providers listen to; the OFREP bulk answer names the stream this way (§18 `eventStreams`).',
        examples: ['message'],
      },
    },
  },
  headers: {
    type: 'object',
    properties: {
      'last-event-id': {
        type: 'string',
        description:
          'The id of the last event the client received (EventSource sends it on reconnect). Older than the current revision: one `change` event at once. Not a revision number (any other text): taken as absent.',
        examples: ['1795600000'],
      },
    },
  },
  response: {
    200: {
      description:
        'The stream, open until the client leaves or the server shuts down: `change` events and `: ping` comments.',
      headers: {
        'Content-Type': { type: 'string', description: '`text/event-stream; charset=utf-8`.' },
        'Cache-Control': { type: 'string', description: '`no-store`.' },
      },
      content: {
        'text/event-stream': {
          schema: {
            type: 'string',
            description:
              'Events as the EventSource format writes them: `id: <revision>`, `event: change` (left out with `?event=message`), `data: {"type":"refetchEvaluation","etag":…,"lastModified":…}`, and a blank line.',
            examples: [exampleEvent],
          },
          examples: { change: { summary: 'A change event', value: exampleEvent } },
        },
      },
    },
    400: malformedPathResponse,
    404: errorResponse('No environment has this id.', errorAnswer(errors.unknownEnvironment('nope'))),
    500: internalErrorResponse,
    503: {
      ...errorResponse(
        'This server process holds FEATURE_MAX_STREAMS open streams: reconnect after Retry-After seconds (and keep polling meanwhile).',
        errorAnswer(errors.tooManyStreams(DEFAULT_MAX_STREAMS, STREAM_RETRY_AFTER_SECONDS)),
      ),
      headers: {
        'Retry-After': {
          type: 'string',
          description: `Seconds to wait before reconnecting (${STREAM_RETRY_AFTER_SECONDS}).`,
        },
      },
    },
  },
};
