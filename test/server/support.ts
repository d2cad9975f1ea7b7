// Test support for the server: the stores to run against (PGlite always, PostgreSQL when DATABASE_URL is
// set, each run in its own random schema), an app on 127.0.0.1:0, a seeded environment, and the `describe`
// that runs a suite once on each store with all three opened in `before` and closed in `after`.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createApp, type AppDeps } from '../../server/src/app.js';
import { auditedByTests } from './test-actor.js';
import { createLogger } from '../../server/src/logger.js';
import { openPgliteThread } from '../../server/src/store/pglite/pglite-thread.js';
import { openPgliteStore } from '../../server/src/store/pglite/pglite.js';
import { openPostgresStore } from '../../server/src/store/postgres/postgres.js';
import type { Sql } from '../../server/src/store/sql/sql.js';
import type { Store } from '../../server/src/store/store.js';
import type { AccountSettings, BucketingCampaign } from '../../src/protocol/index.js';
import { freshDataDir } from './template-data-dir.js';

export { TEST_ACTOR, UNAUDITED, auditedByTests, unaudited } from './test-actor.js';

/** One store backend for a test file. */
export interface StoreKind {
  name: 'pglite' | 'postgres';
  /** Opens a store (one per test file: PGlite costs seconds to open). */
  open: () => Promise<Store>;
  /** Opens a second store on the same database (PostgreSQL only: two instances). */
  openSibling?: () => Promise<Store>;
  /** Removes what the run created. */
  cleanup: () => Promise<void>;
  /** PostgreSQL only: the database URL and the run's schema, for tests that work behind the store's back. */
  postgres?: { url: string; schema: string };
}

/** The stores to run against. */
export const storeKinds = (): StoreKind[] => {
  // PGlite on a copy of a migrated folder rather than in memory: a new in-memory database runs initdb and
  // every migration each time (template-data-dir.ts), which was most of what a suite on it cost.
  const dirs: string[] = [];
  const kinds: StoreKind[] = [
    {
      name: 'pglite',
      open: async () => {
        const dir = await freshDataDir('feature-store-');
        dirs.push(dir);
        return auditedByTests(await openPgliteStore(dir));
      },
      cleanup: () => {
        for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    },
  ];
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    const schema = `test_${randomBytes(6).toString('hex')}`;
    kinds.push({
      name: 'postgres',
      postgres: { url, schema },
      open: async () => auditedByTests(await openPostgresStore({ connectionString: url, schema })),
      openSibling: async () => auditedByTests(await openPostgresStore({ connectionString: url, schema })),
      cleanup: async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      },
    });
  }
  return kinds;
};

/**
 * A database of one store kind that a test reaches behind the store's back, as an older server left it or
 * as a hand edit would: PGlite in a folder of its own, PostgreSQL in the run's schema (created here).
 */
export interface RawDatabase {
  /**
   * Runs statements directly (PGlite: only while no store is open on the folder; its connection stays open
   * until `openStore` or `remove`).
   */
  exec(text: string): Promise<void>;
  /** Runs one query directly and returns its rows (PGlite: as exec). */
  query(text: string): Promise<Array<Record<string, unknown>>>;
  /** Opens the product's store on it, which applies the migrations it lacks. */
  openStore(): Promise<Store>;
  /** Removes the folder or the schema. */
  remove(): Promise<void>;
}

/** Opens a {@link RawDatabase} of `kind`; a PGlite folder's name starts with `prefix`. */
export const rawDatabase = async (kind: StoreKind, prefix: string): Promise<RawDatabase> => {
  if (kind.postgres === undefined) {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    // One thread kept open from the first statement until a store opens the folder (opening one costs about
    // 1.7 s: a thread per statement made a hand-written old schema cost half a minute).
    let thread: Promise<Sql> | undefined;
    const closeThread = async (): Promise<void> => {
      const open = thread;
      thread = undefined;
      // A thread that failed to open has nothing to close (the statement that opened it said why).
      await open?.then(
        (opened) => opened.close(),
        () => undefined,
      );
    };
    const withThread = async <T>(work: (open: Sql) => Promise<T>): Promise<T> => {
      thread ??= openPgliteThread(dir);
      return work(await thread);
    };
    return {
      exec: (text) => withThread((open) => open.exec(text)),
      query: (text) => withThread((open) => open.query(text)),
      openStore: async () => {
        await closeThread();
        return auditedByTests(await openPgliteStore(dir));
      },
      remove: async () => {
        await closeThread();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const { url, schema } = kind.postgres;
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  return {
    async exec(text) {
      await client.query(text);
    },
    async query(text) {
      return (await client.query<Record<string, unknown>>(text)).rows;
    },
    openStore: async () => auditedByTests(await openPostgresStore({ connectionString: url, schema })),
    async remove() {
      await client.end();
      await kind.cleanup();
    },
  };
};

/** A running app. */
export interface Running {
  app: FastifyInstance;
  url: string;
  close: () => Promise<void>;
}

/** Starts an app over `store` on 127.0.0.1:0; logs only errors. */
export const startApp = async (store: Store, deps: Partial<AppDeps> = {}): Promise<Running> => {
  const app = await createApp({ store, logger: createLogger('fatal'), ...deps });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
};

/** The A/B test most tests use: one group for everyone, reference and a green button at 50/50. */
export const checkoutCampaign = (prefix = ''): BucketingCampaign => ({
  id: `${prefix}c1`,
  name: 'Checkout',
  type: 'ab',
  slug: `${prefix}checkout`,
  variationGroups: [
    {
      id: `${prefix}vg1`,
      name: 'Everyone',
      targeting: {
        targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'fs_all_users', value: '' }] }],
      },
      variations: [
        {
          id: `${prefix}v1`,
          name: 'Original',
          reference: true,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: null } },
        },
        {
          id: `${prefix}v2`,
          name: 'Green',
          reference: false,
          allocation: 50,
          modifications: { type: 'FLAG', value: { btnColor: 'green' } },
        },
      ],
    },
  ],
});

