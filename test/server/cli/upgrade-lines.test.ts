// Issue 31: a command that opens a database written by an older server upgrades it first, and says so on
// stderr (stdout may carry --json): each migration as it starts, so that minutes of migrations on a large
// database are never silent. The lines' wording and pacing are tested with migrate() itself
// (store/migrate-progress.test.ts); here, that the CLI passes them on.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runCliInProcess } from '../cli-support.js';
import { writeVersion8Database } from '../report/version-8-database.js';

void describe('CLI: an upgrade says its migrations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-cli-upgrade-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('says each migration on stderr, and answers the command on stdout', async () => {
    await writeVersion8Database(dir, 50);
    const run = await runCliInProcess(['account', 'list', '--json'], { FEATURE_DATA_DIR: dir });
    assert.equal(run.code, 0, run.stderr);
    for (const name of ['009-report-rollups', '010-time-partitions', '011-pending-received'])
      assert.ok(
        run.stderr.includes(`Upgrading the database, migration ${name}…`),
        `${name} is said (${run.stderr})`,
      );
    assert.ok(!run.stdout.includes('Upgrading'), 'stdout carries the answer only');
    assert.ok(JSON.parse(run.stdout) !== null);
    // Opened again, the database is up to date: nothing to say.
    const again = await runCliInProcess(['account', 'list', '--json'], { FEATURE_DATA_DIR: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.ok(!again.stderr.includes('Upgrading'), again.stderr);
  });
});
