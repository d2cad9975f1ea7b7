// A database as a version-8 server left it (before the report rollups of issue 31), with the rows such a
// server stored: for the upgrade test (rollups-upgrade.test.ts) and the 1 M-exposure upgrade bench
// (bench/report-upgrade.bench.ts). Visitors alternate between the variations; every third activation has no
// hid (visit windows); every fifth converting visitor logs in on its hit (an identity link); a tenth convert,
// some before their exposure was stored.
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import { openPgliteThread } from '../../../server/src/store/pglite/pglite-thread.js';
import { checkoutCampaign } from '../support.js';

/** When the rows were received: from November 2026, one exposure a minute unless told otherwise. */
export const VERSION_8_START = Date.UTC(2026, 10, 1);

/** Statements of a migration (as migrate.ts splits them). */
const statements = (sql: string): string[] =>
  sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** The rows a version-8 database holds for `visitors` visitors: how many marks migration 9 adds. */
export const version8Marks = (visitors: number): number => visitors * 2 + visitors / 10 + visitors / 50;

/**
 * Writes a version-8 database into `dir` (an empty folder) with one environment, the A/B test of
 * checkoutCampaign(), and `visitors` × 2 activations (a multiple of 50), one every `spacingMs` (a minute by
 * default; longer spreads few rows over many month partitions). Resolves to the environment's id.
 */
export const writeVersion8Database = async (
  dir: string,
  visitors: number,
  spacingMs = 60_000,
): Promise<{ envId: string }> => {
  const START = VERSION_8_START;
  // The schema as version 8 left it.
  const thread = await openPgliteThread(dir);
  await thread.exec(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 8)) {
    for (const statement of statements(migration.sql)) await thread.query(statement);
    await thread.query('INSERT INTO schema_migrations VALUES ($1, $2, 0)', [
      migration.version,
      migration.name,
    ]);
  }
  await thread.close();
  // A version-8 server's rows, written as it wrote them (the store opens only at the newest version).
  const env = { envId: 'env-upgrade' };
  const old = await openPgliteThread(dir);
  await old.query(`INSERT INTO accounts (id, name, created_ms) VALUES ('acc-upgrade', 'Upgrade', 0)`);
  await old.query(
    `INSERT INTO environments (id, account_id, name, api_key_digest, config_time, created_ms)
     VALUES ($1, 'acc-upgrade', 'test', '\\x00'::bytea, 1, 0)`,
    [env.envId],
  );
  const campaign = checkoutCampaign();
  await old.query(
    `INSERT INTO campaigns (env_id, id, position, state, body, created_ms, updated_ms, body_bytes, targetings,
       list_items, pattern_chars) VALUES ($1, 'c1', 0, 'active', $2::jsonb, 0, 0, $3, 1, 0, 0)`,
    [env.envId, JSON.stringify(campaign), JSON.stringify(campaign).length],
  );
  await old.query(`INSERT INTO variation_groups (env_id, id, campaign_id) VALUES ($1, 'vg1', 'c1')`, [
    env.envId,
  ]);
  await old.query(
    `INSERT INTO variations (env_id, id, variation_group_id) VALUES ($1, 'v1', 'vg1'), ($1, 'v2', 'vg1')`,
    [env.envId],
  );
  await old.exec(`
    INSERT INTO activations (env_id, hid, visitor_id, anonymous_id, campaign_id, variation_group_id, variation_id,
      created_ms, received_ms)
    SELECT '${env.envId}', CASE WHEN i % 3 = 0 THEN NULL ELSE 'a-' || i END, 'visitor-' || (i % ${visitors}), NULL,
      'c1', 'vg1', CASE WHEN i % 2 = 0 THEN 'v1' ELSE 'v2' END, ${START} + i::bigint * ${spacingMs}, ${START} + i::bigint * ${spacingMs}
    FROM generate_series(0, ${visitors * 2 - 1}) AS i;
    INSERT INTO hits (env_id, hid, type, visitor_id, customer_id, goal, revenue, created_ms, received_ms, body)
    SELECT '${env.envId}', 'h-' || i, CASE WHEN i % 4 = 0 THEN 'TRANSACTION' ELSE 'EVENT' END, 'visitor-' || i,
      CASE WHEN i % 5 = 0 THEN 'user-' || (i % 97) ELSE NULL END,
      CASE WHEN i % 4 = 0 THEN 'Purchase' ELSE 'add_to_cart' END, CASE WHEN i % 4 = 0 THEN 12.5 ELSE NULL END,
      ${START} + i::bigint * ${spacingMs} + ${Math.floor(spacingMs / 2)}, ${START} + i::bigint * ${spacingMs} + ${Math.floor(spacingMs / 2)}, '{}'::jsonb
    FROM generate_series(0, ${visitors - 1}, 10) AS i;
    INSERT INTO identities (env_id, anonymous_id, person_id, first_seen_ms)
    SELECT '${env.envId}', 'visitor-' || i, 'user-' || (i % 97), 0
    FROM generate_series(0, ${visitors - 1}, 50) AS i;
  `);
  await old.close();
  return env;
};
