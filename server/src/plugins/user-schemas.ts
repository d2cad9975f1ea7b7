// Schemas of an account's user routes (plugins/users.ts): who is a member and with which role, invitations,
// role changes, removals and reset links. Admins of the account and the operator key call them.
import { errors } from '../errors.js';
import { EMAIL, EMAIL_RULE, ROLE } from './people-schemas.js';
import { notYetMember } from '../services/member-answers.js';
import { answer, list, operatorRoute } from './operator-route-schemas.js';
import { EXAMPLE, errorAnswer, errorResponse, noContentResponse, pathParameters } from './shared-schemas.js';

const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;

const memberSchema = {
  type: 'object',
  required: ['id', 'email', 'name', 'role', 'active', 'created_at', 'last_sign_in_at'],
  properties: {
    id: { type: 'string', description: "The user's id (the same in every account)." },
    email: { type: 'string', description: 'Lower-case.' },
    name: { type: 'string', description: 'Empty until the person chooses one, and while not active.' },
    role: ROLE,
    active: {
      type: 'boolean',
      description:
        'False until the person accepted the invitation (chose a password, or answered their join link).',
    },
    created_at: {
      type: 'string',
      format: 'date-time',
      description: 'When they were invited to this account.',
    },
    last_sign_in_at: { ...NULLABLE_TIME, description: 'Null while not active.' },
  },
  additionalProperties: false,
} as const;

const memberExample = {
  id: EXAMPLE.userId,
  email: 'ada@example.com',
  name: 'Ada',
  role: 'editor',
  active: true,
  created_at: EXAMPLE.time,
  last_sign_in_at: EXAMPLE.time,
};

const linkSchema = {
  type: 'object',
  required: ['path', 'expires_at'],
  properties: {
    path: {
      type: 'string',
      description: "The link's path on this server: give it to the person (the token is in the fragment).",
    },
    expires_at: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
} as const;

const notMember = (method: string) =>
  errorResponse(
    'No such account, or no such member of it.',
    errorAnswer(errors.notFound(method, `account ${EXAMPLE.accountId}`)),
    errorAnswer(errors.notFound(method, `user ${EXAMPLE.userId}`)),
  );

const lastAdmin = errorResponse(
  "The account's last admin cannot be demoted nor removed.",
  errorAnswer(
    errors.conflict(
      `This is the last admin of account "${EXAMPLE.accountId}": make another member an admin first, so that someone can still manage the account.`,
    ),
  ),
);

/** The user routes' options, by route. */
export const userRouteSchemas = {
  listUsers: operatorRoute({
    summary: "List an account's members",
    description:
      'By email, each with their role, whether they accepted their invitation, and their last sign-in.',
    params: pathParameters('accountId'),
    response: { 200: list('The members.', memberSchema, memberExample), 404: notMember('GET') },
  }),
  inviteUser: operatorRoute({
    summary: 'Invite a person',
    description:
      'Invites `email` to the account with `role`, and answers a one-time link (7 days) in this answer only: give it to the person. The link is `/admin/#invite=…` whoever the person is, so neither it nor this answer says whether the email had a user: a new person chooses a password there and is a member. A person who already has a user on this server (in another account, with a password or single sign-on) is never added without their consent: the same kind of link asks them to join, answered signed in as themselves, and until then are a pending member who has no access and of whom the list shows only the email and role, exactly as a new person who has not accepted yet. The answer has the same shape either way. Inviting someone who has not answered yet makes a new link and sets the new role; a member who signs in gets 409.',
    params: pathParameters('accountId'),
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['email', 'role'],
      additionalProperties: false,
      properties: { email: EMAIL, role: ROLE },
      examples: [{ email: 'ada@example.com', role: 'editor' }],
    },
    response: {
      201: answer(
        'The member (not active until they answer), and their one-time link.',
        {
          type: 'object',
          required: ['user', 'link'],
          properties: { user: memberSchema, link: linkSchema },
          additionalProperties: false,
        },
        {
          user: { ...memberExample, name: '', active: false, last_sign_in_at: null },
          link: {
            path: '/admin/#invite=fci_SW52aXRlZCBvbmNlIHdpdGggdGhpcyBleGFtcGxlIHRva2Vu',
            expires_at: EXAMPLE.time,
          },
        },
      ),
      400: errorResponse(
        'A field is wrong, named by its path.',
        errorAnswer(errors.invalidBody('email', EMAIL_RULE)),
      ),
      404: notMember('POST'),
      409: errorResponse(
        'The person is already a member who signs in.',
        errorAnswer(
          errors.conflict(
            'ada@example.com is already a member of this account: change their role (PATCH …/users/{userId}) instead of inviting them again.',
          ),
        ),
      ),
    },
  }),
  changeRole: operatorRoute({
    summary: "Change a member's role",
    description: 'Takes effect at their next request.',
    params: pathParameters('accountId', 'userId'),
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['role'],
      additionalProperties: false,
      properties: { role: ROLE },
      examples: [{ role: 'viewer' }],
    },
    response: {
      200: answer('The member with the new role.', memberSchema, { ...memberExample, role: 'viewer' }),
      400: errorResponse(
        'A field is wrong.',
        errorAnswer(errors.invalidBody('role', 'must be one of admin, editor, viewer')),
      ),
      404: notMember('PATCH'),
      409: lastAdmin,
    },
  }),
  removeUser: operatorRoute({
    summary: 'Remove a member from the account',
    description:
      'They lose the account at their next request; a pending invitation is revoked (its link opens nothing). Removed from their last account, their console sessions end and their links stop working.',
    params: pathParameters('accountId', 'userId'),
    response: { 204: noContentResponse('Removed.'), 404: notMember('DELETE'), 409: lastAdmin },
  }),
  resetLink: operatorRoute({
    summary: 'Make a password reset link',
    description:
      'A one-time link (`/admin/#reset=…`, 1 hour) in this answer only: give it to the person, they choose a new password there, and their other sessions end. No mail is sent: this server has no mail server. A person (not the operator key) may make one only when they are an admin of every account the member belongs to: the link signs in as the member everywhere.',
    params: pathParameters('accountId', 'userId'),
    response: {
      201: answer('The link.', linkSchema, {
        path: '/admin/#reset=fcr_UmVzZXQgb25jZSB3aXRoIHRoaXMgZXhhbXBsZSB0b2tlbiBoZXJl',
        expires_at: EXAMPLE.time,
      }),
      404: notMember('POST'),
      409: errorResponse(
        'The member has not accepted their invitation yet: invite them again instead.',
        errorAnswer(errors.conflict(notYetMember('ada@example.com'))),
      ),
    },
  }),
};
