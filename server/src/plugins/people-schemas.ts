// Schemas shared by people's routes (issue 36): the console's sign-in with an email and password, the
// invitation and reset screens' routes (console-schemas.ts), and the user routes of an account
// (user-schemas.ts). Requests checked, answers serialized, and the OpenAPI document built from them.
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, PASSWORD_RULE } from '../auth/passwords.js';
import { ROLES } from '../store/user-store.js';

/** What an email must look like: one `@`, no spaces, at most 254 characters (RFC 5321's path limit). */
export const EMAIL_RULE = 'must be an email address (name@domain, no spaces), at most 254 characters';

/** An email in a request body. */
export const EMAIL = {
  type: 'string',
  minLength: 3,
  maxLength: 254,
  pattern: '^[^\\s@]+@[^\\s@]+$',
  'x-storable': true,
  'x-rule': EMAIL_RULE,
  examples: ['ada@example.com'],
} as const;

/** A new password (an invitation accepted, a reset): the length rule, said in the refusal. */
export const NEW_PASSWORD = {
  type: 'string',
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: MAX_PASSWORD_LENGTH,
  'x-rule': PASSWORD_RULE,
  description: `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters. Long beats complicated: a sentence works.`,
} as const;

/** A password at sign-in: not checked against today's rule, so that one set under another still signs in. */
export const PASSWORD = { type: 'string', minLength: 1, maxLength: MAX_PASSWORD_LENGTH } as const;

/** A person's display name. */
export const PERSON_NAME = {
  type: 'string',
  maxLength: 100,
  'x-storable': true,
  'x-rule': 'must be a string of at most 100 characters',
} as const;

/** A role. */
export const ROLE = {
  type: 'string',
  enum: ROLES,
  description:
    '`admin`: people, accesses, API keys, settings and all below; `editor`: campaigns, panic, import; `viewer`: reads campaigns, reports and live traffic.',
} as const;

/** Who a console session is: null for the operator key's, else the person and the role in each account. */
export const SESSION_USER = {
  type: ['object', 'null'],
  required: ['id', 'email', 'name', 'accounts'],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    accounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['account_id', 'role'],
        properties: { account_id: { type: 'string' }, role: ROLE },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
  description:
    'Who signed in: null with the operator key, else the person and the role in each of their accounts.',
} as const;
