// Schemas of the join routes (plugins/join.ts): a signed-in person reads, then answers, the invitation of a
// join link. The token travels in the POST body, never in a URL (URLs end up in logs).
import { errors } from '../errors.js';
import { ROLE } from './people-schemas.js';
import { answer, operatorRoute } from './operator-route-schemas.js';
import { EXAMPLE, errorAnswer, errorResponse } from './shared-schemas.js';

const TOKEN = {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  'x-storable': true,
  description: 'The token after `#invite=` in the link the admin gave.',
} as const;

const EXAMPLE_TOKEN = 'fci_Sm9pbiBvbmNlIHdpdGggdGhpcyBleGFtcGxlIHRva2VuIGhlcmUu';

const refusals = {
  404: errorResponse(
    'A link this server never made, one whose invitation was revoked, or one already answered otherwise.',
    errorAnswer(errors.spentUserLink('join', 'unknown')),
  ),
  410: errorResponse(
    'A link already used, or expired: ask the admin for a new invitation.',
    errorAnswer(errors.spentUserLink('join', 'used')),
    errorAnswer(errors.spentUserLink('join', 'expired')),
  ),
} as const;

const WHO =
  "A person's console session only (cookie and X-CSRF-Token): the operator key is no person, and gets 403. A link that invites another person than the one signed in gets 403 `insufficient_role` (sign out, then open the link again), and changes nothing.";

/** The join routes' options. */
export const joinRouteSchemas = {
  peekJoin: operatorRoute({
    summary: 'Read a join invitation',
    description: `What an invitation link (\`/admin/#invite=…\`, 7 days) whose screen is \`join\` (\`POST /admin/session/invitation/peek\`) invites the signed-in person to: the account and the role. A person who already has a user is never added to an account without answering such a link. ${WHO}`,
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['token'],
      additionalProperties: false,
      properties: { token: TOKEN },
      examples: [{ token: EXAMPLE_TOKEN }],
    },
    response: {
      200: answer(
        'The invitation.',
        {
          type: 'object',
          required: ['account_id', 'account_name', 'role', 'expires_at'],
          properties: {
            account_id: { type: 'string' },
            account_name: { type: 'string' },
            role: ROLE,
            expires_at: { type: 'string', format: 'date-time' },
          },
          additionalProperties: false,
        },
        { account_id: EXAMPLE.accountId, account_name: 'Acme', role: 'editor', expires_at: EXAMPLE.time },
      ),
      ...refusals,
    },
  }),
  answerJoin: operatorRoute({
    summary: 'Answer a join invitation',
    description: `\`join\`: the signed-in person becomes a member of the account with the invited role (audit \`user.invitation_accepted\`). \`decline\`: the invitation is removed (audit \`user.invitation_declined\`). Either way the link is spent. The link never sets a password and never signs anyone in. ${WHO}`,
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['token', 'answer'],
      additionalProperties: false,
      properties: { token: TOKEN, answer: { type: 'string', enum: ['join', 'decline'] } },
      examples: [{ token: EXAMPLE_TOKEN, answer: 'join' }],
    },
    response: {
      200: answer(
        'Answered.',
        {
          type: 'object',
          required: ['account_id', 'answer'],
          properties: {
            account_id: { type: 'string' },
            answer: { type: 'string', enum: ['join', 'decline'] },
          },
          additionalProperties: false,
        },
        { account_id: EXAMPLE.accountId, answer: 'join' },
      ),
      400: errorResponse(
        'A missing or wrong field.',
        errorAnswer(errors.invalidBody('answer', 'must be one of join, decline')),
      ),
      ...refusals,
    },
  }),
};
