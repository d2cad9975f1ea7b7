// The published OFREP web provider (`@openfeature/ofrep-web-provider`, unchanged) through the OpenFeature web
// SDK in Chromium, against the project's real server on 127.0.0.1 (test/support/wtr-server-commands.ts),
// through its recording proxy so that the test sees what went on the wire (PROTOCOL.md §18): values,
// variants, reasons, FLAG_NOT_FOUND, a wrong key, ETag/304 on the bulk route, and what the provider does with
// the `eventStreams` our bulk answer names (the environment's §17 stream).
import { assert } from '@open-wc/testing';
import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';
import {
  OpenFeature,
  ProviderEvents,
  ProviderStatus,
  type Client,
  type Provider,
} from '@openfeature/web-sdk';
import { executeServerCommand } from '@web/test-runner-commands';
import type { BucketingCampaign } from '../../../src/protocol/index.js';
import { until } from '../../support/until.js';
import type { WireRequest } from '../../support/wtr-server-commands.js';
import { campaign } from '../../elements/campaigns.js';

interface Started {
  url: string;
  proxyUrl: string;
}
interface Env {
  envId: string;
  apiKey: string;
}

/** The A/B test (the reference leaves the button gray) and a toggle for premium visitors. */
const campaigns = (green = 'green'): BucketingCampaign[] => [
  campaign('c1', [
    { id: 'v1', name: 'Original', flags: { btnColor: 'gray' }, allocation: 50, reference: true },
    { id: 'v2', name: 'Green', flags: { btnColor: green }, allocation: 50 },
  ]),
  {
    ...campaign(
      'c2',
      [{ id: 'v3', name: 'On', flags: { banner: true }, reference: true }],
      [{ targetings: [{ operator: 'EQUALS', key: 'plan', value: 'premium' }] }],
    ),
    type: 'toggle',
  },
];

let started: Started;
let domains = 0;

const newEnv = (): Promise<Env> =>
  executeServerCommand<Env, object>('server-env', { campaigns: campaigns() });
const bulkRequests = async (envId: string): Promise<WireRequest[]> =>
  (await executeServerCommand<WireRequest[], object>('proxy-requests', { envId })).filter(
    (request) => request.route === 'ofrep-bulk',
  );

/**
 * The provider as the web SDK's type: 0.4.3's declarations give `hooks` as `Hook[] | undefined`, which
 * `exactOptionalPropertyTypes` (tsconfig.json) keeps from matching `hooks?: Hook[]`; at run time it is one.
 */
const asProvider = (provider: OFREPWebProvider): Provider => provider as Provider;

/** A client in a domain of its own with `context`, bound (and initialised) to an OFREP web provider. */
const clientFor = async (
  provider: OFREPWebProvider,
  context: Record<string, string>,
): Promise<{ client: Client; domain: string }> => {
  const domain = `ofrep-web-${++domains}`;
  await OpenFeature.setContext(domain, context);
  await OpenFeature.setProviderAndWait(domain, asProvider(provider));
  return { client: OpenFeature.getClient(domain), domain };
};

/** The provider as a page would make it; cacheMode `disabled` so that tests share no localStorage. */
const providerFor = (env: Env, options: Partial<ConstructorParameters<typeof OFREPWebProvider>[0]> = {}) =>
  new OFREPWebProvider({
    baseUrl: started.proxyUrl,
    headers: [['Authorization', `Bearer ${env.apiKey}`]],
    cacheMode: 'disabled',
    ...options,
  });

