// Schema of the operator's "pages listening now" route (operator-listening.ts): how many live-update streams
// (PROTOCOL.md §17) of an environment this server instance holds open. Read-only and never cached: the number
// moves with every page that opens or closes, so it has no ETag to revalidate.
import { errors } from '../errors.js';
import { NO_STORE, operatorRoute } from './operator-route-schemas.js';
import { EXAMPLE, errorAnswer, errorResponse, pathParameters } from './shared-schemas.js';

/** The answer: the environment and its open streams on this instance. */
export const listeningSchema = {
  type: 'object',
  required: ['env_id', 'listening', 'counted_on'],
  properties: {
    env_id: { type: 'string' },
    listening: {
      type: 'integer',
      minimum: 0,
      description:
        'Open live-update streams (§17) of the environment on this server instance: pages (and servers) that get a change within a second. Instances sharing one database each count only their own streams; ask each one for the whole.',
    },
    counted_on: {
      const: 'this-instance',
      description: 'Says what `listening` covers: the instance that answered, never the whole fleet.',
    },
  },
  additionalProperties: false,
} as const;

/** What the route answers, as built by operator-listening.ts. */
export interface ListeningAnswer {
  env_id: string;
  listening: number;
  counted_on: 'this-instance';
}

const example = {
  env_id: EXAMPLE.envId,
  listening: 2,
  counted_on: 'this-instance',
} satisfies ListeningAnswer;

/** The route's options (its schema serializes the answer and documents it). */
export const operatorListeningRoutes = {
  listening: operatorRoute({
    summary: 'Count the pages listening to an environment now',
    description:
      'How many live-update streams (§17) of the environment this server instance holds open now: what the console shows as "N pages listening now (this server)", so that an operator knows a toggle lands at once. Per instance: with several instances on one database, each counts its own (a stream is open on one of them).',
    params: pathParameters('envId'),
    response: {
      200: { ...listeningSchema, description: 'The count.', headers: NO_STORE, examples: [example] },
      404: errorResponse('No environment has this id.', errorAnswer(errors.unknownEnvironment('nope'))),
    },
  }),
} as const;
