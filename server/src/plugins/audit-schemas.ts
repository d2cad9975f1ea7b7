// Schemas of the audit routes (issue 36, docs/teams.md "Audit log"): operator routes over an account's log,
// its JSON-lines export, and one campaign's history with restore.
import { errors } from '../errors.js';
import { remoteCampaignExample, remoteCampaignSchema } from '../remote/campaign-schemas.js';
import { AUDIT_SUBJECT_KINDS } from '../store/audit-store.js';
import { answer, operatorRoute } from './operator-route-schemas.js';
import { EXAMPLE, errorAnswer, errorResponse, pathParameters } from './shared-schemas.js';

/** The most entries one page answers. */
export const AUDIT_PAGE_MAX = 200;

const ACTOR_KINDS = ['user', 'access', 'operator_key', 'cli', 'system', 'anonymous'] as const;
const ANY_JSON = { description: 'Any JSON value.' } as const;
const TEXT = (description: string, example: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength: 200,
    'x-storable': true,
    description,
    examples: [example],
  }) as const;
const TIME = (description: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength: 40,
    description,
    examples: [EXAMPLE.time],
    'x-rule': 'must be an ISO 8601 time such as 2026-11-22T10:00:00Z',
  }) as const;
const SEQ = {
  type: 'integer',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'An entry seq: only entries before it (older).',
} as const;

const filters = {
  actor_kind: { type: 'string', enum: ACTOR_KINDS, description: 'Only changes by this kind of caller.' },
  actor_id: TEXT(
    "Only changes by this caller: a user id, an access's client id, an operator key's fingerprint.",
    EXAMPLE.clientId,
  ),
  subject_kind: {
    type: 'string',
    enum: AUDIT_SUBJECT_KINDS,
    description: 'Only changes of this kind of subject.',
  },
  subject_id: TEXT('Only changes of this subject (with subject_kind).', EXAMPLE.campaignId),
  action: {
    type: 'string',
    minLength: 1,
    maxLength: 100,
    pattern: '^[a-z0-9_.]+$',
    description: 'Only this action.',
    examples: ['campaign.updated'],
    'x-rule': 'must be an action name such as campaign.updated',
  },
  env_id: TEXT('Only changes in this environment.', EXAMPLE.envId),
  from: TIME('Only changes at or after this time.'),
  to: TIME('Only changes before this time.'),
} as const;

const pageParameters = {
  before_seq: SEQ,
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: AUDIT_PAGE_MAX,
    default: 50,
    description: `At most this many entries (1 to ${AUDIT_PAGE_MAX}).`,
  },
} as const;

const diffLineSchema = {
  type: 'object',
  required: ['path'],
  properties: {
    path: {
      type: 'string',
      description: 'Where in the subject: "" for all of it, `body.variationGroups[0].name`.',
    },
    before: ANY_JSON,
    after: ANY_JSON,
  },
  description: 'One changed value; a side that is absent was not there.',
} as const;

const entrySchema = {
  type: 'object',
  required: [
    'seq',
    'at',
    'actor',
    'account_id',
    'env_id',
    'subject',
    'action',
    'before',
    'after',
    'diff',
    'details',
  ],
  properties: {
    seq: { type: 'integer', description: 'The order of entries: higher is later.' },
    at: { type: 'string', format: 'date-time' },
    actor: {
      type: 'object',
      required: ['kind', 'id', 'label', 'address'],
      properties: {
        kind: { type: 'string', enum: ACTOR_KINDS },
        id: { type: ['string', 'null'] },
        label: {
          type: 'string',
          description: 'What people read: an email, a client id, "operator key 1a2b3c4d", "CLI (alice)".',
        },
        address: {
          type: ['string', 'null'],
          description: "The caller's address; null for the CLI and the server.",
        },
      },
    },
    account_id: { type: ['string', 'null'] },
    env_id: { type: ['string', 'null'] },
    subject: {
      type: 'object',
      required: ['kind', 'id'],
      properties: { kind: { type: 'string', enum: AUDIT_SUBJECT_KINDS }, id: { type: ['string', 'null'] } },
    },
    action: { type: 'string' },
    before: {
      ...ANY_JSON,
      description: 'The whole subject before; null where it did not exist. Secrets are "(set)".',
    },
    after: { ...ANY_JSON, description: 'The whole subject after; null where it no longer exists.' },
    diff: { type: 'array', items: diffLineSchema, description: 'What changed from before to after.' },
    details: {
      type: ['object', 'null'],
      additionalProperties: true,
      description:
        "What the states do not say: an import's count, a restore's source entry, a purge's horizon.",
    },
  },
} as const;

const entryExample = {
  seq: 1042,
  at: EXAMPLE.time,
  actor: { kind: 'access', id: EXAMPLE.clientId, label: EXAMPLE.clientId, address: '203.0.113.7' },
  account_id: EXAMPLE.accountId,
  env_id: EXAMPLE.envId,
  subject: { kind: 'campaign', id: EXAMPLE.campaignId },
  action: 'campaign.state_changed',
  before: { id: 'c1', position: 0, state: 'active', description: '', body: { id: 'c1', name: 'Checkout' } },
  after: { id: 'c1', position: 0, state: 'paused', description: '', body: { id: 'c1', name: 'Checkout' } },
  diff: [{ path: 'state', before: 'active', after: 'paused' }],
  details: null,
};

