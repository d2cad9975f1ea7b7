// The route options every operator route shares (PROTOCOL.md §13.8): its tag, its security (the operator key
// or a console session) and what it may answer before it runs, around its own schema.
import { errors } from '../errors.js';
import {
  withSchema,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  security,
  type SchemaRoute,
  type RouteSchema,
} from './shared-schemas.js';

/**
 * What any operator route may answer before it runs: no key or session, a wrong key, an ended session; a
 * console session's change without its CSRF token; an address locked out after wrong keys; a server fault.
 */
export const operatorAuthErrors = {
  401: {
    ...errorResponse(
      'No operator key and no console session, a wrong key, or a session that ended (or was opened with another operator key).',
      errorAnswer(errors.missingToken()),
      errorAnswer(errors.invalidToken()),
      errorAnswer(errors.consoleSignInRequired()),
      errorAnswer(errors.consoleSessionEnded()),
    ),
    headers: { 'WWW-Authenticate': { type: 'string', description: 'Bearer realm="feature"…' } },
  },
  403: errorResponse(
    "A change made with a console session but without the session's X-CSRF-Token, or from another site (GET never); or a person's session whose role in the account is too small for the route (`insufficient_role` names the role needed; a person who is not a member of the account gets the route's 404 instead).",
    errorAnswer(errors.csrfRejected('The X-CSRF-Token header is missing')),
    errorAnswer(errors.insufficientRole('the admin role')),
  ),
  429: {
    ...errorResponse(
      'Too many wrong operator keys from this address (as a Bearer key or at the console sign-in): even the right key waits Retry-After seconds.',
      errorAnswer(errors.signInLocked(4)),
    ),
    headers: { 'Retry-After': { type: 'string', description: 'Seconds to wait.' } },
  },
  500: internalErrorResponse,
} as const;

/** A route's options: the tag, key and answers every operator route shares, around its own. */
export const operatorRoute = (schema: RouteSchema & { response: Record<number, unknown> }): SchemaRoute =>
  withSchema({
    tags: ['operator'],
    security: security.operator,
    ...schema,
    response: { ...schema.response, ...operatorAuthErrors },
  });

/** Every operator answer's Cache-Control header. */
export const NO_STORE = { 'Cache-Control': { type: 'string', description: '`no-store`' } } as const;
const NAME_RULE = 'must be a string of 1 to 100 characters, not only spaces';
/** An account's or environment's name in a request body. */
export const NAME = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  'x-storable': true,
  'x-rule': NAME_RULE,
} as const;

/** An operator route's answer: `schema` with its description, headers and one example. */
export const answer = (description: string, schema: object, example: unknown) => ({
  ...schema,
  description,
  headers: NO_STORE,
  examples: [example],
});
/** An answer that lists items. */
export const list = (description: string, item: object, example: unknown) =>
  answer(
    description,
    { type: 'object', required: ['items'], properties: { items: { type: 'array', items: item } } },
    {
      items: [example],
    },
  );
