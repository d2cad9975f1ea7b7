// Live updates, end to end (PROTOCOL.md §17, issue 34 "Propagation"): the time from a campaign toggled through
// the remote control API (a bearer token of an access granting `campaign.toggle`) to the change being applied
// where a visitor sees it. Three rows, 50 changes each (pause, resume, pause, …), median and p99:
//   a. a `<feature-flag>` re-rendered in an open Chromium page on the same instance (the page loads
//      /sdk/elements.js from the server, and `<feature-provider>` is live by default: decision-API mode, a change
//      re-fetches the visitor);
//   b. the same page on a second instance sharing the PostgreSQL database, the toggle made on the first
//      (LISTEN/NOTIFY between them); skipped, with a note, when DATABASE_URL is unset;
//   c. a Node SDK in bucketing mode with live updates applying it: a visitor's flag changes by itself (the stream's
//      change downloads the file, which re-evaluates the visitor; no fetchFlags call, polling once an hour).
// Servers run in this process on 127.0.0.1 (rows a and c on the embedded store, the default one-instance setup).
// Times are wall-clock: `performance.timeOrigin + performance.now()` here and in the page (one machine, one
// clock), from just before the toggle request to the moment the new value shows.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { liveUpdatesOf } from '../server/src/app.js';
import { createAccess } from '../server/src/auth/create-access.js';
import { openPostgresStore } from '../server/src/store/postgres/postgres.js';
import type { Store } from '../server/src/store/store.js';
import { seedEnvironment, startApp, type Running } from '../test/server/support.js';
import { openFreshPgliteStore } from '../test/server/template-data-dir.js';
import { launchChromium } from '../test/support/chromium.js';
import { buildSdkBundles } from '../test/support/sdk-build.js';
import { LIVE_TOGGLE, LIVE_TOGGLE_TEXT } from '../test/e2e/live-sdk.js';
import { median, type Bench, type BenchRow } from './harness.js';
import {
  FLAG_DEFAULT as DEFAULT_TEXT,
  PROPAGATION_PAGE,
  watchNodeSdk,
  watchPage,
  type Watcher,
} from './propagation-watchers.js';

/** Changes timed per row (BENCH_PROPAGATION_CHANGES=10 for a quick look). */
const CHANGES = Number(process.env.BENCH_PROPAGATION_CHANGES ?? '50');
/** The longest one change may take to show before the row fails. */
const CHANGE_MAX_MS = 10_000;
/** What the flag shows while the campaign is active; paused, its default shows. */
const ACTIVE_TEXT = LIVE_TOGGLE_TEXT;
/** A toggle for everyone, shared with the fault tests (test/e2e/live-sdk.ts). */
const campaign = LIVE_TOGGLE;

/** An environment with the campaign, and a remote control token that may toggle it. */
interface Toggler {
  envId: string;
  apiKey: string;
  /** Whether the campaign is active now (it starts active). */
  readonly active: boolean;
  /** Pauses (false) or resumes (true) the campaign through `server`'s remote control API. */
  toggle(server: Running, active: boolean): Promise<void>;
}

