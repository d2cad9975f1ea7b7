// `feature-server console end-sessions` (issue #29, finding 3): ends every console session and voids unused
// sign-in links, on the store itself (the embedded folder with no server, or PostgreSQL beside running
// servers) or through the server that holds the embedded folder, and says how many sessions ended.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { ConsoleSessions } from '../../../server/src/auth/console-sessions.js';
import { OperatorKeys } from '../../../server/src/auth/operator-keys.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import { openPostgresStore } from '../../../server/src/store/postgres/postgres.js';
import type { Store } from '../../../server/src/store/store.js';
import { runCliInProcess, startServerProcess } from '../cli-support.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { cliJson } from './cli-json.js';
import { auditedByTests } from '../test-actor.js';

const KEY = 'operator-key-for-the-end-sessions-command-0123';

/** Two sessions opened with the key, and an unused sign-in link, on `store`. */
const seed = async (store: Store) => {
  const sessions = new ConsoleSessions(store, { operatorKeys: [KEY] });
  const keyDigest = await (new OperatorKeys([KEY]).find(KEY) ?? assert.fail('the key')).digest();
  const opened = [await sessions.open(keyDigest), await sessions.open(keyDigest)];
  assert.notEqual(await sessions.find(opened[0]?.id ?? ''), null);
  return { sessions, opened, link: await sessions.createLink() };
};

void describe('feature-server console end-sessions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-end-sessions-'));
  const dataDir = join(dir, 'data');
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('ends every session on the embedded store, and through the server that holds it', async () => {
    // A copy of a migrated folder: what is tested is ending sessions, not the folder's creation.
    await copyTemplateDataDir(dataDir);
    let store = auditedByTests(await openPgliteStore(dataDir));
    const seeded = await seed(store);
    await store.close();

    const ended = await cliJson(['console', 'end-sessions'], { FEATURE_DATA_DIR: dataDir });
    assert.deepEqual(ended, { ended: 2, store: { kind: 'embedded', dataDir } });
    store = auditedByTests(await openPgliteStore(dataDir));
    try {
      const reopened = new ConsoleSessions(store, { operatorKeys: [KEY] });
      for (const session of seeded.opened) assert.equal(await reopened.find(session.id), null);
      assert.equal(await reopened.openWithLink(seeded.link.token), null, 'the unused link is void');
    } finally {
      await store.close();
    }

    // Readable, with nothing left to end.
    const human = await runCliInProcess(['console', 'end-sessions'], { FEATURE_DATA_DIR: dataDir });
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^0 console sessions ended: every browser signs in again/);
    assert.match(human.stderr, /using the embedded store in/);

    const server = await startServerProcess({ FEATURE_DATA_DIR: dataDir, FEATURE_OPERATOR_KEY: KEY });
    try {
      const signedIn = await fetch(`${server.url}/admin/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operator_key: KEY }),
      });
      const cookie = /^(feature_console=[^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1] ?? '';
      const read = () => fetch(`${server.url}/admin/v1/accounts`, { headers: { cookie } });
      assert.equal((await read()).status, 200);
      const through = await cliJson(['console', 'end-sessions'], { FEATURE_DATA_DIR: dataDir });
      assert.deepEqual(through, { ended: 1, store: { kind: 'embedded', dataDir, server: server.url } });
      assert.equal((await read()).status, 401, 'the browser is signed out');
    } finally {
      server.child.kill('SIGTERM');
      await once(server.child, 'exit');
    }
  });

  const databaseUrl = process.env.DATABASE_URL;
  void it('ends every session on PostgreSQL, beside the servers', { skip: !databaseUrl }, async () => {
    const url = databaseUrl ?? '';
    const schema = `test_${randomBytes(6).toString('hex')}`;
    const store = auditedByTests(await openPostgresStore({ connectionString: url, schema }));
    try {
      const seeded = await seed(store);
      // Its own schema, through the connection's search_path: the CLI takes only DATABASE_URL.
      const options = encodeURIComponent(`-c search_path=${schema}`);
      const env = { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${options}` };
      const ended = await cliJson(['console', 'end-sessions'], env);
      assert.equal(ended.ended, 2);
      assert.equal((ended.store as { kind: string }).kind, 'postgres');
      for (const session of seeded.opened) assert.equal(await seeded.sessions.find(session.id), null);
      assert.equal(await seeded.sessions.openWithLink(seeded.link.token), null, 'the unused link is void');
    } finally {
      await store.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  });

  void it('is in --help', async () => {
    const help = await runCliInProcess(['--help'], { FEATURE_DATA_DIR: join(dir, 'help') });
    assert.match(help.stdout, /^ {2}console end-sessions {2,}sign every browser out of the console/m);
  });
});
