// A mistyped command, sub-command or option is named as such, with the nearest known one ("did you mean …?"),
// before any store is opened (PROTOCOL.md §13.9: errors say what to change); with --json the same error is one
// object with a code. What each command takes is read from the help's table (usage.ts), so the help and the
// checks agree.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ANALYSIS_OPTIONS } from '../../../server/src/cli/analysis-options.js';
import { KNOWN_COMMANDS, KNOWN_FLAGS } from '../../../server/src/cli/command-line.js';
import { runCliInProcess } from '../cli-support.js';
import { cliJson } from './cli-json.js';

void describe('feature-server command lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-line-'));
  const dataDir = join(dir, 'data');
  const env = { FEATURE_DATA_DIR: dataDir };
  after(() => rmSync(dir, { recursive: true, force: true }));

  const refused = async (args: string[]): Promise<{ code: string; message: string; stderr: string }> => {
    const run = await cliJson(args, env, { code: 2 });
    const error = run.error as { code: string; message: string };
    // The same message on stderr as in the JSON object; nothing else there, no store named.
    assert.equal(run.stderr, `feature-server: ${error.message}\n`);
    assert.equal(run.store, undefined, 'refused before a store is chosen');
    return { ...error, stderr: run.stderr };
  };

  void it('suggests the command nearest to an unknown one', async () => {
    assert.deepEqual(await refused(['reprot', '--env', 'e1']), {
      code: 'unknown_command',
      message: 'Unknown command "reprot": did you mean "report"? `feature-server --help` lists them.',
      stderr:
        'feature-server: Unknown command "reprot": did you mean "report"? `feature-server --help` lists them.\n',
    });
    assert.equal(
      (await refused(['acount', 'list'])).message,
      'Unknown command "acount": did you mean "account"? `feature-server --help` lists them.',
    );
    // Nothing near: no guess.
    assert.equal(
      (await refused(['frobnicate'])).message,
      'Unknown command "frobnicate": `feature-server --help` lists them.',
    );
    // Without --json: the message on stderr, exit code 2, nothing on stdout.
    const plain = await runCliInProcess(['reprot'], env);
    assert.deepEqual(plain, {
      code: 2,
      stdout: '',
      stderr:
        'feature-server: Unknown command "reprot": did you mean "report"? `feature-server --help` lists them.\n',
    });
  });

  void it('suggests the sub-command nearest to an unknown one, and lists those the command takes', async () => {
    assert.equal(
      (await refused(['access', 'creat', '--account', 'a1', '--name', 'ci', '--actions', 'report.read']))
        .message,
      'Unknown command "access creat": did you mean "access create"? access takes create, list, show or revoke; `feature-server --help` lists them.',
    );
    assert.match(
      (await refused(['campaign', 'lsit', '--env', 'e1'])).message,
      /did you mean "campaign list"\?/,
    );
    assert.match(
      (await refused(['env', 'rotate', '--env', 'e1'])).message,
      /^Unknown command "env rotate": env takes create, list or rotate-key;/,
    );
    assert.match(
      (await refused(['panic', 'of', '--env', 'e1'])).message,
      /did you mean "panic off"\? panic takes on or off;/,
    );
    assert.match(
      (await refused(['console', 'endsessions'])).message,
      /did you mean "console end-sessions"\? console takes end-sessions or nothing more;/,
    );
    const missing = await refused(['account']);
    assert.deepEqual(
      [missing.code, missing.message],
      [
        'unknown_command',
        '"account" needs a sub-command: account takes create or list; `feature-server --help` lists them.',
      ],
    );
  });

  void it('names an unknown option as unknown, with the nearest option of that command, not as a missing one', async () => {
    const evn = await refused(['report', '--evn', 'e1']);
    assert.deepEqual(
      [evn.code, evn.message],
      [
        'unknown_option',
        'Unknown option --evn for `report`: did you mean --env? `feature-server --help` lists them.',
      ],
    );
    assert.doesNotMatch(evn.message, /Missing --env/);
    // Given last, without a value, it is still named as unknown.
    assert.equal(
      (await refused(['campaign', 'list', '--evn'])).message,
      'Unknown option --evn for `campaign list`: did you mean --env? `feature-server --help` lists them.',
    );
    assert.match(
      (await refused(['report', '--env', 'e1', '--campaing', 'c1'])).message,
      /^Unknown option --campaing for `report`: did you mean --campaign\?/,
    );
    assert.match(
      (await refused(['env', 'create', '--account', 'a1', '--name', 'n', '--xcp'])).message,
      /did you mean --xpc\?/,
    );
    assert.match(
      (await refused(['campaign', 'update', 'c1', '--env', 'e1', '--aplha', '0.01'])).message,
      /^Unknown option --aplha for `campaign update`: did you mean --alpha\?/,
    );
    // An option of another command is unknown to this one.
    assert.equal(
      (await refused(['account', 'list', '--env', 'e1'])).message,
      'Unknown option --env for `account list`: `feature-server --help` lists them.',
    );
    // A known option without its value says so.
    assert.deepEqual(await refused(['report', '--env']).then((e) => [e.code, e.message]), [
      'invalid_input',
      '--env needs a value: --env VALUE.',
    ]);
    assert.equal(existsSync(dataDir), false, 'no refused command created a store');
  });

  void it('reads what each command takes from the help, the analysis options included', () => {
    const options = (command: string, sub?: string) => {
      const known = KNOWN_COMMANDS.get(command);
      const taken = sub === undefined ? known?.own : known?.subcommands.get(sub);
      return { values: [...(taken?.values ?? [])].sort(), flags: [...(taken?.flags ?? [])].sort() };
    };
    assert.deepEqual(options('env', 'create'), { values: ['account', 'name'], flags: ['1v1t', 'xpc'] });
    assert.deepEqual(options('report'), { values: ['campaign', 'env'], flags: ['rebuild'] });
    assert.deepEqual(options('console'), { values: ['url'], flags: ['sign-in-link'] });
    assert.deepEqual(options('console', 'end-sessions'), { values: [], flags: [] });
    assert.deepEqual(options('panic', 'off'), { values: ['env'], flags: [] });
    assert.deepEqual(options('campaign', 'update'), {
      values: ['env', ...ANALYSIS_OPTIONS].sort(),
      flags: [],
    });
    assert.deepEqual(options('access', 'create'), {
      values: ['account', 'actions', 'envs', 'name'],
      flags: [],
    });
    assert.deepEqual([...KNOWN_FLAGS].sort(), ['1v1t', 'help', 'json', 'rebuild', 'sign-in-link', 'xpc']);
    assert.deepEqual(options('audit', 'export'), { values: ['account', 'output', 'since'], flags: [] });
    assert.deepEqual([...KNOWN_COMMANDS.keys()].sort(), [
      'access',
      'account',
      'audit',
      'campaign',
      'console',
      'demo',
      'env',
      'import',
      'panic',
      'report',
      'serve',
      'start',
      'user',
    ]);
    assert.deepEqual(options('user', 'invite'), { values: ['account', 'email', 'role'], flags: [] });
    assert.deepEqual(options('user', 'role'), { values: ['account', 'role'], flags: [] });
  });
});
