// No live credential in what a server writes at start (issue #29, finding 5): a console sign-in link opens a
// full operator session for 15 minutes, and a server's stdout and stderr usually go to a log. `serve` never
// prints one; `start` and `console` print one on a terminal, or elsewhere only with --sign-in-link.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCliCommand, runCliInProcess, runServerProcess } from '../cli-support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';

const OPERATOR_KEY = `operator-${randomBytes(24).toString('base64url')}`;

/** Console sign-in links' tokens, API keys, local operator keys, and the operator key itself. */
const SECRETS: readonly (string | RegExp)[] = [/fcl_/, /fk_/, /ffo_/, OPERATOR_KEY];

/** The lines of `output` that hold one of `secrets`, to fail with. */
const leaks = (output: string, secrets: readonly (string | RegExp)[] = SECRETS): string[] =>
  output
    .split('\n')
    .filter((line) =>
      secrets.some((secret) => (typeof secret === 'string' ? line.includes(secret) : secret.test(line))),
    );

/** A store to run the server on, as the CLI's environment names it. */
interface CliStore {
  name: string;
  env: Record<string, string>;
}

const dir = mkdtempSync(join(tmpdir(), 'feature-sign-in-'));
const embedded: CliStore = { name: 'embedded PGlite store', env: { FEATURE_DATA_DIR: join(dir, 'data') } };
const stores: CliStore[] = [embedded];
const databaseUrl = process.env.DATABASE_URL;
const schema = `test_${randomBytes(6).toString('hex')}`;
if (databaseUrl !== undefined && databaseUrl !== '') {
  // Its own schema, through the connection's search_path: the CLI takes only DATABASE_URL.
  const options = encodeURIComponent(`-c search_path=${schema}`);
  const url = `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${options}`;
  stores.push({ name: 'PostgreSQL store', env: { DATABASE_URL: url } });
}

before(async () => {
  // A copy of a migrated folder: what is tested is what a server writes, not the folder's creation (cli.test.ts).
  await copyTemplateDataDir(embedded.env.FEATURE_DATA_DIR ?? '');
  if (stores.length === 1 || databaseUrl === undefined) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
});

