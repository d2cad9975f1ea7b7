// The server's configuration from environment variables (PROTOCOL.md §13.9): defaults on a fresh machine,
// and every bad value refused at start with a message that says what to change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readServerConfig } from '../../server/src/config.js';

void describe('server configuration', () => {
  void it('works with nothing set', () => {
    const config = readServerConfig({});
    assert.deepEqual(
      { ...config },
      {
        port: 8080,
        host: '127.0.0.1',
        databaseUrl: null,
        databaseReplicaUrl: null,
        dataDir: './.feature-data',
        logLevel: 'info',
        assignmentRetentionDays: 90,
        retentionDays: null,
        auditRetentionDays: null,
        operatorKey: null,
        trustProxy: null,
        maxTokenLifetimeSeconds: null,
        maxStreams: 10_000,
        webhookFirstRetryMs: 10_000,
        webhookPrivateNetworks: false,
        webhookLogDays: 30,
      },
    );
  });

  void it('reads the remote control settings', () => {
    const config = readServerConfig({
      FEATURE_OPERATOR_KEY: 'k'.repeat(32),
      TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ,fd00::/8',
      FEATURE_MAX_TOKEN_LIFETIME: '900',
    });
    assert.equal(config.operatorKey, 'k'.repeat(32));
    assert.equal(config.trustProxy, '10.0.0.5,10.1.0.0/16,fd00::/8');
    assert.equal(config.maxTokenLifetimeSeconds, 900);
  });

  void it('reads the audit log retention, refusing what is not a number of days', () => {
    assert.equal(readServerConfig({ FEATURE_AUDIT_RETENTION_DAYS: '730' }).auditRetentionDays, 730);
    assert.equal(readServerConfig({ FEATURE_AUDIT_RETENTION_DAYS: ' ' }).auditRetentionDays, null);
    for (const bad of ['0', '-3', '1.5', 'forever', '36501', '1e3'])
      assert.throws(
        () => readServerConfig({ FEATURE_AUDIT_RETENTION_DAYS: bad }),
        new RegExp(
          `FEATURE_AUDIT_RETENTION_DAYS=${bad.replace('.', '\\.')} is invalid: set it to a whole number of days`,
        ),
      );
  });

  void it('reads the limit of open live-update streams', () => {
    assert.equal(readServerConfig({ FEATURE_MAX_STREAMS: '2500' }).maxStreams, 2500);
    assert.equal(readServerConfig({ FEATURE_MAX_STREAMS: '0' }).maxStreams, 0);
    assert.equal(readServerConfig({ FEATURE_WEBHOOK_FIRST_RETRY_MS: '250' }).webhookFirstRetryMs, 250);
    assert.throws(
      () => readServerConfig({ FEATURE_WEBHOOK_FIRST_RETRY_MS: '5' }),
      /FEATURE_WEBHOOK_FIRST_RETRY_MS/,
    );
  });

  void it('reads the webhook settings: private networks only when allowed, and the days the log keeps', () => {
    assert.equal(
      readServerConfig({ FEATURE_WEBHOOK_PRIVATE_NETWORKS: 'allow' }).webhookPrivateNetworks,
      true,
    );
    assert.equal(
      readServerConfig({ FEATURE_WEBHOOK_PRIVATE_NETWORKS: 'deny' }).webhookPrivateNetworks,
      false,
    );
    assert.equal(readServerConfig({ FEATURE_WEBHOOK_PRIVATE_NETWORKS: '' }).webhookPrivateNetworks, false);
    assert.equal(readServerConfig({ FEATURE_WEBHOOK_LOG_DAYS: '7' }).webhookLogDays, 7);
  });

  void it('reads a read replica for reports beside the primary', () => {
    const config = readServerConfig({
      DATABASE_URL: 'postgres://primary/db',
      DATABASE_REPLICA_URL: 'postgres://replica/db',
    });
    assert.equal(config.databaseUrl, 'postgres://primary/db');
    assert.equal(config.databaseReplicaUrl, 'postgres://replica/db');
  });

  const refused: Array<[Record<string, string>, RegExp]> = [
    [{ DATABASE_REPLICA_URL: 'postgres://replica/db' }, /DATABASE_REPLICA_URL is set without DATABASE_URL/],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY holds "true", which is not an address or a CIDR block/],
    [{ TRUST_PROXY: '1' }, /TRUST_PROXY holds "1"/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY holds "10.0.0.0\/33"/],
    [{ TRUST_PROXY: '10.0.0.1,' }, /TRUST_PROXY holds ""/],
    [{ FEATURE_OPERATOR_KEY: 'short' }, /FEATURE_OPERATOR_KEY is too weak/],
    [{ FEATURE_OPERATOR_KEY: `${'k'.repeat(30)} x` }, /FEATURE_OPERATOR_KEY is too weak/],
    [
      { FEATURE_MAX_TOKEN_LIFETIME: '0' },
      /FEATURE_MAX_TOKEN_LIFETIME=0 is invalid: set it to an integer from 1 to 31536000/,
    ],
    [{ FEATURE_MAX_TOKEN_LIFETIME: '1.5' }, /FEATURE_MAX_TOKEN_LIFETIME=1.5 is invalid/],
    [
      { FEATURE_MAX_STREAMS: '-1' },
      /FEATURE_MAX_STREAMS=-1 is invalid: set it to an integer from 0 to 1000000/,
    ],
    [{ FEATURE_MAX_STREAMS: 'many' }, /FEATURE_MAX_STREAMS=many is invalid/],
    [
      { FEATURE_WEBHOOK_PRIVATE_NETWORKS: 'yes' },
      /FEATURE_WEBHOOK_PRIVATE_NETWORKS=yes is invalid: set it to allow to let webhooks reach loopback, private and link-local addresses/,
    ],
    [{ FEATURE_WEBHOOK_PRIVATE_NETWORKS: 'true' }, /FEATURE_WEBHOOK_PRIVATE_NETWORKS=true is invalid/],
    [
      { FEATURE_WEBHOOK_LOG_DAYS: '0' },
      /FEATURE_WEBHOOK_LOG_DAYS=0 is invalid: set it to an integer from 1 to 36500/,
    ],
    [{ FEATURE_WEBHOOK_LOG_DAYS: 'forever' }, /FEATURE_WEBHOOK_LOG_DAYS=forever is invalid/],
    [{ PORT: '70000' }, /PORT=70000 is invalid/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL=loud is invalid/],
  ];
  for (const [env, message] of refused)
    void it(`refuses ${JSON.stringify(env)}`, () => assert.throws(() => readServerConfig(env), message));
});
