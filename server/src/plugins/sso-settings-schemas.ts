// Schemas of the single sign-on routes (issue 36, docs/teams.md "Single sign-on"): an account's provider
// settings (operator routes), and the public list of accounts that offer single sign-on at the console's
// sign-in. The client secret is write-only: answers say "(set)".
import { errors } from '../errors.js';
import { NAME, answer, operatorRoute } from './operator-route-schemas.js';
import {
  EXAMPLE,
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  noContentResponse,
  pathParameters,
  security,
  withSchema,
} from './shared-schemas.js';

const ROLE = { type: 'string', enum: ['viewer', 'editor', 'admin'] } as const;

const groupRole = {
  type: 'object',
  required: ['group', 'role'],
  additionalProperties: false,
  properties: {
    group: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      'x-storable': true,
      description: 'A value of the groups claim, compared exactly (case-sensitive).',
    },
    role: ROLE,
  },
} as const;

const domainRole = {
  type: 'object',
  required: ['domain', 'role'],
  additionalProperties: false,
  properties: {
    domain: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$',
      'x-rule': 'must be an email domain such as example.com (no @, no spaces)',
      description:
        'The part of a verified email after the @ (case-insensitive; a subdomain is another domain).',
    },
    role: ROLE,
  },
} as const;

const settingsSchema = {
  type: 'object',
  required: [
    'account_id',
    'name',
    'issuer',
    'client_id',
    'client_secret',
    'groups_claim',
    'group_roles',
    'domain_roles',
    'enabled',
    'redirect_uri',
    'created_at',
    'updated_at',
  ],
  properties: {
    account_id: { type: 'string' },
    name: { type: 'string', description: 'What the console\'s button says: "Sign in with <name>".' },
    issuer: { type: 'string' },
    client_id: { type: 'string' },
    client_secret: { type: 'string', enum: ['(set)'], description: 'Never answered back.' },
    groups_claim: { type: 'string' },
    group_roles: { type: 'array', items: groupRole },
    domain_roles: { type: 'array', items: domainRole },
    enabled: { type: 'boolean' },
    redirect_uri: {
      type: 'string',
      description: "The URL to register at the provider as the client's redirect URI.",
    },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const;

const settingsExample = {
  account_id: EXAMPLE.accountId,
  name: 'Acme',
  issuer: 'https://id.example.com/realms/acme',
  client_id: 'feature-console',
  client_secret: '(set)',
  groups_claim: 'groups',
  group_roles: [
    { group: 'feature-admins', role: 'admin' },
    { group: 'marketing', role: 'editor' },
  ],
  domain_roles: [{ domain: 'example.com', role: 'viewer' }],
  enabled: true,
  redirect_uri: 'https://feature.example.com/admin/sso/callback',
  created_at: EXAMPLE.time,
  updated_at: EXAMPLE.time,
};

const noAccount = (method: string) =>
  errorResponse(
    'No account has this id, or (GET, DELETE) it has no single sign-on settings.',
    errorAnswer(errors.notFound(method, 'account nope')),
    errorAnswer(errors.noSsoSettings(EXAMPLE.accountId)),
  );

/** The single sign-on routes' options, by route. */
export const ssoRoutes = {
  readSettings: operatorRoute({
    summary: "Read an account's single sign-on settings",
    description:
      'The OpenID provider people of this account sign in with, and how their groups and email domains map to roles. The client secret is never answered: `"(set)"`.',
    params: pathParameters('accountId'),
    response: { 200: answer('The settings.', settingsSchema, settingsExample), 404: noAccount('GET') },
  }),
  putSettings: operatorRoute({
    summary: "Set an account's single sign-on",
    description:
      'Creates or replaces the settings. The issuer is discovered (`/.well-known/openid-configuration`) before they are saved: an issuer that cannot be discovered is refused with a 400 naming what failed. Leave `client_secret` out to keep the stored one (a first save needs it). Roles: the highest role among the groups and the email domain that match wins; a person who matches none is refused at sign-in.',
    params: pathParameters('accountId'),
    consumes: ['application/json'],
    body: {
      type: 'object',
      required: ['name', 'issuer', 'client_id'],
      additionalProperties: false,
      properties: {
        name: { ...NAME, description: 'What the console\'s button says: "Sign in with <name>".' },
        issuer: {
          type: 'string',
          minLength: 1,
          maxLength: 2048,
          'x-storable': true,
          description:
            "The provider's issuer URL, exactly as its discovery document says (https; http only on a loopback host).",
        },
        client_id: { type: 'string', minLength: 1, maxLength: 255, 'x-storable': true },
        client_secret: {
          type: 'string',
          minLength: 1,
          maxLength: 1024,
          'x-storable': true,
          description: 'Write-only; absent keeps the stored one.',
        },
        groups_claim: {
          type: 'string',
          minLength: 1,
          maxLength: 100,
          pattern: '^[A-Za-z0-9_:./-]+$',
          'x-rule': 'must be a claim name of letters, digits and _ : . / - (default groups)',
          description: 'The ID token claim that holds the groups (default `groups`).',
        },
        group_roles: { type: 'array', maxItems: 100, items: groupRole },
        domain_roles: { type: 'array', maxItems: 100, items: domainRole },
        enabled: { type: 'boolean', description: 'Default true.' },
      },
      examples: [
        {
          name: 'Acme',
          issuer: 'https://id.example.com/realms/acme',
          client_id: 'feature-console',
          client_secret: 'the-client-secret-from-the-provider',
          group_roles: [{ group: 'feature-admins', role: 'admin' }],
          domain_roles: [{ domain: 'example.com', role: 'viewer' }],
        },
      ],
    },
    response: {
      200: answer('The settings, saved.', settingsSchema, settingsExample),
      400: errorResponse(
        'A field is wrong, named by its path; or the issuer could not be discovered; or a first save without a client secret.',
        errorAnswer(
          errors.ssoIssuerUndiscoverable('https://id.example.com/realms/acme', 'connect ECONNREFUSED'),
        ),
        errorAnswer(errors.ssoSecretRequired()),
      ),
      404: noAccount('PUT'),
    },
  }),
  deleteSettings: operatorRoute({
    summary: "Remove an account's single sign-on",
    description: 'Its people sign in with their email and password again; sessions already open stay open.',
    params: pathParameters('accountId'),
    response: { 204: noContentResponse('Removed.'), 404: noAccount('DELETE') },
  }),
  listOffers: withSchema({
    tags: ['operator'],
    summary: 'Accounts that offer single sign-on',
    description:
      "For the console's sign-in screen: each account whose single sign-on is on, by name, and the page that starts it (a browser navigation to the provider). No credentials needed.",
    security: security.none,
    response: {
      200: {
        type: 'object',
        required: ['items'],
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              required: ['account_id', 'name', 'start_path'],
              properties: {
                account_id: { type: 'string' },
                name: { type: 'string' },
                start_path: { type: 'string' },
              },
            },
          },
        },
        description: 'The offers, by name.',
        headers: { 'Cache-Control': { type: 'string', description: '`no-store`' } },
        examples: [
          {
            items: [
              {
                account_id: EXAMPLE.accountId,
                name: 'Acme',
                start_path: `/admin/sso/${EXAMPLE.accountId}/start`,
              },
            ],
          },
        ],
      },
      500: internalErrorResponse,
    },
  }),
} as const;
