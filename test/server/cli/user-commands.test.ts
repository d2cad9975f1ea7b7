// `feature-server user …` (issue 36) on the embedded store: the first admin invited from the command line
// (a one-time link printed, valid 7 days), the member list, a role changed by id or email, the last admin kept
// (a conflict, as one JSON error), a reset link, and a removal; unknown accounts, members and roles refused
// with what to do.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { digest } from '../../../server/src/ids.js';
import { notYetMember } from '../../../server/src/services/member-answers.js';
import { openPgliteStore } from '../../../server/src/store/pglite/pglite.js';
import { runCliInProcess } from '../cli-support.js';
import { auditedByTests } from '../test-actor.js';
import { copyTemplateDataDir } from '../template-data-dir.js';
import { cliJson } from './cli-json.js';

void describe('feature-server user', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-user-commands-'));
  const dataDir = join(dir, 'data');
  const env = { FEATURE_DATA_DIR: dataDir };
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('invites, lists, changes roles, keeps the last admin, makes reset links and removes', async () => {
    await copyTemplateDataDir(dataDir);
    const store = auditedByTests(await openPgliteStore(dataDir));
    const accountId = (await store.createAccount('Team')).id;
    const otherId = (await store.createAccount('Other team')).id;
    await store.close();

    const invited = await cliJson(
      ['user', 'invite', '--account', accountId, '--email', 'Ada@Example.com', '--role', 'admin'],
      env,
    );
    const user = invited.user as { id: string; email: string; role: string; active: boolean };
    assert.deepEqual([user.email, user.role, user.active], ['ada@example.com', 'admin', false]);
    assert.match((invited.link as { path: string }).path, /^\/admin\/#invite=fci_[A-Za-z0-9_-]{43}$/);
    const human = await runCliInProcess(
      ['user', 'invite', '--account', accountId, '--email', 'grace@example.com', '--role', 'viewer'],
      env,
    );
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /grace@example.com invited as viewer/);
    assert.match(human.stdout, /Invitation link: \/admin\/#invite=fci_/);

    // Grace has a user now (a member of Team): another account's invitation asks her consent, with a link that
    // looks like any invitation's, and the answer shows nothing of her the admin did not type.
    const asked = await runCliInProcess(
      ['user', 'invite', '--account', otherId, '--email', 'grace@example.com', '--role', 'editor'],
      env,
    );
    assert.equal(asked.code, 0, asked.stderr);
    assert.match(asked.stdout, /grace@example.com invited as editor/);
    assert.match(asked.stdout, /Invitation link: \/admin\/#invite=fci_/);
    const again = await cliJson(
      ['user', 'invite', '--account', otherId, '--email', 'grace@example.com', '--role', 'viewer'],
      env,
    );
    assert.match((again.link as { path: string }).path, /^\/admin\/#invite=fci_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(Object.keys(again).sort(), Object.keys(invited).sort());
    const pending = again.user as { name: string; active: boolean; last_sign_in_at: unknown; role: string };
    assert.deepEqual(
      [pending.name, pending.active, pending.last_sign_in_at, pending.role],
      ['', false, null, 'viewer'],
    );
    const noReset = await cliJson(['user', 'reset-link', 'grace@example.com', '--account', otherId], env, {
      code: 2,
    });
    assert.equal((noReset.error as { code: string }).code, 'conflict');
    // A new person who has not accepted yet is refused alike, in the same words as the HTTP route's.
    const notYet = await cliJson(['user', 'reset-link', 'ada@example.com', '--account', accountId], env, {
      code: 2,
    });
    assert.deepEqual(
      [notYet.error, noReset.error].map((e) => [
        (e as { code: string }).code,
        (e as { message: string }).message,
      ]),
      [
        ['conflict', notYetMember('ada@example.com')],
        ['conflict', notYetMember('grace@example.com')],
      ],
    );

    const listed = await cliJson(['user', 'list', '--account', accountId], env);
    assert.deepEqual(
      (listed.users as Array<{ email: string; role: string }>).map((u) => [u.email, u.role]),
      [
        ['ada@example.com', 'admin'],
        ['grace@example.com', 'viewer'],
      ],
    );

    const lastAdmin = await cliJson(
      ['user', 'role', user.id, '--account', accountId, '--role', 'editor'],
      env,
      {
        code: 2,
      },
    );
    assert.equal((lastAdmin.error as { code: string }).code, 'conflict');
    assert.match((lastAdmin.error as { message: string }).message, /last admin/);
    const promoted = await cliJson(
      ['user', 'role', 'GRACE@example.com', '--account', accountId, '--role', 'admin'],
      env,
    );
    assert.equal((promoted.user as { role: string }).role, 'admin');

    // Ada accepts her invitation: now she may get a reset link.
    const accepting = auditedByTests(await openPgliteStore(dataDir));
    const accepted = await accepting.useUserLink({
      linkDigest: digest((invited.link as { path: string }).path.replace(/^\/admin\/#invite=/, '')),
      kind: 'invitation',
      passwordHash: 'hash',
      name: undefined,
      sessionDigest: digest('a session'),
      nowMs: Date.now(),
      sessionExpiresMs: Date.now() + 60_000,
    });
    await accepting.close();
    assert.equal(accepted.kind, 'opened');
    const reset = await cliJson(['user', 'reset-link', 'ada@example.com', '--account', accountId], env);
    assert.match((reset.link as { path: string }).path, /^\/admin\/#reset=fcr_/);

    const removed = await cliJson(['user', 'remove', 'ada@example.com', '--account', accountId], env);
    assert.deepEqual(removed.removed, 'ada@example.com');
    const unknown = await cliJson(['user', 'remove', 'ada@example.com', '--account', accountId], env, {
      code: 2,
    });
    assert.equal((unknown.error as { code: string }).code, 'unknown_user');
    const noAccount = await cliJson(['user', 'list', '--account', 'nope'], env, { code: 2 });
    assert.equal((noAccount.error as { code: string }).code, 'unknown_account');
    const badRole = await cliJson(
      ['user', 'invite', '--account', accountId, '--email', 'x@example.com', '--role', 'owner'],
      env,
      { code: 2 },
    );
    assert.match(
      (badRole.error as { message: string }).message,
      /--role must be one of viewer, editor, admin/,
    );
  });
});