const seedToggler = async (store: Store, server: Running): Promise<Toggler> => {
  const { envId, apiKey, accountId } = await seedEnvironment(store, [campaign]);
  const { access, clientSecret } = await createAccess(store, {
    accountId,
    name: 'propagation bench',
    actions: ['campaign.toggle'],
    environments: [envId],
  });
  const granted = await fetch(`${server.url}/oauth/${accountId}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: access.clientId,
      client_secret: clientSecret,
    }).toString(),
  });
  if (granted.status !== 200) throw new Error(`token: ${granted.status} ${await granted.text()}`);
  const token = ((await granted.json()) as { access_token: string }).access_token;
  let now = true;
  return {
    envId,
    apiKey,
    get active() {
      return now;
    },
    async toggle(target, active) {
      const res = await fetch(
        `${target.url}/v1/accounts/${accountId}/account_environments/${envId}/campaigns/${campaign.id}/toggle`,
        {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ state: active ? 'active' : 'paused' }),
        },
      );
      if (res.status !== 200) throw new Error(`toggle: ${res.status} ${await res.text()}`);
      now = active;
    },
  };
};

/** Nearest-rank percentile (of 50 changes, p99 is the slowest one). */
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const wallNow = (): number => performance.timeOrigin + performance.now();

/**
 * Waits until `server` holds `count` open streams. A change made before a client's first stream is open is
 * not sent to it (the stream opens at the current revision, and the SDK re-fetches only after a reconnect):
 * the figure is the time of a change to an open stream.
 */
const streamsOpen = async (server: Running, count: number): Promise<void> => {
  const deadline = Date.now() + CHANGE_MAX_MS;
  for (let check = 0; check < 10_000; check++) {
    if (liveUpdatesOf(server.app).streams.size >= count) return;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`propagation bench: ${count} streams did not open within ${CHANGE_MAX_MS} ms`);
};

/** Toggles CHANGES times through `via`; returns each change's delay until `watcher` shows it. */
const timeChanges = async (toggler: Toggler, via: Running, watcher: Watcher): Promise<number[]> => {
  const delays: number[] = [];
  // The watcher shows the current state before the first change (a row may follow another's changes).
  let active = toggler.active;
  await watcher.shown(active ? ACTIVE_TEXT : DEFAULT_TEXT, 0, CHANGE_MAX_MS);
  for (let i = 0; i < CHANGES; i++) {
    active = !active;
    const started = wallNow();
    await toggler.toggle(via, active);
    const shownAt = await watcher.shown(active ? ACTIVE_TEXT : DEFAULT_TEXT, started, CHANGE_MAX_MS);
    delays.push(shownAt - started);
  }
  return delays;
};

const rowOf = (figure: string, delays: number[], goalMs: number, note: string): BenchRow[] => {
  const p99 = percentile(delays, 99);
  return [
    { figure: `${figure}, median`, value: median(delays), unit: 'ms', note },
    {
      figure: `${figure}, p99`,
      value: p99,
      unit: 'ms',
      ratio: { value: p99 / goalMs, goal: `p99 ≤ ${goalMs} ms`, met: p99 <= goalMs },
      note: `${delays.length} changes; p99 by nearest rank (of 50, the slowest one); max ${Math.max(...delays).toFixed(1)} ms`,
    },
  ];
};

/** Two instances on one PostgreSQL schema of their own, dropped afterwards; null without DATABASE_URL. */
const openPostgresPair = async (): Promise<{
  stores: [Store, Store];
  drop: () => Promise<void>;
} | null> => {
  const url = process.env.DATABASE_URL;
  if (url === undefined || url === '') return null;
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const first = await openPostgresStore({ connectionString: url, schema });
  const second = await openPostgresStore({ connectionString: url, schema });
  return {
    stores: [first, second],
    drop: async () => {
      await second.close();
      await first.close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
};

const samePageRows = async (browser: Browser, sdkDir: string, pageDir: string): Promise<BenchRow[]> => {
  const store = await openFreshPgliteStore();
  const server = await startApp(store, { static: { demoDir: pageDir, sdkDir } });
  try {
    const toggler = await seedToggler(store, server);
    const page = await watchPage(browser, server.url, toggler);
    try {
      await streamsOpen(server, 1);
      const page1 = rowOf(
        'propagation: toggle → <feature-flag> re-rendered in Chromium, same instance',
        await timeChanges(toggler, server, page),
        1000,
        'embedded store; remote control API → stream → decision re-fetch → render',
      );
      const sdk = await watchNodeSdk(server.url, toggler);
      try {
        await streamsOpen(server, 2);
        const node = rowOf(
          'propagation: toggle → Node SDK (bucketing mode) applies it',
          await timeChanges(toggler, server, sdk),
          1000,
          'embedded store; stream → bucketing file download → re-evaluation; polling every 3600 s',
        );
        return [...page1, ...node];
      } finally {
        await sdk.close();
      }
    } finally {
      await page.close();
    }
  } finally {
    await server.close();
    await store.close();
  }
};

const secondInstanceRows = async (browser: Browser, sdkDir: string, pageDir: string): Promise<BenchRow[]> => {
  const figure =
    'propagation: toggle on instance 1 → <feature-flag> re-rendered through instance 2 (PostgreSQL)';
  const pair = await openPostgresPair();
  if (pair === null)
    return [
      {
        figure,
        value: 0,
        unit: 'ms',
        note: 'skipped: DATABASE_URL is unset (two instances need PostgreSQL)',
      },
    ];
  const [one, two] = pair.stores;
  const first = await startApp(one, { static: { demoDir: pageDir, sdkDir } });
  const second = await startApp(two, { static: { demoDir: pageDir, sdkDir } });
  try {
    const toggler = await seedToggler(one, first);
    const page = await watchPage(browser, second.url, toggler);
    try {
      await streamsOpen(second, 1);
      return rowOf(
        figure,
        await timeChanges(toggler, first, page),
        1500,
        'LISTEN/NOTIFY between the instances',
      );
    } finally {
      await page.close();
    }
  } finally {
    await second.close();
    await first.close();
    await pair.drop();
  }
};

/** The three propagation rows. */
export const bench: Bench = async () => {
  const sdkDir = buildSdkBundles();
  const pageDir = mkdtempSync(join(tmpdir(), 'feature-bench-propagation-'));
  writeFileSync(join(pageDir, 'index.html'), PROPAGATION_PAGE);
  const browser = await launchChromium();
  try {
    return [
      ...(await samePageRows(browser, sdkDir, pageDir)),
      ...(await secondInstanceRows(browser, sdkDir, pageDir)),
    ];
  } finally {
    await browser.close();
    rmSync(pageDir, { recursive: true, force: true });
    rmSync(sdkDir, { recursive: true, force: true });
  }
};
