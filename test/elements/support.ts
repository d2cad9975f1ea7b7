// Support for the elements' browser tests: the project's server on 127.0.0.1 behind the holding proxy
// (test/support/wtr-server-commands.ts), an environment per test, providers built from options, and waits on
// what the server received.
import { executeServerCommand } from '@web/test-runner-commands';
import { Event as EventHit, EventCategory } from '../../src/core/index.js';
import '../../src/elements/define.js';
import type { FeatureProvider } from '../../src/elements/index.js';
import type { BucketingCampaign, CampaignReport, Decision } from '../../src/protocol/index.js';
import { until } from '../support/until.js';
import type { StoredActivation, StoredHit, WireRequest } from '../support/wtr-server-commands.js';

export * from './campaigns.js';

/** The two decision modes every concept runs in: `mode` absent (decision API) and `mode="bucketing"`. */
export const MODES = [
  { name: 'decision API', mode: null },
  { name: 'bucketing', mode: 'bucketing' },
] as const;

interface Started {
  url: string;
  proxyUrl: string;
}

let started: Promise<Started> | undefined;

/** The server (started once per run) and the proxy in front of it, which every provider talks to. */
export const server = (): Promise<Started> =>
  (started ??= executeServerCommand<Started, object>('server-start', {}));

// The first test file to ask opens the store, which takes seconds (more on a busy machine): a root hook of
// every file that uses this module waits for it with room to spare, so no test's own timeout pays for it.
before(async function () {
  this.timeout(60_000);
  await server();
});

/** A seeded environment. */
export interface Env {
  envId: string;
  apiKey: string;
}

/** A fresh environment holding `campaigns`, on the shared store. */
export const newEnv = async (campaigns: BucketingCampaign[]): Promise<Env> => {
  await server();
  return executeServerCommand<Env, object>('server-env', { campaigns });
};

/** What the store kept for `envId`, in arrival order. */
export const received = (envId: string) =>
  executeServerCommand<Received, object>('server-received', { envId });

/** Replaces the campaigns of `envId`; resolves once the server answers from them. */
export const setCampaigns = (envId: string, campaigns: BucketingCampaign[]) =>
  executeServerCommand('server-campaigns', { envId, campaigns });

/** The §14.5 report of a campaign. */
export const report = (envId: string, campaignId: string) =>
  executeServerCommand<CampaignReport, object>('server-report', { envId, campaignId });

/** Holds the answers of `envId`'s decision and bucketing routes until `release`. */
export const hold = (envId: string) => executeServerCommand('proxy-hold', { envId });

/** Sends the held answers of `envId` and stops holding. */
export const release = (envId: string) => executeServerCommand('proxy-release', { envId });

/** The requests of `envId` that went through the proxy, in arrival order. */
export const wire = (envId: string) =>
  executeServerCommand<WireRequest[], object>('proxy-requests', { envId });

/** A visitor id no other test uses (the SDK's IndexedDB caches outlive a test). */
export const newVisitorId = (name: string): string => `${name}-${crypto.randomUUID().slice(0, 8)}`;

/** What a provider is made of. */
export interface ProviderOptions {
  env: Env;
  mode?: string | null;
  visitorId?: string;
  consent?: boolean;
  authenticated?: boolean;
  context?: Record<string, string | number | boolean>;
  timeout?: number;
  /** The `cache-mode` attribute. */
  cacheMode?: string;
  /** The `live` attribute. */
  live?: string;
  /** A decision body for the bootstrap script. */
  bootstrap?: Decision;
  /** Inner HTML (flags and hits). */
  content?: string;
}

