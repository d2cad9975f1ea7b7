// Campaign counts (migration 008) on every store kind: campaigns a server of migration 7 stored get their
// size, targetings, list items and pattern characters at the upgrade, so the environment's totals
// (CAMPAIGN_LIMITS) count them from the first edit after it; a later write records the exact size. An
// environment stored over a limit before it existed can be shrunk, not grown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BucketingCampaign, Targeting } from '../../../src/protocol/index.js';
import { MIGRATIONS } from '../../../server/src/store/migrations/index.js';
import { checkoutCampaign, rawDatabase, storeKinds, type RawDatabase } from '../support.js';

/** A database as a server of migration 7 left it, holding `campaigns` (written by hand) in environment "env". */
const atMigration7 = async (db: RawDatabase, campaigns: BucketingCampaign[]): Promise<void> => {
  await db.exec(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_ms bigint NOT NULL)',
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 7)) {
    await db.exec(migration.sql);
    await db.exec(`INSERT INTO schema_migrations VALUES (${migration.version}, '${migration.name}', 0)`);
  }
  await db.exec(
    `INSERT INTO accounts VALUES ('acc', 'Old', 0);
     INSERT INTO environments (id, account_id, name, api_key_digest, config_time, created_ms)
       VALUES ('env', 'acc', 'old', '\\x00', 1, 0)`,
  );
  for (const [position, campaign] of campaigns.entries()) {
    const json = JSON.stringify(campaign).replaceAll("'", "''");
    await db.exec(
      `INSERT INTO campaigns (env_id, id, position, state, body, created_ms, updated_ms)
         VALUES ('env', '${campaign.id}', ${position}, 'active', '${json}'::jsonb, 0, 0)`,
    );
  }
};

/** A campaign whose one group holds `targetings`. */
const withRules = (id: string, targetings: Targeting[]): BucketingCampaign => ({
  ...checkoutCampaign(`${id}-`),
  id,
  variationGroups: checkoutCampaign(`${id}-`).variationGroups.map((g) => ({
    ...g,
    targeting: { targetingGroups: [{ targetings }] },
  })),
});

void describe('campaign sizes (migration 008)', () => {
  for (const kind of storeKinds()) {
    void it(`sizes the campaigns stored before it, then counts them in the total, on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-008-');
      try {
        const campaign = checkoutCampaign('old-');
        await atMigration7(db, [campaign]);
        // Opening the store applies migration 008; PGlite's folder is read directly only with no store open.
        await (await db.openStore()).close();
        const [row] = await db.query('SELECT body_bytes, octet_length(body::text) AS text FROM campaigns');
        const oldBytes = Number(row?.body_bytes);
        // jsonb's text form, which spells ", " and ": ": at least the JSON's own size.
        assert.equal(oldBytes, Number(row?.text));
        assert.ok(oldBytes >= Buffer.byteLength(JSON.stringify(campaign)));

        const withValue = (id: string, value: string): BucketingCampaign => ({
          ...checkoutCampaign(`${id}-`),
          id,
          variationGroups: checkoutCampaign(`${id}-`).variationGroups.map((g) => ({
            ...g,
            targeting: { targetingGroups: [{ targetings: [{ key: 'q', operator: 'EQUALS', value }] }] },
          })),
        });
        const store = await db.openStore();
        try {
          // Eight campaigns fill what the old one leaves of 8 MiB but 1 000 bytes: a ninth of 2 000 is refused
          // only because the old one counts.
          const share = Math.floor((8 * 1024 * 1024 - oldBytes - 1000) / 8);
          for (let n = 0; n < 8; n++) {
            const sized = withValue(`big${n}`, '');
            const filler = 'f'.repeat(share - Buffer.byteLength(JSON.stringify(sized)));
            await store.createCampaign('env', withValue(`big${n}`, filler), {
              description: '',
              state: 'active',
            });
          }
          const small = withValue('small', 'f'.repeat(1500));
          assert.ok(Buffer.byteLength(JSON.stringify(small)) > 1000);
          await assert.rejects(
            store.createCampaign('env', small, { description: '', state: 'active' }),
            /8192 KiB in all/,
          );
          // Written again, the old campaign's size is its JSON's own.
          await store.updateCampaign('env', campaign.id, campaign, { description: '' });
        } finally {
          await store.close();
        }
        const [again] = await db.query(`SELECT body_bytes FROM campaigns WHERE id = '${campaign.id}'`);
        assert.equal(Number(again?.body_bytes), Buffer.byteLength(JSON.stringify(campaign)));
      } finally {
        await db.remove();
      }
    });

    void it(`counts rules, items and pattern characters, and lets an environment over a limit shrink, on ${kind.name}`, async () => {
      const db = await rawDatabase(kind, 'feature-008-over-');
      try {
        // 10 001 targetings: over the 10 000 an environment may hold, stored before the limit existed.
        const rules: Targeting[] = [
          { key: 'q', operator: 'CONTAINS', value: ['ab', 'a longer target', 7] },
          { key: 'q', operator: 'EQUALS', value: ['x', 'y', 'z'] },
          { key: 'q', operator: 'ENDS_WITH', value: '.com' },
          ...Array.from({ length: 9998 }, (_, i): Targeting => ({
            key: `k${i}`,
            operator: 'EXISTS',
            value: 0,
          })),
        ];
        await atMigration7(db, [withRules('over', rules)]);
        await (await db.openStore()).close();
        const [row] = await db.query('SELECT targetings, list_items, pattern_chars FROM campaigns');
        // 8 + 15 for the CONTAINS list (7 is no string), 8 for ".com"; EQUALS counts no characters.
        assert.deepEqual(
          [Number(row?.targetings), Number(row?.list_items), Number(row?.pattern_chars)],
          [10001, 6, 31],
        );
        const store = await db.openStore();
        try {
          // Growing is refused: a new campaign, or the same campaign with one rule more.
          await assert.rejects(
            store.createCampaign('env', withRules('new', [{ key: 'a', operator: 'EXISTS', value: 0 }]), {
              description: '',
              state: 'active',
            }),
            /10002 targetings/,
          );
          await assert.rejects(
            store.updateCampaign('env', 'over', withRules('over', [...rules, rules[0] as Targeting]), {
              description: '',
            }),
            /10002 targetings/,
          );
          // Any write that does not add is taken, though still over; then the environment is within its limits.
          await store.updateCampaign('env', 'over', withRules('over', rules), { description: 'same rules' });
          await store.updateCampaign('env', 'over', withRules('over', rules.slice(0, 10_000)), {
            description: '',
          });
          await store.createCampaign('env', withRules('new', []), { description: '', state: 'active' });
        } finally {
          await store.close();
        }
      } finally {
        await db.remove();
      }
    });
  }
});
