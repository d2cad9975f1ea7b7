// `feature-server console`: a one-time sign-in link to the browser console of a running server. Sessions and
// links live in the server's memory (console-sessions.ts), so the link is asked of the server itself: on the
// embedded store through the credential the server left in its data folder, elsewhere at `--url` with
// FEATURE_OPERATOR_KEY.
import { isJsonObject } from 'feature-ts/protocol';
import { readLocalOperator, type LocalOperator } from '../local-operator.js';
import { CliError } from './cli-error.js';
import type { CommandContext } from './context.js';

const NOT_RUNNING =
  'The console signs in on a running server: start it (`npm start`, or `feature-server serve`) and run this ' +
  'again. For a server elsewhere (PostgreSQL, another machine), pass --url http://HOST:PORT with ' +
  'FEATURE_OPERATOR_KEY set to its operator key.';

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

/** `console`: prints a sign-in link (one use, 15 minutes) to the running server's console. */
export const consoleCommand = async (context: CommandContext): Promise<void> => {
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
