// The CLI's own refusals, each with a stable code for `--json` (PROTOCOL.md §13.9: `{"error":{"code",
// "message"}}`, plus `details` naming the fields of a refused campaign as the HTTP API does, §2.4), and how
// any error becomes that object and an exit code.
import type { ErrorDetail } from 'feature-ts/protocol';
import { IdConflictError, InputError, unknownEnvironmentInput } from '../errors.js';
import { DataDirBusyError } from '../store/pglite/data-dir-lock.js';
import { DataDirOwnerError } from '../store/pglite/data-dir-modes.js';

/** A refusal of the CLI: `code` is stable (snake_case), the message says what to change. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The fields at fault, by their path in the JSON the command was given. */
    readonly details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** What the CLI prints for an error: its code and message, and whether it is the user's to fix. */
export interface CliFailure {
  code: string;
  message: string;
  /** The fields at fault, when the error names some. */
  details?: readonly ErrorDetail[];
  /** False for an unexpected error (a bug, or a broken store): exit code 1 instead of 2. */
  known: boolean;
}

/** Classifies an error thrown by a command. */
export const describeFailure = (error: unknown): CliFailure => {
  if (error instanceof CliError)
    return {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
      known: true,
    };
  if (error instanceof DataDirBusyError)
    return { code: 'data_dir_busy', message: error.message, known: true };
  if (error instanceof DataDirOwnerError)
    return { code: 'data_dir_owner', message: error.message, known: true };
  if (error instanceof IdConflictError) return { code: 'conflict', message: error.message, known: true };
  if (error instanceof InputError) return { code: 'invalid_input', message: error.message, known: true };
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'internal', message: `Unexpected error: ${message}`, known: false };
};

const short = (id: string): string => id.slice(0, 64);

/** An account id that names no account. */
export const unknownAccount = (accountId: string): CliError =>
  new CliError(
    'unknown_account',
    `No account has the id "${short(accountId)}": list them with \`feature-server account list\`.`,
  );

/** A user id or email that names no member of the account. */
export const unknownUser = (accountId: string, user: string): CliError =>
  new CliError(
    'unknown_user',
    `Account "${short(accountId)}" has no member "${short(user)}": list them with \`feature-server user list --account ${short(accountId)}\`.`,
  );

/** An environment id that names no environment. */
export const unknownEnvironment = (envId: string): CliError =>
  new CliError('unknown_environment', unknownEnvironmentInput(envId).message);

/** An access id that names no access. */
export const unknownAccess = (accessId: string): CliError =>
  new CliError(
    'unknown_access',
    `No access has the id "${short(accessId)}": list them with \`feature-server access list --account A\`.`,
  );

/**
 * A refused campaign body (PROTOCOL.md §13.5), named by the field's path: the same message, code and details
 * whether the command went to the store or through a server (whose 400 says `path: reason`).
 */
export const invalidCampaignField = (path: string, reason: string): CliError =>
  new CliError('invalid_input', `${path}: ${reason}`, [{ path, message: reason }]);

/** A campaign id (or slug) that names no campaign of the environment. */
export const unknownCampaign = (envId: string, campaign: string): CliError =>
  new CliError(
    'unknown_campaign',
    `No campaign "${short(campaign)}" in environment ${short(envId)}: list them with \`feature-server campaign list --env ${short(envId)}\`.`,
  );
