// Creating an access (PROTOCOL.md §13.1): shared by the operator route and the CLI, so both refuse the same
// inputs with the same messages. The client secret exists only in the return value: the store keeps its
// digest.
import { ACTIONS, type Action } from 'feature-ts/protocol';
import { InputError } from '../errors.js';
import { STORABLE_TEXT_RULE, isStorableText } from '../validation/storable-text.js';
import { digest } from '../ids.js';
import type { AccessRecord, AccessStore } from '../store/access-store.js';
import type { AccountStore } from '../store/account-store.js';
import { newClientId, newClientSecret } from './credentials.js';

/** What an access is made from, as a caller gives it (checked here). */
export interface AccessInput {
  accountId: string;
  name: unknown;
  actions: unknown;
  /** Environment ids; absent or empty: every environment of the account, later ones included. */
  environments?: unknown;
}

/** A field's refusal: `field` names it for the HTTP answer, the message says what to change. */
export class AccessInputError extends InputError {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'AccessInputError';
  }
}

/** Creates an access; returns it with its client secret, shown this once. */
export const createAccess = async (
  store: AccessStore & AccountStore,
  input: AccessInput,
): Promise<{ access: AccessRecord; clientSecret: string }> => {
  if ((await store.getAccount(input.accountId)) === null)
    throw new AccessInputError('account', `no account has the id "${input.accountId.slice(0, 64)}"`);
  const { name, actions, environments = [] } = input;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100)
    throw new AccessInputError('name', 'must be a string of 1 to 100 characters');
  if (!isStorableText(name)) throw new AccessInputError('name', STORABLE_TEXT_RULE);
  if (
    !Array.isArray(actions) ||
    actions.length === 0 ||
    !actions.every((a): a is Action => typeof a === 'string' && (ACTIONS as readonly string[]).includes(a))
  )
    throw new AccessInputError('actions', `must be a non-empty list of ${ACTIONS.join(', ')}`);
  if (!Array.isArray(environments) || !environments.every((e): e is string => typeof e === 'string'))
    throw new AccessInputError('environments', 'must be a list of environment ids (empty: all of them)');
  const known = new Set((await store.listEnvironments(input.accountId)).map((e) => e.id));
  const unknown = environments.find((id) => !known.has(id));
  if (unknown !== undefined)
    throw new AccessInputError(
      'environments',
      `"${unknown.slice(0, 64)}" is not an environment of this account`,
    );
  const clientSecret = newClientSecret();
  const access = await store.createAccess({
    accountId: input.accountId,
    name: name.trim(),
    environments: [...new Set(environments)],
    actions: ACTIONS.filter((a) => actions.includes(a)),
    clientId: newClientId(),
    secretDigest: digest(clientSecret),
  });
  return { access, clientSecret };
};
