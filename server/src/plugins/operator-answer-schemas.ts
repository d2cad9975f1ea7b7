// What the operator routes answer (PROTOCOL.md §13.1, §13.8): accounts, environments and accesses as JSON
// Schemas with an example each, typed by the functions that build the answers. An environment's API key and
// an access's client secret are in the answer that makes them, and in no other.
import { ACTIONS } from 'feature-ts/protocol';
import { accountSettingsSchema } from './bucketing-schemas.js';
import type { accessAnswer, accountAnswer, environmentAnswer } from '../services/operator-answers.js';
import { EXAMPLE } from './shared-schemas.js';

const TIME = { type: 'string', format: 'date-time' } as const;

/** An account. */
export const accountSchema = {
  type: 'object',
  required: ['id', 'name', 'created_at'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, created_at: TIME },
} as const;

/** The account the examples show. */
export const accountExample = {
  id: EXAMPLE.accountId,
  name: 'Shop',
  created_at: EXAMPLE.time,
} satisfies ReturnType<typeof accountAnswer>;

const environmentProperties = {
  id: { type: 'string' },
  account_id: { type: 'string' },
  name: { type: 'string' },
  panic: { type: 'boolean' },
  settings: accountSettingsSchema,
} as const;
const environmentRequired = ['id', 'account_id', 'name', 'panic', 'settings'] as const;

/** An environment, without its API key. */
export const environmentSchema = {
  type: 'object',
  required: environmentRequired,
  properties: environmentProperties,
} as const;

/** An environment as created: with its API key, shown this once. */
export const environmentWithKeySchema = {
  type: 'object',
  required: [...environmentRequired, 'api_key'],
  properties: {
    ...environmentProperties,
    api_key: {
      type: 'string',
      description: 'The x-api-key of the SDK routes. Keep it: it is not shown again.',
    },
  },
} as const;

/** The environment the examples show. */
export const environmentExample = {
  id: EXAMPLE.envId,
  account_id: EXAMPLE.accountId,
  name: 'production',
  panic: false,
  settings: { enabledXPC: true, enabled1V1T: false },
} satisfies ReturnType<typeof environmentAnswer>;

const accessProperties = {
  id: { type: 'string' },
  account_id: { type: 'string' },
  name: { type: 'string' },
  environments: { type: 'array', items: { type: 'string' }, description: 'Empty: every environment.' },
  actions: { type: 'array', items: { type: 'string', enum: ACTIONS } },
  client_id: { type: 'string' },
  created_at: TIME,
  revoked_at: { type: ['string', 'null'], format: 'date-time' },
} as const;
const accessRequired = [
  'id',
  'account_id',
  'name',
  'environments',
  'actions',
  'client_id',
  'created_at',
  'revoked_at',
] as const;

/** An access, without its client secret. */
export const accessSchema = {
  type: 'object',
  required: accessRequired,
  properties: accessProperties,
} as const;

/** An access as created: with its client secret, shown this once (the server keeps its digest). */
export const accessWithSecretSchema = {
  type: 'object',
  required: [...accessRequired, 'client_secret'],
  properties: {
    ...accessProperties,
    client_secret: { type: 'string', description: 'Keep it: it is not shown again.' },
  },
} as const;

/** The access the examples show. */
export const accessExample = {
  id: EXAMPLE.accessId,
  account_id: EXAMPLE.accountId,
  name: 'CI toggler',
  environments: [EXAMPLE.envId],
  actions: ['campaign.toggle', 'report.read'],
  client_id: EXAMPLE.clientId,
  created_at: EXAMPLE.time,
  revoked_at: null,
} satisfies ReturnType<typeof accessAnswer>;
