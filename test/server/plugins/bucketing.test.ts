// The CDN files (§6) and conditional requests (§2.5), and propagation of changes between instances.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { BucketingFile } from '../../../src/protocol/index.js';
import { checkoutCampaign, describeOnEveryStore, premiumToggle, startApp } from '../support.js';
import { until } from '../../support/until.js';

/** An interval that never elapses during a test (setInterval's largest; a larger one would fire at once). */
const NEVER_MS = 2 ** 31 - 1;

describeOnEveryStore('bucketing file', [checkoutCampaign(), premiumToggle()], (fixture) => {
  void it('serves the file with ETag, Last-Modified, no-cache and CORS', async () => {
    const res = await fetch(`${fixture.server.url}/cdn/${fixture.env.envId}/bucketing.json`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('etag') ?? '', /^"[A-Za-z0-9_-]+"$/);
    const lastModified = Date.parse(res.headers.get('last-modified') ?? '');
    assert.ok(lastModified <= Date.parse(res.headers.get('date') ?? ''));
    const file = (await res.json()) as BucketingFile;
    assert.equal(file.panic, false);
    assert.deepEqual(
      file.campaigns.map((c) => c.id),
      ['c1', 'c2'],
    );
    assert.deepEqual(file.accountSettings, { enabledXPC: false, enabled1V1T: false });
    const settings = await fetch(`${fixture.server.url}/cdn/${fixture.env.envId}/accountSettings.json`);
    assert.deepEqual(await settings.json(), { accountSettings: { enabledXPC: false, enabled1V1T: false } });
  });

  void it('answers 304 on If-None-Match, and If-Modified-Since only without it', async () => {
    const url = `${fixture.server.url}/cdn/${fixture.env.envId}/bucketing.json`;
    // A publication in the second of the previous one carries the next second, and Last-Modified rises to it
    // once that second has come: it is final once it is earlier than Date, as it is here before comparing.
    const settled = (r: Response) =>
      Date.parse(r.headers.get('last-modified') ?? '') < Date.parse(r.headers.get('date') ?? '');
    const first = await until(
      async () => {
        const answer = await fetch(url);
        return settled(answer) && answer;
      },
      { what: 'a bucketing file whose Last-Modified is earlier than its Date' },
    );
    const etag = first.headers.get('etag') ?? '';
    const lastModified = first.headers.get('last-modified') ?? '';
    const byTag = await fetch(url, { headers: { 'if-none-match': etag } });
    assert.equal(byTag.status, 304);
    assert.equal(byTag.headers.get('access-control-allow-origin'), '*');
    assert.equal(byTag.headers.get('etag'), etag);
    assert.equal((await fetch(url, { headers: { 'if-modified-since': lastModified } })).status, 304);
    const both = await fetch(url, {
      headers: { 'if-none-match': '"other"', 'if-modified-since': lastModified },
    });
    assert.equal(both.status, 200);
    const old = await fetch(url, { headers: { 'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    assert.equal(old.status, 200);
  });

  void it('publishes every change with a new ETag and a later Last-Modified, even within one second', async () => {
    const url = `${fixture.server.url}/cdn/${fixture.env.envId}/bucketing.json`;
    const before = await fetch(url);
    const etag = before.headers.get('etag');
    const lastModified = Date.parse(before.headers.get('last-modified') ?? '');
    await fixture.store.setPanic(fixture.env.envId, true);
    await until(async () => (await fetch(url, { headers: { 'if-none-match': etag ?? '' } })).status === 200, {
      what: 'the panic to be published under a new ETag',
    });
    const after = await fetch(url);
    assert.equal(((await after.json()) as BucketingFile).panic, true);
    // The publication may carry the next second; Last-Modified shows it once that second has come.
    await until(
      async () => Date.parse((await fetch(url)).headers.get('last-modified') ?? '') > lastModified,
      {
        what: 'a later Last-Modified',
        timeoutMs: 2500,
      },
    );
    await fixture.store.setPanic(fixture.env.envId, false);
    await fixture.store.replaceCampaigns(fixture.env.envId, [checkoutCampaign(), premiumToggle()]);
  });

  void it('leaves paused campaigns out', async () => {
    await fixture.store.setCampaignState(fixture.env.envId, 'c2', 'paused');
    const url = `${fixture.server.url}/cdn/${fixture.env.envId}/bucketing.json`;
    await until(async () => ((await (await fetch(url)).json()) as BucketingFile).campaigns.length === 1, {
      what: 'the paused campaign to leave the file',
    });
    await fixture.store.setCampaignState(fixture.env.envId, 'c2', 'active');
  });

  void it('answers 404 for an unknown environment, with CORS', async () => {
    const res = await fetch(`${fixture.server.url}/cdn/unknown-env/bucketing.json`);
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(((await res.json()) as { code: string }).code, 'unknown_environment');
    const route = await fetch(`${fixture.server.url}/cdn/${fixture.env.envId}/other.json`);
    assert.equal(route.status, 404);
    assert.equal(route.headers.get('access-control-allow-origin'), '*');
  });

  void it('propagates a change to a second instance on the same database', async () => {
    const sibling = fixture.kind.openSibling === undefined ? fixture.store : await fixture.kind.openSibling();
    // The second instance's periodic check (the fallback for a missed notification) never runs: what it
    // learns, it learns by NOTIFY, however long a loaded machine takes to deliver it.
    const second = await startApp(sibling, { configCheckIntervalMs: NEVER_MS });
    try {
      const url = `${second.url}/cdn/${fixture.env.envId}/bucketing.json`;
      assert.equal(((await (await fetch(url)).json()) as BucketingFile).campaigns.length, 2);
      // The change is made through the first instance's store; the second learns it by NOTIFY.
      await fixture.store.replaceCampaigns(fixture.env.envId, [premiumToggle()]);
      await until(async () => ((await (await fetch(url)).json()) as BucketingFile).campaigns.length === 1, {
        what: 'the second instance to hear the campaigns replaced',
      });
      const decision = await fetch(`${second.url}/v2/${fixture.env.envId}/campaigns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': fixture.env.apiKey },
        body: JSON.stringify({ visitorId: 'v', context: { plan: 'premium' } }),
      });
      assert.deepEqual(
        ((await decision.json()) as { campaigns: Array<{ id: string }> }).campaigns.map((c) => c.id),
        ['c2'],
      );
      // A rotated key stops working at once on every instance.
      await fixture.store.rotateApiKey(fixture.env.envId);
      await until(
        async () => {
          const res = await fetch(`${second.url}/v2/${fixture.env.envId}/campaigns`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': fixture.env.apiKey },
            body: JSON.stringify({ visitorId: 'v' }),
          });
          return res.status === 403;
        },
        { what: 'the second instance to refuse the rotated-out key' },
      );
    } finally {
      await second.close();
      if (sibling !== fixture.store) await sibling.close();
    }
  });
});