/** A visitor the server puts in the A/B test's `variant`, asked of the single-flag route directly. */
const visitorIn = async (env: Env, variant: string): Promise<string> => {
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${started.url}/ofrep/v1/evaluate/flags/btnColor`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ context: { targetingKey: `web-${variant}-${i}` } }),
    });
    if (((await res.json()) as { variant?: string }).variant === variant) return `web-${variant}-${i}`;
  }
  throw new Error(`no visitor in ${variant} among 40`);
};

/** One EventSource a provider opened, and how many events of each name it has dispatched. */
interface HeardStream {
  url: string;
  source: EventSource;
  change: number;
  message: number;
}

/**
 * Runs `body` with the page's EventSource replaced by the native one plus listeners that count what each
 * connection dispatches: nothing on the wire changes; it shows which of our events reach which listener.
 */
const recordingStreams = async <T>(body: (heard: HeardStream[]) => Promise<T>): Promise<T> => {
  const heard: HeardStream[] = [];
  const Native = window.EventSource;
  class RecordingEventSource extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      const entry: HeardStream = { url: String(url), source: this, change: 0, message: 0 };
      heard.push(entry);
      this.addEventListener('change', () => (entry.change += 1));
      this.addEventListener('message', () => (entry.message += 1));
    }
  }
  window.EventSource = RecordingEventSource;
  try {
    return await body(heard);
  } finally {
    window.EventSource = Native;
  }
};

describe('OFREP through @openfeature/ofrep-web-provider in Chromium', () => {
  before(async function () {
    this.timeout(60_000);
    started = await executeServerCommand<Started, object>('server-start', {});
  });

  afterEach(() => OpenFeature.clearProviders());

  it('gives values, variants, reasons and metadata, and FLAG_NOT_FOUND for an unknown key', async () => {
    const env = await newEnv();
    const green = await visitorIn(env, 'Green');
    const { client } = await clientFor(providerFor(env, { changeDetection: 'none' }), {
      targetingKey: green,
      plan: 'premium',
    });
    assert.deepEqual(client.getStringDetails('btnColor', 'blue'), {
      flagKey: 'btnColor',
      value: 'green',
      variant: 'Green',
      reason: 'SPLIT',
      flagMetadata: {
        campaignId: 'c1',
        campaignType: 'ab',
        slug: 'c1',
        variationGroupId: 'c1-vg',
        variationId: 'v2',
        isReference: false,
      },
    });
    const banner = client.getBooleanDetails('banner', false);
    assert.deepEqual(
      [banner.value, banner.variant, banner.reason, banner.flagMetadata.campaignType],
      [true, 'On', 'TARGETING_MATCH', 'toggle'],
    );
    const unknown = client.getStringDetails('btnColour', 'blue');
    assert.deepEqual([unknown.value, unknown.reason, unknown.errorCode], ['blue', 'ERROR', 'FLAG_NOT_FOUND']);
  });

  it('sends the ETag back as If-None-Match and keeps its flags on the 304', async () => {
    const env = await newEnv();
    const context = { targetingKey: 'web-etag', plan: 'premium' };
    const { client, domain } = await clientFor(providerFor(env, { changeDetection: 'none' }), context);
    assert.equal(client.getBooleanValue('banner', false), true);
    // The same context again: the provider asks the bulk route again, conditionally.
    await OpenFeature.setContext(domain, { ...context });
    const requests = await bulkRequests(env.envId);
    assert.deepEqual(
      requests.map((r) => r.status),
      [200, 304],
    );
    assert.equal(requests[0]?.ifNoneMatch, null);
    assert.match(requests[1]?.ifNoneMatch ?? '', /^"[A-Za-z0-9_-]{32}"$/);
    assert.equal(client.getBooleanValue('banner', false), true);
  });

  it('reports a wrong API key: the 401 makes the provider FATAL', async () => {
    const env = await newEnv();
    const domain = `ofrep-web-${++domains}`;
    await OpenFeature.setContext(domain, { targetingKey: 'web-401' });
    const provider = providerFor({ ...env, apiKey: `${env.apiKey}x` }, { changeDetection: 'none' });
    const failed = await OpenFeature.setProviderAndWait(domain, asProvider(provider)).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.instanceOf(failed, Error);
    const client = OpenFeature.getClient(domain);
    assert.equal(client.providerStatus, ProviderStatus.FATAL);
    const details = client.getBooleanDetails('banner', false);
    assert.deepEqual([details.value, details.errorCode], [false, 'PROVIDER_FATAL']);
  });
  // The provider listens for `message` events only (SseManager's `addEventListener('message', …)` in 0.4.3),
  // so the bulk answer names the §17 stream with `?event=message`: the same events with no event name.
  it('follows a change through the stream our bulk answer names: one re-fetch, ConfigurationChanged', async function () {
    this.timeout(20_000);
    const env = await newEnv();
    const green = await visitorIn(env, 'Green');
    await recordingStreams(async (heard) => {
      const changes: string[][] = [];
      const { client } = await clientFor(providerFor(env), { targetingKey: green });
      client.addHandler(ProviderEvents.ConfigurationChanged, (details) =>
        changes.push(details?.flagsChanged ?? []),
      );
      const streamUrl = `${started.url}/v1/${env.envId}/stream?event=message`;
      const stream = await until(
        () => heard.find((h) => h.url === streamUrl && h.source.readyState === EventSource.OPEN),
        { what: `the provider's stream open at ${streamUrl}`, timeoutMs: 5_000 },
      );
      await executeServerCommand('server-campaigns', { envId: env.envId, campaigns: campaigns('teal') });
      await until(() => changes.length > 0 || undefined, { what: 'ConfigurationChanged', timeoutMs: 5_000 });
      assert.deepEqual(changes, [['btnColor']]);
      assert.equal(client.getStringValue('btnColor', 'blue'), 'teal');
      // Heard as `message`, never as a named `change`; one bulk request after the first.
      assert.isAbove(stream.message, 0);
      assert.equal(stream.change, 0);
      assert.equal((await bulkRequests(env.envId)).length, 2);
    });
  });

  it('follows a change by polling the bulk route, with 304s until it changes', async function () {
    this.timeout(20_000);
    const env = await newEnv();
    const green = await visitorIn(env, 'Green');
    const changes: string[][] = [];
    const { client } = await clientFor(providerFor(env, { changeDetection: 'polling', pollInterval: 200 }), {
      targetingKey: green,
    });
    client.addHandler(ProviderEvents.ConfigurationChanged, (details) =>
      changes.push(details?.flagsChanged ?? []),
    );
    assert.equal(client.getStringValue('btnColor', 'blue'), 'green');
    await until(async () => (await bulkRequests(env.envId)).some((r) => r.status === 304) || undefined, {
      what: 'a poll answered 304',
      timeoutMs: 5_000,
    });
    await executeServerCommand('server-campaigns', { envId: env.envId, campaigns: campaigns('teal') });
    await until(() => changes.length > 0 || undefined, { what: 'ConfigurationChanged', timeoutMs: 5_000 });
    assert.deepEqual(changes, [['btnColor']]);
    assert.equal(client.getStringValue('btnColor', 'blue'), 'teal');
    const requests = await bulkRequests(env.envId);
    assert.equal(requests[0]?.ifNoneMatch, null);
    assert.ok(
      requests.slice(1).every((r) => r.ifNoneMatch !== null),
      'every poll is conditional',
    );
    assert.ok(
      requests.some((r, i) => i > 0 && r.status === 200),
      'the poll after the change got 200',
    );
  });
});