/** A toggle for premium visitors only. */
export const premiumToggle = (prefix = ''): BucketingCampaign => ({
  id: `${prefix}c2`,
  name: 'Premium banner',
  type: 'toggle',
  variationGroups: [
    {
      id: `${prefix}vg2`,
      name: 'Premium',
      targeting: {
        targetingGroups: [{ targetings: [{ operator: 'EQUALS', key: 'plan', value: 'premium' }] }],
      },
      variations: [
        {
          id: `${prefix}v3`,
          name: 'On',
          reference: true,
          allocation: 100,
          modifications: { type: 'FLAG', value: { banner: true } },
        },
      ],
    },
  ],
});

/** An environment made by `seedEnvironment`. */
export interface SeededEnvironment {
  envId: string;
  apiKey: string;
  accountId: string;
}

/** Creates an account and environment with `campaigns`; returns its id and API key. */
export const seedEnvironment = async (
  store: Store,
  campaigns: BucketingCampaign[],
  accountSettings: Partial<AccountSettings> = {},
): Promise<SeededEnvironment> => {
  const account = await store.createAccount('Test account');
  const { environment, apiKey } = await store.createEnvironment({
    accountId: account.id,
    name: 'test',
    accountSettings,
  });
  await store.replaceCampaigns(environment.id, campaigns);
  return { envId: environment.id, apiKey, accountId: account.id };
};

/**
 * Runs `suite` once per store kind, inside a `describe` named "title (kind name)": its `before` opens the
 * store and hands it to `start`; its `after` hands what `start` returned to `stop`, closes the store and
 * removes the run's data. The suite's own hooks run after these. It reads what `start` returned through
 * `started(field)`, which throws until `before` has run, so that a read at definition time (outside `it`,
 * `before` or `after`) fails with a message naming `field` instead of passing `undefined` along.
 */
export const describeOnEveryStoreWith = <T>(
  title: string,
  lifecycle: { start: (store: Store) => Promise<T>; stop: (started: T) => Promise<void> },
  suite: (kind: StoreKind, started: (field: string) => T) => void,
): void => {
  for (const kind of storeKinds()) {
    const name = `${title} (${kind.name})`;
    void describe(name, () => {
      let store: Store | undefined;
      // Boxed, so that "not started yet" never depends on what `start` returns.
      let box: { value: T } | undefined;
      before(async () => {
        store = await kind.open();
        box = { value: await lifecycle.start(store) };
      });
      after(async () => {
        // A `before` that failed half-way leaves less to close.
        if (box !== undefined) await lifecycle.stop(box.value);
        await store?.close();
        await kind.cleanup();
      });
      suite(kind, (field) => {
        if (box === undefined)
          throw new Error(
            `"${name}": \`${field}\` is read before the suite's before() hook has opened it; read it inside it(), before() or after()`,
          );
        return box.value;
      });
    });
  }
};

/**
 * Runs a store-level `suite` (no app) once per store kind, with an empty environment seeded; `opened()`
 * gives the store and the environment inside `it`, `before` or `after`.
 */
export const describeStoreOnEveryKind = (
  title: string,
  suite: (opened: () => SeededEnvironment & { store: Store }) => void,
): void => {
  describeOnEveryStoreWith(
    title,
    {
      start: async (store) => ({ store, ...(await seedEnvironment(store, [])) }),
      stop: () => Promise.resolve(),
    },
    (_kind, started) => suite(() => started('store')),
  );
};

/** What `describeOnEveryStore` hands its suite; every field but `kind` is readable once `before` has run. */
export interface StoreFixture {
  /** The store backend this run of the suite uses. */
  readonly kind: StoreKind;
  /** The open store, the same one the app serves from. */
  readonly store: Store;
  /** The app over `store`, on 127.0.0.1:0. */
  readonly server: Running;
  /** The environment seeded with the suite's campaigns. */
  readonly env: SeededEnvironment;
}

/**
 * Runs `suite` once per store kind (see `describeOnEveryStoreWith`) over an app on the store and an
 * environment seeded with `campaigns`, all opened in `before` and closed in `after`.
 */
export const describeOnEveryStore = (
  title: string,
  campaigns: readonly BucketingCampaign[],
  suite: (fixture: StoreFixture) => void,
): void => {
  const start = async (store: Store): Promise<Omit<StoreFixture, 'kind'>> => {
    const server = await startApp(store);
    try {
      return { store, server, env: await seedEnvironment(store, [...campaigns]) };
    } catch (error) {
      // `after` only stops what `start` returned: a listening app left here would keep the run alive.
      await server.close();
      throw error;
    }
  };
  describeOnEveryStoreWith(title, { start, stop: ({ server }) => server.close() }, (kind, started) => {
    suite({
      kind,
      get store() {
        return started('store').store;
      },
      get server() {
        return started('server').server;
      },
      get env() {
        return started('env').env;
      },
    });
  });
};

/** POSTs a JSON body (or raw text) and returns status, headers and parsed body. */
export const post = async (
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? null : (JSON.parse(text) as unknown),
  };
};

/** A logger at `info` whose records are kept (parsed), to check what the app logged. */
export const keptLogs = (): {
  records: Array<Record<string, unknown>>;
  logger: ReturnType<typeof createLogger>;
} => {
  const records: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      records.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { records, logger: createLogger('info', stream) };
};
