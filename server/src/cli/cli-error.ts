// The CLI's own refusals, each with a stable code for `--json` (PROTOCOL.md §13.9: `{"error":{"code",
// "message"}}`), and how any error becomes that object and an exit code.
import { IdConflictError, InputError, unknownEnvironmentInput } from '../errors.js';
import { DataDirBusyError } from '../store/data-dir-lock.js';

/** A refusal of the CLI: `code` is stable (snake_case), the message says what to change. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** What the CLI prints for an error: its code and message, and whether it is the user's to fix. */
export interface CliFailure {
  code: string;
  message: string;
  /** False for an unexpected error (a bug, or a broken store): exit code 1 instead of 2. */
  known: boolean;
}

/** Classifies an error thrown by a command. */
export const describeFailure = (error: unknown): CliFailure => {
  if (error instanceof CliError) return { code: error.code, message: error.message, known: true };
  if (error instanceof DataDirBusyError)
    return { code: 'data_dir_busy', message: error.message, known: true };
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

/** An environment id that names no environment. */
export const unknownEnvironment = (envId: string): CliError =>
  new CliError('unknown_environment', unknownEnvironmentInput(envId).message);

/** An access id that names no access. */
export const unknownAccess = (accessId: string): CliError =>
  new CliError(
    'unknown_access',
    `No access has the id "${short(accessId)}": list them with \`feature-server access list --account A\`.`,
  );

/** A campaign id (or slug) that names no campaign of the environment. */
export const unknownCampaign = (envId: string, campaign: string): CliError =>
  new CliError(
    'unknown_campaign',
    `No campaign "${short(campaign)}" in environment ${short(envId)}: list them with \`feature-server campaign list --env ${short(envId)}\`.`,
  );
