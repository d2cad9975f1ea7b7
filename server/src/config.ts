// Server configuration from the environment (PROTOCOL.md §13.9), checked at start with messages that say
// what to change.
import { isIP } from 'node:net';
import { InputError } from './errors.js';

/** The server's settings. */
export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string | null;
  /**
   * DATABASE_REPLICA_URL: a read replica of DATABASE_URL that report reads go to (issue 31); null: a second,
   * small pool on DATABASE_URL itself, so reports never wait behind hits and decisions for a connection.
   */
  databaseReplicaUrl: string | null;
  dataDir: string;
  logLevel: string;
  assignmentRetentionDays: number;
  /**
   * FEATURE_RETENTION_DAYS: activations and hits are kept at least this many days, then dropped by whole UTC
   * months (the report rollups keep their counts); null: kept forever.
   */
  retentionDays: number | null;
  /** FEATURE_AUDIT_RETENTION_DAYS: audit entries older than this many days are purged hourly; null: kept forever. */
  auditRetentionDays: number | null;
  /** FEATURE_OPERATOR_KEY: turns the operator routes on (§13.8); null: only the local credential, if any. */
  operatorKey: string | null;
  /** TRUST_PROXY: proxies whose X-Forwarded-For is believed (addresses or CIDRs, comma-separated). */
  trustProxy: string | null;
  /** FEATURE_MAX_TOKEN_LIFETIME in seconds; null: no limit (tokens without expiry allowed). */
  maxTokenLifetimeSeconds: number | null;
  /** FEATURE_MAX_STREAMS: open live-update streams this process holds at most (§17); past it, 503. */
  maxStreams: number;
  /**
   * FEATURE_WEBHOOK_FIRST_RETRY_MS: the wait before a failed webhook delivery's second attempt; each later one
   * waits three times longer, up to an hour, for 24 h (docs/teams.md).
   */
  webhookFirstRetryMs: number;
  /**
   * FEATURE_WEBHOOK_PRIVATE_NETWORKS=allow: webhooks may target loopback, private and link-local addresses
   * (receivers on the operator's own network); false, the default: refused at creation and at every delivery.
   */
  webhookPrivateNetworks: boolean;
  /** FEATURE_WEBHOOK_LOG_DAYS: settled webhook deliveries older than this many days are purged hourly. */
  webhookLogDays: number;
}

/** How many live-update streams a process holds by default (PROTOCOL.md §17). */
export const DEFAULT_MAX_STREAMS = 10_000;

/** How long a failed webhook delivery waits before its second attempt, by default. */
export const DEFAULT_FIRST_RETRY_MS = 10_000;

/** How many days settled webhook deliveries are kept in the delivery log by default. */
export const DEFAULT_WEBHOOK_LOG_DAYS = 30;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const integer = (
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number => {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new InputError(`${name}=${value} is invalid: set it to an integer from ${min} to ${max}.`);
  }
  return n;
};

/** FEATURE_RETENTION_DAYS: unset or empty keeps every row; else a positive whole number of days. */
const retentionDays = (value: string | undefined): number | null => {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new InputError(
      `FEATURE_RETENTION_DAYS=${value} is invalid: set it to a whole number of days of at least 1 (e.g. 400 keeps a bit over a year of activations and hits; reports keep their counts), or unset it to keep every row.`,
    );
  return n;
};

/** FEATURE_AUDIT_RETENTION_DAYS: unset or empty keeps every entry; else a positive whole number of days. */
const auditRetentionDays = (value: string | undefined): number | null => {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < 1 || n > 36_500)
    throw new InputError(
      `FEATURE_AUDIT_RETENTION_DAYS=${value} is invalid: set it to a whole number of days from 1 to 36500 (e.g. 730 keeps two years of the audit log), or unset it to keep every entry.`,
    );
  return n;
};

/** FEATURE_WEBHOOK_PRIVATE_NETWORKS: `allow`, or unset (or `deny`) for the default. */
const webhookPrivateNetworks = (value: string | undefined): boolean => {
  const said = value?.trim().toLowerCase() ?? '';
  if (said === 'allow') return true;
  if (said === '' || said === 'deny') return false;
  throw new InputError(
    `FEATURE_WEBHOOK_PRIVATE_NETWORKS=${value} is invalid: set it to allow to let webhooks reach loopback, private and link-local addresses (receivers on this server's own network), or unset it to refuse them (the default).`,
  );
};