/** A `<feature-provider>` (not yet connected) pointed at the proxy, logging nothing. */
export const makeProvider = async (options: ProviderOptions): Promise<FeatureProvider> => {
  const { proxyUrl } = await server();
  const provider = document.createElement('feature-provider');
  provider.setAttribute('env-id', options.env.envId);
  provider.setAttribute('api-key', options.env.apiKey);
  provider.setAttribute('api-url', proxyUrl);
  provider.setAttribute('log-level', 'none');
  if (options.mode) provider.setAttribute('mode', options.mode);
  if (options.visitorId !== undefined) provider.setAttribute('visitor-id', options.visitorId);
  if (options.consent !== false) provider.setAttribute('consent', '');
  if (options.authenticated) provider.setAttribute('authenticated', '');
  if (options.context) provider.setAttribute('context', JSON.stringify(options.context));
  if (options.timeout !== undefined) provider.setAttribute('timeout', String(options.timeout));
  if (options.cacheMode !== undefined) provider.setAttribute('cache-mode', options.cacheMode);
  if (options.live !== undefined) provider.setAttribute('live', options.live);
  provider.innerHTML = options.content ?? '';
  if (options.bootstrap) {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.textContent = JSON.stringify(options.bootstrap);
    provider.prepend(script);
  }
  return provider;
};

/**
 * Resolves with the first `feature-ready` detail of `provider` itself (listen before connecting it): the event
 * bubbles, so a nested provider's would reach it too.
 */
export const readyOf = (provider: FeatureProvider) =>
  new Promise<{ visitorId: string; source: string }>((resolve) => {
    const listener = (e: CustomEvent<{ visitorId: string; source: string }>) => {
      if (e.target !== provider) return;
      provider.removeEventListener('feature-ready', listener);
      resolve(e.detail);
    };
    provider.addEventListener('feature-ready', listener);
  });

/** What the store received. */
export interface Received {
  activations: StoredActivation[];
  hits: StoredHit[];
}

/**
 * The rows of the visitors `ids` (current or anonymous ids). Tests read only their own visitors' rows: every
 * provider of the page shares the SDK's IndexedDB hit cache, and a provider that starts sends what another
 * environment's provider left there under its own environment (see the skipped test in
 * nested-providers.browser.test.ts), so another test's leftovers can land in this test's environment.
 */
export const mine = (got: Received, ...ids: string[]): Received => ({
  activations: got.activations.filter(
    (a) => ids.includes(a.visitorId) || (a.anonymousId !== null && ids.includes(a.anonymousId)),
  ),
  hits: got.hits.filter(
    (h) => ids.includes(h.visitorId) || (h.customerId !== null && ids.includes(h.customerId)),
  ),
});

/** SPEC.md's default `poolMaxSize`: a pool that holds this many items is sent at once (PROTOCOL.md §5.3). */
export const POOL_MAX_SIZE = 10;

/** Pools `count` event hits `action` labelled `label` for the provider's visitor. */
export const pool = async (provider: FeatureProvider, count: number, action: string, label: string) => {
  await Promise.all(
    Array.from({ length: count }, () =>
      provider.client.sendHit(new EventHit({ category: EventCategory.Action_Tracking, action, label })),
    ),
  );
};

/**
 * Waits until the server answered (200) a hits request of `envId` whose body contains `text`, and returns
 * what the store holds: a 2xx answer means the hits are stored (PROTOCOL.md §5.2).
 */
export const delivered = async (envId: string, text: string, what: string): Promise<Received> => {
  await until(
    async () =>
      (await wire(envId)).some(
        (r) => r.route === 'events' && r.status === 200 && JSON.stringify(r.body).includes(text),
      ),
    { what, timeoutMs: 4000, intervalMs: 25 },
  );
  return received(envId);
};

/**
 * Fills the provider's tracking pool with event hits `action`, which sends it at once instead of at the next
 * batch interval (5 s), and returns what the store holds once they are stored. A pool is sent in order,
 * activations first, one request at a time: everything pooled before these hits is stored too, so "nothing
 * else arrived" is then a fact, not a guess about timing.
 */
export const barrier = async (
  provider: FeatureProvider,
  envId: string,
  action = 'barrier',
): Promise<Received> => {
  const label = crypto.randomUUID();
  await pool(provider, POOL_MAX_SIZE, action, label);
  return delivered(envId, label, `the ${action} hits`);
};

/** Runs every microtask queued so far and those they queue (a bounded chain), still inside the same task. */
export const drainMicrotasks = async (): Promise<void> => {
  for (let i = 0; i < 100; i++) await Promise.resolve();
};
