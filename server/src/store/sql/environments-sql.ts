// Accounts and environments over the shared SQL, and the publication rule of §2.5: every change that
// alters what decisions or the bucketing file see raises config_time by at least one second and notifies
// every instance listening on the database.
import type { AccountSettings } from 'feature-ts/protocol';
import { InputError, unknownEnvironmentInput } from '../../errors.js';
import { digest, newApiKey, newId } from '../../ids.js';
import { bool, bytes, num, text, type Queryable, type Row, type Sql } from './sql.js';
import type { Account, EnvironmentChange, EnvironmentRecord } from '../account-store.js';
import type { ConfigurationStamp } from '../configuration-store.js';
import { recordAudit, SECRET_ROTATED } from './audit-sql.js';
import { accountState, environmentState } from './audit-states.js';
import { queueWebhookEvent } from './webhooks-sql.js';

/** The NOTIFY channel of configuration changes for a database/schema. */
export const configChannel = (prefix: string): string => `${prefix}_config`;

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Raises the environment's configuration time and notifies listeners; call inside the change's transaction. */
export const publish = async (tx: Queryable, channel: string, envId: string): Promise<void> => {
  await tx.query('UPDATE environments SET config_time = GREATEST($2, config_time + 1) WHERE id = $1', [
    envId,
    nowSeconds(),
  ]);
  await tx.query('SELECT pg_notify($1, $2)', [channel, envId]);
};

const toAccount = (row: Row): Account => ({
  id: text(row, 'id'),
  name: text(row, 'name'),
  createdMs: num(row, 'created_ms'),
});

/** Maps an environments row. */
export const toEnvironment = (row: Row): EnvironmentRecord => ({
  id: text(row, 'id'),
  accountId: text(row, 'account_id'),
  name: text(row, 'name'),
  apiKeyDigest: bytes(row, 'api_key_digest'),
  panic: bool(row, 'panic'),
  accountSettings: { enabledXPC: bool(row, 'enabled_xpc'), enabled1V1T: bool(row, 'enabled_1v1t') },
  configTime: num(row, 'config_time'),
});

/** Records a change of an environment's row, from its rows before and after. */
const auditEnvironmentChange = async (
  tx: Queryable,
  action: string,
  before: Row,
  after: Row,
): Promise<void> => {
  const environment = toEnvironment(after);
  await recordAudit(tx, {
    accountId: environment.accountId,
    envId: environment.id,
    subjectKind: 'environment',
    subjectId: environment.id,
    action,
    before: environmentState(toEnvironment(before)),
    after: environmentState(environment),
  });
};

/**
 * Changes an environment's panic and settings in one transaction, with one audit entry for the request and
 * each concept's webhook event (AccountStore.updateEnvironment).
 */
const updateEnvironment = async (
  db: Pick<Sql, 'transaction'>,
  channel: string,
  envId: string,
  change: EnvironmentChange,
): Promise<void> => {
  await db.transaction(async (tx) => {
    // The row before, under its lock: a write that changes nothing is no event and no entry.
    const before = await tx.query('SELECT * FROM environments WHERE id = $1 FOR UPDATE', [envId]);
    const rows = await tx.query(
      `UPDATE environments SET panic = COALESCE($2, panic), enabled_xpc = COALESCE($3, enabled_xpc),
         enabled_1v1t = COALESCE($4, enabled_1v1t)
       WHERE id = $1 RETURNING *`,
      [envId, change.panic ?? null, change.enabledXPC ?? null, change.enabled1V1T ?? null],
    );
    const was = before[0];
    const now = rows[0];
    if (was === undefined || now === undefined) throw unknownEnvironmentInput(envId);
    await publish(tx, channel, envId);
    const panicChanged = bool(was, 'panic') !== bool(now, 'panic');
    const settingsChanged =
      bool(was, 'enabled_xpc') !== bool(now, 'enabled_xpc') ||
      bool(was, 'enabled_1v1t') !== bool(now, 'enabled_1v1t');
    // Each concept keeps its own webhook event; the audit log gets one entry for the one request.
    if (panicChanged)
      await queueWebhookEvent(tx, envId, { type: 'environment.panic_changed', panic: bool(now, 'panic') });
    if (settingsChanged)
      await queueWebhookEvent(tx, envId, {
        type: 'environment.settings_changed',
        enabledXPC: bool(now, 'enabled_xpc'),
        enabled1V1T: bool(now, 'enabled_1v1t'),
      });
    if (panicChanged || settingsChanged)
      await auditEnvironmentChange(
        tx,
        panicChanged && settingsChanged
          ? 'environment.updated'
          : panicChanged
            ? 'environment.panic_changed'
            : 'environment.settings_changed',
        was,
        now,
      );
  });
};

