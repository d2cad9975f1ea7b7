// Why a single sign-on was refused (issue 36), each with a status and a sentence that says what to do. The
// browser is in the middle of a navigation when a sign-in fails, so these become a small page
// (sso-page.ts), never a JSON body; nothing is opened by a refused sign-in.
import { providerErrorText } from './sso-providers.js';

/** The reasons a sign-in is refused. */
export type SsoRefusalReason =
  | 'sso_off'
  | 'not_started'
  | 'provider_error'
  | 'provider_unreachable'
  | 'state_mismatch'
  | 'code_refused'
  | 'id_token_refused'
  | 'email_unverified'
  | 'no_role'
  | 'other_accounts';

/** A refused sign-in: the page's status, its reason (for logs and tests) and what to tell the person. */
export class SsoRefusal extends Error {
  readonly status: number;
  readonly reason: SsoRefusalReason;

  constructor(status: number, reason: SsoRefusalReason, message: string) {
    super(message);
    this.name = 'SsoRefusal';
    this.status = status;
    this.reason = reason;
  }
}

/** Builders of every refusal. */
export const refusals = {
  ssoOff: () =>
    new SsoRefusal(
      404,
      'sso_off',
      'This account has no single sign-on, or it is turned off: sign in with your email and password, or ask an admin of the account to turn it on.',
    ),
  notStarted: () =>
    new SsoRefusal(
      400,
      'not_started',
      "This sign-in was not started in this browser, was already used, or took more than 10 minutes: start again from the console's sign-in page.",
    ),
  providerError: (error: string, description: string | null) =>
    new SsoRefusal(
      403,
      'provider_error',
      `The provider did not sign you in (${error.slice(0, 100)}${description === null ? '' : `: ${description.slice(0, 300)}`}): start again, or ask the provider's administrator.`,
    ),
  providerUnreachable: (error: unknown) =>
    new SsoRefusal(
      502,
      'provider_unreachable',
      `The provider could not be reached (${providerErrorText(error).slice(0, 300)}): try again in a moment, or ask an admin to check the account's single sign-on issuer.`,
    ),
  stateMismatch: () =>
    new SsoRefusal(
      400,
      'state_mismatch',
      "The provider's answer does not belong to the sign-in this browser started (its state differs): start again from the console's sign-in page.",
    ),
  codeRefused: (error: unknown) =>
    new SsoRefusal(
      400,
      'code_refused',
      `The provider refused to exchange the sign-in code (${providerErrorText(error).slice(0, 300)}): a code works once and for a short while; start again.`,
    ),
  idTokenRefused: (error: unknown) =>
    new SsoRefusal(
      400,
      'id_token_refused',
      `The provider's ID token failed a check (${providerErrorText(error).slice(0, 300)}). If it says the token expired, check the clocks of this server and of the provider; otherwise ask an admin to check the account's issuer and client id.`,
    ),
  emailUnverified: () =>
    new SsoRefusal(
      403,
      'email_unverified',
      'The provider does not vouch for your email address (no email, or email_verified is not true): verify it at the provider, or ask its administrator to send the email and email_verified claims.',
    ),
  noRole: (email: string, account: string) =>
    new SsoRefusal(
      403,
      'no_role',
      `${email.slice(0, 200)} is in none of the groups and email domains that "${account.slice(0, 100)}" maps to a role: ask an admin of the account to map one of your groups or your email domain.`,
    ),
  otherAccounts: (email: string) =>
    new SsoRefusal(
      403,
      'other_accounts',
      `${email.slice(0, 200)} also belongs to an account that does not sign in through this provider: sign in with your email and password instead (a provider can only open the accounts that use it).`,
    ),
} as const;

/** The refusal of an error thrown by openid-client while finishing a sign-in. */
export const refusalOfProviderError = (error: unknown): SsoRefusal => {
  if (error instanceof SsoRefusal) return error;
  const coded = error as { code?: unknown; error?: unknown; cause?: unknown; name?: unknown };
  const detail = providerErrorText(error);
  // The provider sent the browser back with an error instead of a code.
  if (coded.name === 'AuthorizationResponseError' && typeof coded.error === 'string') {
    const description = (error as { error_description?: unknown }).error_description;
    return refusals.providerError(coded.error, typeof description === 'string' ? description : null);
  }
  if (coded.code === 'OAUTH_INVALID_RESPONSE' && detail.includes('"state"')) return refusals.stateMismatch();
  // The token endpoint answered an OAuth error (invalid_grant: a used, expired or foreign code).
  if (coded.name === 'ResponseBodyError') return refusals.codeRefused(error);
  if (typeof coded.code === 'string' && coded.code.startsWith('OAUTH_JWT'))
    return refusals.idTokenRefused(error);
  if (typeof coded.code === 'string' && /SIGNATURE|JWS|JWK|ID_TOKEN/i.test(coded.code + detail))
    return refusals.idTokenRefused(error);
  if (error instanceof TypeError || coded.code === 'OAUTH_TIMEOUT' || coded.name === 'AbortError')
    return refusals.providerUnreachable(error);
  return refusals.idTokenRefused(error);
};
