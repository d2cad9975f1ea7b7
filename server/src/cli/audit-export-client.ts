// `audit export` through a running server (operator-client.ts): the export route's JSON lines, streamed to
// `write` as they come, so a long log never sits whole in the CLI's memory.
import type { LocalOperator } from '../local-operator.js';
import { CliError, unknownAccount } from './cli-error.js';

/** Reads the export route of the server at `operator.url`; how many lines it wrote. */
export const exportThroughServer = async (
  operator: LocalOperator,
  accountId: string,
  sinceMs: number | null,
  write: (text: string) => Promise<void>,
): Promise<number> => {
  const since = sinceMs === null ? '' : `?from=${encodeURIComponent(new Date(sinceMs).toISOString())}`;
  const path = `/admin/v1/accounts/${encodeURIComponent(accountId)}/audit/export${since}`;
  let response: Response;
  try {
    // No overall timeout: a long export streams for as long as it takes; the connection failing ends it.
    response = await fetch(`${operator.url}${path}`, {
      headers: { authorization: `Bearer ${operator.key}` },
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new CliError(
      'server_unreachable',
      `The running server at ${operator.url} did not answer (${why}): check that it still runs, then run the command again.`,
    );
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw unknownAccount(accountId);
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new CliError(
      'server_error',
      `The running server at ${operator.url} answered ${response.status} to GET ${path}.`,
    );
  }
  const decoder = new TextDecoder();
  let lines = 0;
  for await (const chunk of response.body) {
    const text = decoder.decode(chunk, { stream: true });
    lines += text.split('\n').length - 1;
    await write(text);
  }
  const rest = decoder.decode();
  if (rest !== '') await write(rest);
  return lines;
};