/** Account and environment operations of the store. */
export const environmentQueries = (db: Pick<Sql, 'query' | 'transaction'>, channel: string) => ({
  async createAccount(name: string): Promise<Account> {
    if (name.trim() === '') throw new InputError('An account needs a name: pass --name NAME.');
    return db.transaction(async (tx) => {
      const rows = await tx.query(
        'INSERT INTO accounts (id, name, created_ms) VALUES ($1, $2, $3) RETURNING *',
        [newId(), name, Date.now()],
      );
      const account = toAccount(rows[0] ?? {});
      await recordAudit(tx, {
        accountId: account.id,
        envId: null,
        subjectKind: 'account',
        subjectId: account.id,
        action: 'account.created',
        before: null,
        after: accountState(account),
      });
      return account;
    });
  },
  async getAccount(id: string): Promise<Account | null> {
    const rows = await db.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0] === undefined ? null : toAccount(rows[0]);
  },
  async listAccounts(): Promise<Account[]> {
    const rows = await db.query('SELECT * FROM accounts ORDER BY created_ms, id');
    return rows.map(toAccount);
  },
  async findAccountByName(name: string): Promise<Account | null> {
    const rows = await db.query('SELECT * FROM accounts WHERE name = $1 ORDER BY created_ms LIMIT 1', [name]);
    return rows[0] === undefined ? null : toAccount(rows[0]);
  },
  async createEnvironment(input: {
    accountId: string;
    name: string;
    accountSettings?: Partial<AccountSettings>;
  }): Promise<{ environment: EnvironmentRecord; apiKey: string }> {
    if (input.name.trim() === '') throw new InputError('An environment needs a name: pass --name NAME.');
    const apiKey = newApiKey();
    return db.transaction(async (tx) => {
      const account = await tx.query('SELECT id FROM accounts WHERE id = $1', [input.accountId]);
      if (account.length === 0) {
        throw new InputError(
          `No account has the id "${input.accountId}": create one with \`feature-server account create --name N\`.`,
        );
      }
      const rows = await tx.query(
        `INSERT INTO environments (id, account_id, name, api_key_digest, enabled_xpc, enabled_1v1t, config_time, created_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [
          newId(),
          input.accountId,
          input.name,
          digest(apiKey),
          input.accountSettings?.enabledXPC ?? false,
          input.accountSettings?.enabled1V1T ?? false,
          nowSeconds(),
          Date.now(),
        ],
      );
      const environment = toEnvironment(rows[0] ?? {});
      await recordAudit(tx, {
        accountId: environment.accountId,
        envId: environment.id,
        subjectKind: 'environment',
        subjectId: environment.id,
        action: 'environment.created',
        before: null,
        after: environmentState(environment),
      });
      return { environment, apiKey };
    });
  },
  async getEnvironment(id: string): Promise<EnvironmentRecord | null> {
    const rows = await db.query('SELECT * FROM environments WHERE id = $1', [id]);
    return rows[0] === undefined ? null : toEnvironment(rows[0]);
  },
  async configurationStamps(envIds: readonly string[]): Promise<ConfigurationStamp[]> {
    if (envIds.length === 0) return [];
    const rows = await db.query(
      'SELECT id, config_time, api_key_digest FROM environments WHERE id = ANY($1::text[])',
      [[...envIds]],
    );
    return rows.map((row) => ({
      id: text(row, 'id'),
      configTime: num(row, 'config_time'),
      apiKeyDigest: bytes(row, 'api_key_digest'),
    }));
  },
  async environmentIdByKeyDigest(apiKeyDigest: Uint8Array): Promise<string | null> {
    const rows = await db.query('SELECT id FROM environments WHERE api_key_digest = $1 LIMIT 1', [
      apiKeyDigest,
    ]);
    return rows[0] === undefined ? null : text(rows[0], 'id');
  },
  async listEnvironments(accountId: string): Promise<EnvironmentRecord[]> {
    const rows = await db.query('SELECT * FROM environments WHERE account_id = $1 ORDER BY created_ms', [
      accountId,
    ]);
    return rows.map(toEnvironment);
  },
  async rotateApiKey(envId: string): Promise<string> {
    const apiKey = newApiKey();
    await db.transaction(async (tx) => {
      const rows = await tx.query('UPDATE environments SET api_key_digest = $2 WHERE id = $1 RETURNING *', [
        envId,
        digest(apiKey),
      ]);
      if (rows[0] === undefined) throw unknownEnvironmentInput(envId);
      const rotated = toEnvironment(rows[0]);
      await recordAudit(tx, {
        accountId: rotated.accountId,
        envId,
        subjectKind: 'environment',
        subjectId: envId,
        action: 'environment.api_key_rotated',
        before: environmentState(rotated),
        after: environmentState(rotated, SECRET_ROTATED),
      });
      // The key is part of what every instance holds in memory: tell them at once.
      await tx.query('SELECT pg_notify($1, $2)', [channel, envId]);
      await queueWebhookEvent(tx, envId, { type: 'environment.api_key_rotated' });
    });
    return apiKey;
  },
  async setPanic(envId: string, panic: boolean): Promise<void> {
    await updateEnvironment(db, channel, envId, { panic });
  },
  async setAccountSettings(envId: string, settings: Partial<AccountSettings>): Promise<void> {
    await updateEnvironment(db, channel, envId, settings);
  },
  updateEnvironment: (envId: string, change: EnvironmentChange): Promise<void> =>
    updateEnvironment(db, channel, envId, change),
});