/** An operator key must be hard to guess: it opens every account (§13.8). */
const operatorKey = (value: string | undefined): string | null => {
  if (value === undefined || value === '') return null;
  if (value.length < 24 || /\s/.test(value))
    throw new InputError(
      'FEATURE_OPERATOR_KEY is too weak: use at least 24 characters without spaces (e.g. `openssl rand -base64 32`).',
    );
  return value;
};

/** An address or a CIDR block (`10.0.0.0/8`, `fd00::/8`). */
const isAddressOrBlock = (value: string): boolean => {
  const [address = '', bits, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
};

/** TRUST_PROXY: the proxies whose X-Forwarded-For is believed, as addresses or CIDR blocks. */
const trustProxy = (value: string | undefined): string | null => {
  if (value === undefined || value.trim() === '') return null;
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !isAddressOrBlock(entry));
  if (bad !== undefined)
    throw new InputError(
      `TRUST_PROXY holds "${bad}", which is not an address or a CIDR block: list your proxies, e.g. TRUST_PROXY=10.0.0.5,10.1.0.0/16.`,
    );
  return entries.join(',');
};

/** Reads the configuration from environment variables. */
export const readServerConfig = (env: NodeJS.ProcessEnv = process.env): ServerConfig => {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LEVELS.includes(logLevel))
    throw new InputError(`LOG_LEVEL=${logLevel} is invalid: use one of ${LEVELS.join(', ')}.`);
  const databaseUrl = env.DATABASE_URL === undefined || env.DATABASE_URL === '' ? null : env.DATABASE_URL;
  const databaseReplicaUrl =
    env.DATABASE_REPLICA_URL === undefined || env.DATABASE_REPLICA_URL === ''
      ? null
      : env.DATABASE_REPLICA_URL;
  if (databaseReplicaUrl !== null && databaseUrl === null)
    throw new InputError(
      'DATABASE_REPLICA_URL is set without DATABASE_URL: a replica serves the reports of a PostgreSQL primary, so set DATABASE_URL to the primary too (the embedded store has no replica).',
    );
  return {
    port: integer(env.PORT, 'PORT', 8080, 0, 65535),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl,
    databaseReplicaUrl,
    dataDir: env.FEATURE_DATA_DIR ?? './.feature-data',
    logLevel,
    assignmentRetentionDays: integer(
      env.ASSIGNMENT_RETENTION_DAYS,
      'ASSIGNMENT_RETENTION_DAYS',
      90,
      1,
      36500,
    ),
    retentionDays: retentionDays(env.FEATURE_RETENTION_DAYS),
    auditRetentionDays: auditRetentionDays(env.FEATURE_AUDIT_RETENTION_DAYS),
    operatorKey: operatorKey(env.FEATURE_OPERATOR_KEY),
    trustProxy: trustProxy(env.TRUST_PROXY),
    maxTokenLifetimeSeconds:
      env.FEATURE_MAX_TOKEN_LIFETIME === undefined || env.FEATURE_MAX_TOKEN_LIFETIME === ''
        ? null
        : integer(env.FEATURE_MAX_TOKEN_LIFETIME, 'FEATURE_MAX_TOKEN_LIFETIME', 3600, 1, 31_536_000),
    // 0 is allowed: it turns the stream route into a steady 503, and SDKs keep polling (§17).
    maxStreams: integer(env.FEATURE_MAX_STREAMS, 'FEATURE_MAX_STREAMS', DEFAULT_MAX_STREAMS, 0, 1_000_000),
    webhookFirstRetryMs: integer(
      env.FEATURE_WEBHOOK_FIRST_RETRY_MS,
      'FEATURE_WEBHOOK_FIRST_RETRY_MS',
      DEFAULT_FIRST_RETRY_MS,
      100,
      3_600_000,
    ),
    webhookPrivateNetworks: webhookPrivateNetworks(env.FEATURE_WEBHOOK_PRIVATE_NETWORKS),
    webhookLogDays: integer(
      env.FEATURE_WEBHOOK_LOG_DAYS,
      'FEATURE_WEBHOOK_LOG_DAYS',
      DEFAULT_WEBHOOK_LOG_DAYS,
      1,
      36_500,
    ),
  };
};
