// Schema of the invitation screen route (plugins/invitation-screen.ts): which screen an invitation link opens.
// The token travels in the POST body, never in a URL (URLs end up in logs).
import { errors } from '../errors.js';
import {
  errorAnswer,
  errorResponse,
  internalErrorResponse,
  security,
  withSchema,
  type SchemaRoute,
} from './shared-schemas.js';

/** The invitation screen route's options. */
export const invitationScreenSchema: SchemaRoute = withSchema({
  tags: ['operator'],
  summary: 'Read which screen an invitation link opens',
  description:
    'Which screen the invitation link `/admin/#invite=…` (7 days) opens: `choose_password` for a person with no user here yet (then `POST /admin/session/invitation`), `join` for a person who already has one (they sign in as themselves, then answer with `POST /admin/v1/console/join`). The link itself never says which, so the admin who made it does not learn whether the email had a user; whoever holds the link learns it here, so a link is for its person only. No session needed (a new person has none); nothing changes. Only requests from this site are read.',
  security: security.none,
  consumes: ['application/json'],
  body: {
    type: 'object',
    required: ['token'],
    additionalProperties: false,
    properties: {
      token: {
        type: 'string',
        minLength: 1,
        maxLength: 512,
        'x-storable': true,
        description: 'The token after `#invite=`.',
      },
    },
    examples: [{ token: 'fci_T25lIHRpbWUgbGluayBleGFtcGxlIHRva2VuIGhlcmUu' }],
  },
  response: {
    200: {
      description: 'The screen the link opens.',
      type: 'object',
      required: ['screen'],
      properties: { screen: { type: 'string', enum: ['choose_password', 'join'] } },
      additionalProperties: false,
      examples: [{ screen: 'choose_password' }, { screen: 'join' }],
    },
    403: errorResponse(
      'The browser marks the request `Sec-Fetch-Site: cross-site`: a page of another site.',
      errorAnswer(errors.crossSiteSignIn()),
    ),
    404: errorResponse(
      'A link this server never made, or one whose invitation was revoked or answered otherwise.',
      errorAnswer(errors.spentUserLink('invitation', 'unknown')),
    ),
    410: errorResponse(
      'A link already used, or expired: ask the admin for a new invitation.',
      errorAnswer(errors.spentUserLink('invitation', 'used')),
      errorAnswer(errors.spentUserLink('invitation', 'expired')),
    ),
    500: internalErrorResponse,
  },
});
