// One hit of the hit routes (PROTOCOL.md §5.1), by its type `t`: one schema per type, so the OpenAPI document
// says which keys each type needs. The hit routes check each hit of a batch against it on its own
// (validation/hit.ts), so a bad one is rejected by index and the others are stored.
import { EVENT_CATEGORIES, HIT_LIMITS } from 'feature-ts/protocol';
import { STORABLE_TEXT_NOTE, queueTimeSchema } from './activation-schemas.js';

const text = (description: string, max: number = HIT_LIMITS.maxStringLength) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength: max,
    description: `${description} ${STORABLE_TEXT_NOTE}`,
  }) as const;
const amount = (description: string) =>
  ({ type: 'number', minimum: 0, maximum: HIT_LIMITS.maxAmount, description }) as const;
const count = (description: string) =>
  ({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description }) as const;

const commonProperties = {
  vid: text('The anonymous id when authenticated, else the visitor id (the reverse of activations).', 256),
  cuid: {
    type: ['string', 'null'],
    minLength: 1,
    maxLength: 256,
    description: `The authenticated id, else null. ${STORABLE_TEXT_NOTE}`,
  },
  qt: queueTimeSchema,
  hid: text('Idempotency id (our SDK: a UUID v4): a second arrival counts as a duplicate (§5.4).', 128),
  uip: text('User IP.'),
  sr: text('Screen resolution.'),
  ul: text('User language.'),
  sn: {
    'x-rule': 'must be an integer ≥ 0, or a string of its digits',
    description:
      "Session number: an integer, or a string of its digits (the platform's SDK sends text), stored as the integer.",
    oneOf: [
      { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      { type: 'string', pattern: '^[0-9]{1,16}$' },
    ],
  },
  cid: { type: 'string', description: "May repeat the batch's cid; a different one rejects the hit." },
  ds: { type: 'string', description: 'Data source, "APP"; not read.' },
} as const;

const hitOf = (t: string, description: string, required: readonly string[], properties: object) => ({
  title: t,
  description,
  type: 'object',
  required: ['t', 'vid', ...required],
  properties: { t: { const: t }, ...commonProperties, ...properties },
});

/**
 * One hit, by its type `t`. The hit routes check each hit against it on its own (`x-per-item`), so a bad one
 * is rejected by index and the others are stored; every key and text it holds must be storable.
 */
export const hitSchema = {
  title: 'Hit',
  type: 'object',
  required: ['t'],
  discriminator: { propertyName: 't' },
  'x-storable-keys': true,
  oneOf: [
    hitOf('SCREENVIEW', 'A screen view.', ['dl'], {
      dl: text('The screen name.', HIT_LIMITS.maxLocationLength),
    }),
    hitOf('PAGEVIEW', 'A page view.', ['dl'], {
      dl: text(
        "An absolute http: or https: URL, or a path starting with / (the platform's SDK sends one).",
        HIT_LIMITS.maxLocationLength,
      ),
    }),
    hitOf('TRANSACTION', 'A transaction: a goal named by its affiliation.', ['tid', 'ta'], {
      tid: text('Transaction id.'),
      ta: text('Affiliation: the goal name in reports.'),
      tr: amount('Revenue.'),
      ts: amount('Shipping.'),
      tt: amount('Tax.'),
      tc: {
        type: 'string',
        pattern: '^[A-Za-z]{3}$',
        'x-rule': 'must be a 3-letter ISO 4217 code',
        description: 'Currency, ISO 4217.',
      },
      sm: text('Shipping method.'),
      pm: text('Payment method.'),
      tcc: text('Coupon code.'),
      icn: count('Item count.'),
    }),
    hitOf('ITEM', 'An item of a transaction.', ['tid', 'in', 'ic'], {
      tid: text('Transaction id.'),
      in: text('Name.'),
      ic: text('Code (SKU).'),
      ip: amount('Price.'),
      iv: text('Category.'),
      iq: count('Quantity.'),
    }),
    hitOf(
      'EVENT',
      'An event: a goal named by its action (actions starting with fs_ never are).',
      ['ec', 'ea'],
      {
        ec: { type: 'string', enum: EVENT_CATEGORIES },
        ea: text('Action: the goal name in reports.'),
        el: text('Label.'),
        ev: count('Value.'),
      },
    ),
    hitOf('SEGMENT', 'The visitor context, stored with string values.', ['s'], {
      s: {
        type: 'object',
        additionalProperties: { type: ['string', 'number', 'boolean'] },
        description: `Keys and string values: ${STORABLE_TEXT_NOTE}`,
      },
    }),
  ],
} as const;
