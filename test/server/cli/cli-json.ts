// Runs a `feature-server` command with --json and checks the promise of §13.9: stdout is exactly one JSON
// object, whatever the outcome, and the exit code says whether it succeeded. The command runs in the test's
// process (runCliInProcess): what is checked is the command's output, not the process around it.
import assert from 'node:assert/strict';
import { runCliCommand, runCliInProcess } from '../cli-support.js';

/** A command's JSON object, with its stdout and stderr as non-enumerable extras (deepEqual ignores them). */
export type CliJson = Record<string, unknown> & { readonly stdout: string; readonly stderr: string };

/**
 * Runs `args` (with --json unless `json` is false) and asserts the exit code (`code`, default 0) and, with
 * --json, that stdout is one JSON object on one line. `spawn` runs it in a child process, for a test about
 * the process (another process's hold on a folder).
 */
export const cliJson = async (
  args: string[],
  env: Record<string, string>,
  options: { code?: number; json?: boolean; spawn?: boolean } = {},
): Promise<CliJson> => {
  const json = options.json ?? true;
  const run = await (options.spawn === true ? runCliCommand : runCliInProcess)(
    json ? [...args, '--json'] : args,
    env,
  );
  const expected = options.code ?? 0;
  assert.equal(run.code, expected, `${args.join(' ')}: exit ${String(run.code)}\n${run.stderr}`);
  let value: Record<string, unknown> = {};
  if (json) {
    assert.match(run.stdout, /^\{.*\}\n$/, `${args.join(' ')}: one JSON line on stdout`);
    value = JSON.parse(run.stdout) as Record<string, unknown>;
    assert.equal(expected === 0, !('error' in value), `${args.join(' ')}: ${run.stdout}`);
  }
  Object.defineProperty(value, 'stdout', { value: run.stdout, enumerable: false });
  Object.defineProperty(value, 'stderr', { value: run.stderr, enumerable: false });
  return value as CliJson;
};