const pageSchema = {
  type: 'object',
  required: ['items', 'next_before_seq'],
  properties: {
    items: { type: 'array', items: entrySchema },
    next_before_seq: {
      type: ['integer', 'null'],
      description: 'Pass it as before_seq for the next (older) page; null when this page is the last.',
    },
  },
} as const;

const badQuery = errorResponse(
  'A query parameter is wrong, named in the answer.',
  errorAnswer(errors.invalidBody('from', 'must be an ISO 8601 time such as 2026-11-22T10:00:00Z')),
);

const historyParams = {
  type: 'object',
  required: ['envId', 'campaignId'],
  properties: {
    envId: pathParameters('envId').properties.envId,
    campaignId: {
      type: 'string',
      description: "The campaign's id (a deleted campaign's too).",
      examples: ['c1'],
    },
  },
} as const;

/** The audit routes' options, by route. */
export const auditRoutes = {
  accountAudit: operatorRoute({
    summary: "Read an account's audit log",
    description:
      "Every change in the account and its environments, newest first, a page at a time (keyset paging by seq: pass the answer's next_before_seq as before_seq), each with who made it, from where, the subject before and after, and the diff. Filters narrow it.",
    params: pathParameters('accountId'),
    querystring: { type: 'object', properties: { ...filters, ...pageParameters } },
    response: {
      200: answer('The entries, newest first.', pageSchema, { items: [entryExample], next_before_seq: 1042 }),
      400: badQuery,
      404: errorResponse('No account has this id.', errorAnswer(errors.notFound('GET', 'account nope'))),
    },
  }),
  serverAudit: operatorRoute({
    summary: "Read the server's whole audit log",
    description:
      "Every entry of every account, and the entries of no account: refused console sign-ins and the end of every console session. Newest first, paged and filtered as an account's log.",
    querystring: { type: 'object', properties: { ...filters, ...pageParameters } },
    response: {
      200: answer('The entries, newest first.', pageSchema, { items: [entryExample], next_before_seq: 1042 }),
      400: badQuery,
    },
  }),
  exportAudit: operatorRoute({
    summary: "Export an account's audit log",
    description:
      'The entries as JSON lines (one entry per line, as the log route answers each), oldest first, streamed, with the same filters.',
    params: pathParameters('accountId'),
    querystring: { type: 'object', properties: filters },
    response: {
      200: {
        description: 'One entry per line.',
        headers: {
          'Content-Type': { type: 'string', description: '`application/x-ndjson`.' },
          'Cache-Control': { type: 'string', description: '`no-store`.' },
        },
        content: {
          'application/x-ndjson': {
            schema: { type: 'string', examples: [`${JSON.stringify(entryExample)}\n`] },
            examples: { entry: { summary: 'One entry', value: `${JSON.stringify(entryExample)}\n` } },
          },
        },
      },
      400: badQuery,
      404: errorResponse('No account has this id.', errorAnswer(errors.notFound('GET', 'account nope'))),
    },
  }),
  campaignHistory: operatorRoute({
    summary: "Read a campaign's history",
    description:
      "The campaign's entries, newest first (its creation, edits, state changes, deletion, restores, and the imports that changed it, narrowed to this campaign), each with its diff; a page at a time as the audit log.",
    params: historyParams,
    querystring: { type: 'object', properties: pageParameters },
    response: {
      200: answer('The entries, newest first.', pageSchema, { items: [entryExample], next_before_seq: null }),
      404: errorResponse('No environment has this id.', errorAnswer(errors.unknownEnvironment('nope'))),
    },
  }),
  restoreCampaign: operatorRoute({
    summary: 'Restore a campaign as an entry left it',
    description:
      "Puts the campaign back exactly as it was after entry `seq` of its history (body, description, state and position): a new change, logged as campaign.restored with details.restoredFrom. A deleted campaign is not brought back (its id stays taken): create a new one from the entry's `after`.",
    params: {
      ...historyParams,
      required: [...historyParams.required, 'seq'],
      properties: {
        ...historyParams.properties,
        seq: {
          type: 'string',
          pattern: '^[1-9][0-9]{0,14}$',
          description: 'The seq of the entry to restore from.',
          examples: ['1042'],
          'x-rule': 'must be an entry seq (a whole number from 1)',
        },
      },
    },
    response: {
      200: answer(
        'The campaign as restored, as the campaign routes answer it.',
        remoteCampaignSchema,
        remoteCampaignExample,
      ),
      404: errorResponse(
        "No environment, or no entry with this seq in the campaign's history.",
        errorAnswer(errors.notFound('POST', 'history entry 1042 of campaign c1')),
      ),
      409: errorResponse(
        'The entry deleted the campaign, the campaign is deleted or interrupted, or its ids or slug are taken now.',
        errorAnswer(
          errors.conflict(
            'Campaign "c1" is interrupted, which is final: create a new campaign to run it again.',
          ),
        ),
      ),
    },
  }),
} as const;
