// What the bad-input catalogue shares: an app on each store with the SDK bundles folder, raw requests (bodies as
// text or bytes, any method, any content type), the assertions every case makes (a catalogue error with its
// cross-origin headers, never a 500), the good request of each route sent right after a bad one, and reads of
// the stored rows, so that "stored exactly" is checked on what the database gives back.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredRowReads } from '../../server/src/store/sql/collect-sql.js';
import type { ActivationRow, HitRow } from '../../server/src/store/collect-store.js';
import type { Store } from '../../server/src/store/store.js';
import { ERROR_CODES } from '../../src/protocol/index.js';
import {
  checkoutCampaign,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from './support.js';

/** Texts every string field is tried with. */
export const TEXTS = {
  NUL: 'a\u0000b',
  'lone surrogate': 'a\ud800b',
  '10 KB': 'x'.repeat(10 * 1024),
  emoji: '🎉 café ✓ 𝄞 👩‍💻',
} as const;

/** The name of a text of TEXTS. */
export type TextName = keyof typeof TEXTS;

/** True for a text the store can keep. */
export const storable = (name: TextName): boolean => name === '10 KB' || name === 'emoji';

/** Numbers every number field is tried with (NaN as a string: JSON has no NaN). */
export const NUMBERS = { '-1': -1, '1e308': 1e308, 'NaN as a string': 'NaN', fraction: 1.5 } as const;

/** What a running catalogue app gives its cases. */
export interface CatalogueApp {
  url: string;
  env: SeededEnvironment;
  store: Store & StoredRowReads;
  server: Running;
  /** The SDK bundles folder (holds core.js). */
  sdkDir: string;
}

/** Starts an app over `store` with an environment (the checkout campaign) and an SDK bundles folder. */
export const startCatalogueApp = async (store: Store): Promise<CatalogueApp> => {
  const sdkDir = mkdtempSync(join(tmpdir(), 'bad-input-sdk-'));
  writeFileSync(join(sdkDir, 'core.js'), 'export const core = 1;\n');
  const server = await startApp(store, { static: { demoDir: sdkDir, sdkDir } });
  try {
    const env = await seedEnvironment(store, [checkoutCampaign()]);
    return { url: server.url, env, store: store as Store & StoredRowReads, server, sdkDir };
  } catch (error) {
    await server.close();
    throw error;
  }
};

/** Stops what startCatalogueApp started. */
export const stopCatalogueApp = async (app: CatalogueApp): Promise<void> => {
  await app.server.close();
  rmSync(app.sdkDir, { recursive: true, force: true });
};

/** An answer, its body as text and as JSON (undefined when not JSON). */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** Sends one request: the body as given (a string is sent as is), the headers as given, nothing added. */
export const send = async (
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> } = {},
): Promise<Answer> => {
  const res = await fetch(url, {
    method: init.method ?? 'POST',
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
};

/** Raw bytes for a body: fetch sends them with no Content-Type of its own. */
export const bytes = (data: Buffer | string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);

/** POSTs `body` as JSON text. */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  send(url, {
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const what = (answer: Answer): string => `${answer.status} ${answer.text.slice(0, 300)}`;

/** The answer carries the CORS headers of the SDK-facing routes (§2.3). */
export const assertCors = (answer: Answer): void => {
  assert.equal(answer.headers.get('access-control-allow-origin'), '*', `CORS: ${what(answer)}`);
  assert.match(answer.headers.get('access-control-expose-headers') ?? '', /ETag/, `CORS: ${what(answer)}`);
};

/** The answer is a §2.4 error from the catalogue: this status and code, JSON, never a 500. */
export const assertError = (
  answer: Answer,
  status: number,
  code: string,
  options: { path?: string; cors?: 'sdk' | 'bundle' } = {},
): void => {
  assert.ok(answer.status < 500, `a client's input answered ${what(answer)}`);
  assert.equal(answer.status, status, what(answer));
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, what(answer));
  const body = answer.json as { code?: unknown; message?: unknown; details?: Array<{ path: string }> };
  assert.ok((ERROR_CODES as readonly unknown[]).includes(body.code), `not a catalogue code: ${what(answer)}`);
  assert.equal(body.code, code, what(answer));
  assert.equal(typeof body.message, 'string');
  if (options.path !== undefined) assert.equal(body.details?.[0]?.path, options.path, what(answer));
  if (options.cors === 'bundle') {
    assert.equal(answer.headers.get('access-control-allow-origin'), '*', what(answer));
    assert.equal(answer.headers.get('cross-origin-resource-policy'), 'cross-origin', what(answer));
  } else assertCors(answer);
};

/** A collect answer (§5.2). */
export interface Collected {
  accepted: number;
  duplicates: number;
  rejected: Array<{ index: number; message: string }>;
  rejectedCount: number;
}

/** The answer is a 200 collect answer; returns it. */
export const collected = (answer: Answer): Collected => {
  assert.equal(answer.status, 200, what(answer));
  assertCors(answer);
  const body = answer.json as Collected;
  assert.equal(typeof body.rejectedCount, 'number', what(answer));
  assert.ok(body.rejected.length <= 100, 'at most 100 rejections listed');
  return body;
};

let serial = 0;
/** A fresh idempotency id. */
export const freshHid = (prefix = 'hid'): string => `${prefix}-${process.pid}-${++serial}`;

/** The routes of the catalogue, by name. */
export type RouteName =
  'decision' | 'activation' | 'hits' | 'usage' | 'troubleshooting' | 'bucketing' | 'settings' | 'bundles';

/** Each route's method and path. */
export const ROUTES = (app: CatalogueApp): Record<RouteName, { method: string; path: string }> => ({
  decision: { method: 'POST', path: `/v2/${app.env.envId}/campaigns` },
  activation: { method: 'POST', path: '/v2/activate' },
  hits: { method: 'POST', path: '/events' },
  usage: { method: 'POST', path: '/events/analytics' },
  troubleshooting: { method: 'POST', path: '/events/troubleshooting' },
  bucketing: { method: 'GET', path: `/cdn/${app.env.envId}/bucketing.json` },
  settings: { method: 'GET', path: `/cdn/${app.env.envId}/accountSettings.json` },
  bundles: { method: 'GET', path: '/sdk/core.js' },
});

/** A valid EVENT hit. */
export const goodHit = (hid = freshHid('good')) => ({
  t: 'EVENT',
  vid: 'good-visitor',
  cuid: null,
  qt: 0,
  hid,
  ec: 'Action Tracking',
  ea: 'add_to_cart',
});

/** A valid activation. */
export const goodActivation = (hid = freshHid('good')) => ({
  vid: 'good-visitor',
  aid: null,
  caid: 'vg1',
  vaid: 'v2',
  qt: 0,
  hid,
});

/** A usage hit (§12). */
export const usageHit = (envId: string, cv: Record<string, string> = {}) => ({
  t: 'USAGE',
  cid: envId,
  vid: 'sdk-instance',
  cv: { version: '1', 'stack.name': 'feature-ts', 'stack.version': '0.1.0', ...cv },
});

/** Sends a good request to `route` and checks it is answered right (the app is fine after a bad one). */
export const assertGoodAfter = async (app: CatalogueApp, route: RouteName): Promise<void> => {
  const url = `${app.url}${ROUTES(app)[route].path}`;
  switch (route) {
    case 'decision': {
      const answer = await postJson(
        `${url}?sendContextEvent=false`,
        { visitorId: 'good-visitor', context: {} },
        { 'x-api-key': app.env.apiKey },
      );
      assert.equal(answer.status, 200, `good decision after: ${what(answer)}`);
      assert.equal((answer.json as { campaigns: unknown[] }).campaigns.length, 1);
      return;
    }
    case 'activation': {
      const answer = await postJson(url, { cid: app.env.envId, batch: [goodActivation()] });
      assert.equal(answer.status, 204, `good activation after: ${what(answer)}`);
      return;
    }
    case 'hits': {
      const answer = await postJson(url, { cid: app.env.envId, t: 'BATCH', h: [goodHit()] });
      assert.deepEqual(collected(answer), { accepted: 1, duplicates: 0, rejected: [], rejectedCount: 0 });
      return;
    }
    case 'usage':
    case 'troubleshooting': {
      const answer = await postJson(url, usageHit(app.env.envId));
      assert.equal(answer.status, 200, `good ${route} after: ${what(answer)}`);
      return;
    }
    case 'bucketing':
    case 'settings': {
      const answer = await send(url, { method: 'GET' });
      assert.equal(answer.status, 200, `good ${route} after: ${what(answer)}`);
      assertCors(answer);
      return;
    }
    case 'bundles': {
      const answer = await send(url, { method: 'GET' });
      assert.equal(answer.status, 200, `good bundle after: ${what(answer)}`);
      assert.equal(answer.text, 'export const core = 1;\n');
    }
  }
};

/** The stored hit with this idempotency id, or undefined. */
export const storedHit = async (app: CatalogueApp, hid: string): Promise<HitRow | undefined> =>
  (await app.store.listHits(app.env.envId)).find((row) => row.hid === hid);

/** The stored activation with this idempotency id, or undefined. */
export const storedActivation = async (app: CatalogueApp, hid: string): Promise<ActivationRow | undefined> =>
  (await app.store.listActivations(app.env.envId)).find((row) => row.hid === hid);
