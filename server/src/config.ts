// Server configuration from the environment (PROTOCOL.md §13.9), checked at start with messages that say
// what to change.
import { InputError } from './errors.js';

/** The server's settings. */
export interface ServerConfig {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  logLevel: string;
  assignmentRetentionDays: number;
}

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

/** Reads the configuration from environment variables. */
export const readServerConfig = (env: NodeJS.ProcessEnv = process.env): ServerConfig => {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LEVELS.includes(logLevel))
    throw new InputError(`LOG_LEVEL=${logLevel} is invalid: use one of ${LEVELS.join(', ')}.`);
  return {
    port: integer(env.PORT, 'PORT', 8080, 0, 65535),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL === undefined || env.DATABASE_URL === '' ? null : env.DATABASE_URL,
    dataDir: env.FEATURE_DATA_DIR ?? './.feature-data',
    logLevel,
    assignmentRetentionDays: integer(
      env.ASSIGNMENT_RETENTION_DAYS,
      'ASSIGNMENT_RETENTION_DAYS',
      90,
      1,
      36500,
    ),
  };
};
