// Migrations travel with the compiled server: the store's migrate module, compiled by tsc into a folder far
// from the source tree, still creates the schema (tsc copies no .sql files, so a build that read them from
// src/ would break once installed elsewhere).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import type { Sql } from '../../../server/src/store/sql/sql.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

const isMigrateModule = (value: unknown): value is { migrate: (sql: Sql) => Promise<void> } =>
  typeof value === 'object' && value !== null && 'migrate' in value && typeof value.migrate === 'function';

void describe('migrations in the compiled server', () => {
  const out = mkdtempSync(join(tmpdir(), 'feature-migrate-'));
  after(() => rmSync(out, { recursive: true, force: true }));

  void it('apply from a compiled copy that has no source tree beside it', async () => {
    const tsc = spawnSync(
      join(ROOT, 'node_modules/.bin/tsc'),
      [
        ...['--outDir', out, '--rootDir', join(ROOT, 'server/src/store')],
        ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'],
        ...['--ignoreConfig', '--skipLibCheck', '--types', 'node', '--declaration', 'false'],
        join(ROOT, 'server/src/store/migrations/migrate.ts'),
      ],
      { encoding: 'utf8' },
    );
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    writeFileSync(join(out, 'package.json'), '{"type":"module"}');
    const files = readdirSync(out, { recursive: true }).map(String);
    assert.ok(files.includes(join('migrations', '001-initial.js')), files.join(', '));
    assert.ok(!files.some((f) => f.endsWith('.sql')), 'no SQL file is needed');

    const compiled: unknown = await import(pathToFileURL(join(out, 'migrations', 'migrate.js')).href);
    assert.ok(isMigrateModule(compiled));
    const sql = await openPgliteThread(null);
    try {
      await compiled.migrate(sql);
      await compiled.migrate(sql); // applied once: the second run finds it recorded
      const applied = await sql.query('SELECT version, name FROM schema_migrations ORDER BY version');
      assert.deepEqual(applied, [
        { version: 1, name: '001-initial' },
        { version: 2, name: '002-accesses' },
        { version: 3, name: '003-traffic-index' },
        { version: 4, name: '004-console-sessions' },
        { version: 5, name: '005-assignment-history-text' },
        { version: 6, name: '006-assignment-id-codes' },
        { version: 7, name: '007-console-session-keys' },
        { version: 8, name: '008-campaign-bytes' },
        { version: 9, name: '009-report-rollups' },
        { version: 10, name: '010-time-partitions' },
        { version: 11, name: '011-pending-received' },
        { version: 12, name: '012-webhooks' },
        { version: 13, name: '013-people' },
        { version: 14, name: '014-audit-log' },
        { version: 15, name: '015-single-sign-on' },
        { version: 16, name: '016-pending-members' },
      ]);
      const tables = await sql.query(
        // The month partitions of activations and hits (migration 10) depend on the date: listed apart.
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'
           AND table_name NOT IN (SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid)
         ORDER BY table_name`,
      );
      assert.deepEqual(
        tables.map((t) => t.table_name),
        [
          'accesses',
          'account_members',
          'accounts',
          'activations',
          'assignment_ids',
          'assignments',
          'audit_entries',
          'campaign_rollup_revisions',
          'campaign_rollups',
          'campaigns',
          'collected_ids',
          'console_sessions',
          'console_sign_in_links',
          'environments',
          'hits',
          'identities',
          'rollup_horizon',
          'rollup_pending_activations',
          'rollup_pending_hits',
          'rollup_pending_links',
          'rollup_persons',
          'rollup_visit_windows',
          'schema_migrations',
          'sso_identities',
          'sso_settings',
          'sso_sign_ins',
          'tokens',
          'usage_counts',
          'user_links',
          'users',
          'variation_groups',
          'variations',
          'webhook_deliveries',
          'webhooks',
        ],
      );
      // A new database: a DEFAULT partition, and this UTC month's and the next two's (migration 10).
      const partitions = await sql.query(
        `SELECT p.relname AS parent, c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         JOIN pg_class p ON p.oid = i.inhparent WHERE c.relkind = 'r' ORDER BY 1, 2`,
      );
      const today = new Date();
      const months = [0, 1, 2].map((i) => {
        const month = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + i, 1));
        return `${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
      });
      assert.deepEqual(
        partitions.map((p) => `${String(p.parent)}/${String(p.name)}`),
        ['activations', 'hits'].flatMap((table) => [
          ...months.map((month) => `${table}/${table}_${month}`),
          `${table}/${table}_default`,
        ]),
      );
    } finally {
      await sql.close();
    }
  });
});