after(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (stores.length === 1 || databaseUrl === undefined) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

/** Ready once the readable banner's console line, or the --json object, is out. */
const bannerOut =
  (json: boolean) =>
  (stdout: string): boolean =>
    json ? stdout.includes('\n') : /^Console: .*\n/m.test(stdout);

void describe('what a server writes at start holds no credential', () => {
  for (const store of stores)
    for (const json of [false, true])
      void it(`serve on the ${store.name}${json ? ', --json' : ''}: no fcl_, fk_, ffo_ or operator key`, async () => {
        const run = await runServerProcess(
          json ? ['serve', '--json'] : ['serve'],
          { ...store.env, FEATURE_OPERATOR_KEY: OPERATOR_KEY, LOG_LEVEL: 'trace' },
          bannerOut(json),
        );
        assert.deepEqual(leaks(run.stdout), [], 'stdout');
        assert.deepEqual(leaks(run.stderr), [], 'stderr');
        // Its logs were there to be read: the listening line, and the stop.
        assert.match(json ? run.stderr : run.stdout, /feature-server listening at http/);
        assert.match(json ? run.stderr : run.stdout, /stopping/);
        if (json) {
          const printed = JSON.parse(run.stdout.split('\n')[0] ?? '') as Record<string, unknown>;
          assert.deepEqual(Object.keys(printed).sort(), ['consoleUrl', 'store', 'url']);
          assert.equal(printed.consoleUrl, `${String(printed.url)}/admin`);
        } else {
          // It says where the console is and how to get in, without a credential.
          const signIn =
            store.env.DATABASE_URL === undefined
              ? '`npx feature-server console` prints a one-time sign-in link'
              : '`npx feature-server console --url http://127.0.0.1:\\d+` prints a one-time sign-in link';
          assert.match(
            run.stdout,
            new RegExp(
              `^Console: {8}http://127\\.0\\.0\\.1:\\d+/admin \\(sign in with the operator key ` +
                `\\(FEATURE_OPERATOR_KEY\\), or ${signIn}\\)$`,
              'm',
            ),
          );
        }
      });

  void it('start off a terminal: no sign-in link and no operator key; with --sign-in-link, one', async () => {
    const env = { ...embedded.env, FEATURE_OPERATOR_KEY: OPERATOR_KEY, LOG_LEVEL: 'trace' };
    const plain = await runServerProcess(['start'], env, (stdout) => stdout.includes('Stop with Ctrl+C.'));
    // The demo's API key is what `start` is for (its `API key:` line); nothing else is a credential.
    assert.deepEqual(leaks(plain.stdout + plain.stderr, [/fcl_/, /ffo_/, OPERATOR_KEY]), []);
    assert.deepEqual(
      leaks(plain.stdout + plain.stderr, [/fk_/]).map((line) => line.replace(/fk_\S+/, 'fk_…')),
      ['API key:        fk_…'],
    );
    assert.match(
      plain.stdout,
      /^Console: {8}http:\/\/127\.0\.0\.1:\d+\/admin \(sign in with the operator key \(FEATURE_OPERATOR_KEY\), or `npx feature-server console` prints a one-time sign-in link\)$/m,
    );
    const json = await runServerProcess(['start', '--json'], env, bannerOut(true));
    assert.equal((JSON.parse(json.stdout) as Record<string, unknown>).consoleSignInLink, undefined);
    assert.deepEqual(leaks(json.stdout + json.stderr, [/fcl_/, /ffo_/, OPERATOR_KEY]), []);

    const asked = await runServerProcess(['start', '--sign-in-link', '--json'], env, bannerOut(true));
    const printed = JSON.parse(asked.stdout) as Record<string, unknown>;
    assert.match(
      String(printed.consoleSignInLink),
      /^http:\/\/127\.0\.0\.1:\d+\/admin\/#sign-in=fcl_[\w-]+$/,
    );
  });
});

void describe('feature-server console', () => {
  void it('prints a working link with --sign-in-link, and none off a terminal without it', async () => {
    await runServerProcess(['serve', '--json'], embedded.env, bannerOut(true), async ({ stdout }) => {
      const { url } = JSON.parse(stdout) as { url: string };

      // In a child process: whether its stdout (a pipe here) is a terminal is what decides.
      const refused = await runCliCommand(['console'], embedded.env);
      assert.equal(refused.code, 2);
      assert.equal(
        refused.stderr,
        'feature-server: A console sign-in link opens a full operator session, so it is printed only on a ' +
          'terminal: output elsewhere often ends up in logs. Run this in a terminal, or pass --sign-in-link to ' +
          'print it here anyway.\n',
      );
      assert.equal(refused.stdout, '');

      const asked = await runCliInProcess(['console', '--sign-in-link'], embedded.env);
      assert.equal(asked.code, 0, asked.stderr);
      const link = new RegExp(
        `^Console sign-in link \\(one use, within 15 minutes\\):\\n(${url}/admin/#sign-in=(fcl_[\\w-]+))\\n$`,
      ).exec(asked.stdout);
      assert.ok(link !== null, asked.stdout);
      // The link signs a browser in: its token, from the fragment, opens a session once.
      const signIn = (token: string): Promise<Response> =>
        fetch(`${url}/admin/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sign_in_link: token }),
        });
      const session = await signIn(link[2] ?? '');
      assert.equal(session.status, 200);
      assert.match(session.headers.get('set-cookie') ?? '', /^feature_console=/);
      assert.equal((await signIn(link[2] ?? '')).status, 401, 'spent');

      const json = await runCliInProcess(['console', '--sign-in-link', '--json'], embedded.env);
      const answer = JSON.parse(json.stdout) as { consoleSignInLink: string };
      assert.match(answer.consoleSignInLink, new RegExp(`^${url}/admin/#sign-in=fcl_[\\w-]+$`));
    });
  });
});
