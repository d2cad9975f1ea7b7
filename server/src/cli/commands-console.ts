// `feature-server console`: a one-time sign-in link to the browser console of a running server. Sessions and
// links live in the server's memory (console-sessions.ts), so the link is asked of the server itself: on the
// embedded store through the credential the server left in its data folder, elsewhere at `--url` with
// FEATURE_OPERATOR_KEY. A link opens a full operator session, so it is printed only to a person at a
// terminal, or when asked for with --sign-in-link (issue #29: output that is not a terminal is often a log).
import { isJsonObject } from 'feature-ts/protocol';
import { readLocalOperator, type LocalOperator } from '../local-operator.js';
import { CliError } from './cli-error.js';
import type { CommandContext } from './context.js';

const NOT_RUNNING =
  'The console signs in on a running server: start it (`npm start`, or `feature-server serve`) and run this ' +
  'again. For a server elsewhere (PostgreSQL, another machine), pass --url http://HOST:PORT with ' +
  'FEATURE_OPERATOR_KEY set to its operator key.';

/** The flag that prints a sign-in link where stdout is not a terminal. */
export const SIGN_IN_LINK_FLAG = 'sign-in-link';

/**
 * Whether a command may print a console sign-in link: stdout is an interactive terminal (a person reads it),
 * or the command was given --sign-in-link. Anywhere else stdout is usually a log stream or a CI job's output,
 * where the link (a full operator session for 15 minutes) would be anyone's who reads it.
 */
export const signInLinkWanted = (context: CommandContext): boolean =>
  context.args.flags.has(SIGN_IN_LINK_FLAG) || context.io.stdoutIsTerminal;

/** The server to ask: --url with the configured operator key, else the embedded store's running server. */
const serverOf = (context: CommandContext): LocalOperator => {
  const url = context.args.options.get('url');
  if (url !== undefined) {
    if (!/^https?:\/\/[^/\s]+\/?$/.test(url))
      throw new CliError(
        'invalid_input',
        `--url must be the server's base URL, like http://127.0.0.1:8080 (got "${url.slice(0, 80)}").`,
      );
    const key = context.config.operatorKey;
    if (key === null)
      throw new CliError(
        'invalid_input',
        'With --url, set FEATURE_OPERATOR_KEY to the operator key that server was started with.',
      );
    return { url: url.replace(/\/$/, ''), key, pid: 0 };
  }
  const local = readLocalOperator(context.config.dataDir);
  if (local === null) throw new CliError('server_not_running', NOT_RUNNING);
  return local;
};

/**
 * `console`: prints a sign-in link (one use, 15 minutes) to the running server's console, on a terminal or
 * with --sign-in-link; elsewhere it refuses before asking the server for one.
 */
export const consoleCommand = async (context: CommandContext): Promise<void> => {
  if (!signInLinkWanted(context))
    throw new CliError(
      'invalid_input',
      'A console sign-in link opens a full operator session, so it is printed only on a terminal: output ' +
        `elsewhere often ends up in logs. Run this in a terminal, or pass --${SIGN_IN_LINK_FLAG} to print ` +
        'it here anyway.',
    );
  const server = serverOf(context);
  let response: Response;
  try {
    response = await fetch(`${server.url}/admin/v1/console/sign-in-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}` },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new CliError('server_unreachable', `The server at ${server.url} did not answer. ${NOT_RUNNING}`);
  }
  const answer: unknown = await response.json().catch(() => null);
  if (response.status === 401)
    throw new CliError(
      'invalid_token',
      `The server at ${server.url} refused the operator key: check FEATURE_OPERATOR_KEY.`,
    );
  if (!response.ok || !isJsonObject(answer) || typeof answer.path !== 'string')
    throw new CliError(
      'server_error',
      `The server at ${server.url} answered ${response.status} without a link: is its console on (an operator key set)?`,
    );
  const link = `${server.url}${answer.path}`;
  context.print(
    { consoleSignInLink: link, expiresAt: answer.expires_at },
    `Console sign-in link (one use, within 15 minutes):\n${link}`,
  );
};
