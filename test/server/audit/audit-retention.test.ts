// The audit log's retention (issue 36): with FEATURE_AUDIT_RETENTION_DAYS, the app's hourly upkeep (run once
// at start) purges entries older than that many days by its clock, as the server, and logs the purge.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { until } from '../../support/until.js';
import { describeStoreOnEveryKind, startApp } from '../support.js';

const DAY_MS = 86_400_000;

describeStoreOnEveryKind('audit retention', (opened) => {
  void it('purges entries past the retention at start, as the server, and logs how many', async () => {
    const { store, accountId } = opened();
    const kept = await store.listAudit({ accountId }, { limit: 1000 });
    assert.ok(kept.length > 0);
    // A clock 31 days ahead: every entry so far is older than 30 days.
    const now = Date.now() + 31 * DAY_MS;
    const server = await startApp(store, { auditRetentionDays: 30, now: () => now });
    try {
      const [purge] = await until(
        async () => {
          const left = await store.listAudit({ accountId }, { limit: 10 });
          return left.length === 1 && left[0]?.action === 'audit.purged' ? left : null;
        },
        { what: 'the purge of old entries' },
      );
      assert.deepEqual(purge?.actor, { kind: 'system', id: null, label: 'server', address: null });
      assert.deepEqual(purge.details, {
        purged: kept.length,
        before: new Date(now - 30 * DAY_MS).toISOString(),
      });
    } finally {
      await server.close();
    }
  });
});
