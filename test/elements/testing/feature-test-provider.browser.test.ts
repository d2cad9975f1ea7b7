// feature-ts/testing's <feature-provider>: the flags it is given render through the real <feature-flag> and
// <feature-hit>, their events fire, and nothing leaves the page: every way a page sends (fetch, XHR, beacons,
// event streams) is watched, and the browser's own resource timing is read as an independent witness.
import { assert, expect, fixture, html, oneEvent } from '@open-wc/testing';
import { Event as EventHit, Screen as ScreenHit } from '../../../src/core/index.js';
import '../../../src/elements/testing/index.js';
import type {
  FeatureFlag,
  FeatureFlagsChangeDetail,
  FeatureReadyDetail,
} from '../../../src/elements/index.js';
import type { FeatureTestHitDetail, FeatureTestProvider } from '../../../src/elements/testing/index.js';
import { until } from '../../support/until.js';
import { requestsDuring } from '../requests-during.js';

const flagsOf = (provider: Element): FeatureFlag[] => [...provider.querySelectorAll('feature-flag')];

describe('feature-ts/testing <feature-provider>', () => {
  it('renders the forced variation, fires every event, records exposure and hits, and sends nothing', async () => {
    let provider: FeatureTestProvider | undefined;
    const requests = await requestsDuring(async () => {
      const el = document.createElement('feature-provider') as unknown as FeatureTestProvider;
      const statuses: string[] = [];
      const ready: FeatureReadyDetail[] = [];
      const changes: unknown[] = [];
      el.addEventListener('feature-status', (e) => statuses.push(e.detail.status));
      el.addEventListener('feature-ready', (e) => ready.push(e.detail));
      el.addEventListener('feature-change', (e) => changes.push(e.detail));
      el.setAttribute('env-id', 'ENV_ID');
      el.setAttribute('api-key', 'API_KEY');
      el.setAttribute('visitor-id', 'visitor-7');
      el.setAttribute('consent', '');
      el.setAttribute('variation', 'Green');
      el.setAttribute('flags', '{"btnColor":"#1a7f37","btnText":"Buy now"}');
      el.innerHTML = `
        <feature-hit type="screen" location="/checkout"></feature-hit>
        <feature-flag key="btnColor" default="#57606a" exposure="render">
          <template variation="Green"><feature-hit action="add_to_cart"><button>Green</button></feature-hit></template>
          <template fallback><button>Fallback</button></template>
        </feature-flag>
        <feature-flag key="btnText" default="Add to cart" exposure="render"></feature-flag>`;
      provider = await fixture<FeatureTestProvider>(html`${el}`);
      assert.deepEqual(statuses, ['SDK_INITIALIZED']);
      assert.deepEqual(ready, [{ visitorId: 'visitor-7', source: 'forced' }]);
      const [color, text] = flagsOf(el);
      await Promise.all([color?.updateComplete, text?.updateComplete]);
      assert.strictEqual(el.querySelector('button')?.textContent, 'Green', 'the Green template');
      assert.strictEqual(text?.textContent, 'Buy now');
      assert.sameDeepMembers(changes, [
        { key: 'btnColor', value: '#1a7f37', variationId: 'Green' },
        { key: 'btnText', value: 'Buy now', variationId: 'Green' },
      ]);
      // exposure="render": both report at once, as their `feature-exposed` says.
      await until(() => el.exposures.length === 2 || null, { what: 'two exposures' });
      assert.sameDeepMembers(
        [...el.exposures],
        [
          {
            key: 'btnColor',
            campaignId: 'forced',
            variationGroupId: 'forced',
            variationId: 'Green',
            variationName: 'Green',
          },
          {
            key: 'btnText',
            campaignId: 'forced',
            variationGroupId: 'forced',
            variationId: 'Green',
            variationName: 'Green',
          },
        ],
      );
      // The screen hit first (its builder loads once), so the next feature-test-hit is the click's.
      await until(() => el.hits.length === 1 || null, { what: 'the screen hit' });
      const [screen] = el.hits;
      assert.instanceOf(screen, ScreenHit);
      assert.strictEqual(screen instanceof ScreenHit && screen.location, '/checkout');
      const hit = oneEvent<CustomEvent<FeatureTestHitDetail>>(el, 'feature-test-hit');
      el.querySelector('button')?.click();
      const sent = (await hit).detail.hit;
      assert.instanceOf(sent, EventHit);
      assert.strictEqual(sent instanceof EventHit && sent.action, 'add_to_cart');
      assert.deepEqual(
        el.hits.map((h) => h.type),
        ['SCREENVIEW', 'EVENT'],
      );
    });
    assert.deepEqual(requests, [], 'nothing was requested');
    await expect(provider).to.be.accessible();
  });

  it('a change of flags re-renders in place and sends feature-flags-change with the keys it changed', async () => {
    const provider = await fixture<FeatureTestProvider>(html`
      <feature-provider flags="headline:A,discount:10">
        <feature-flag key="headline" default="Original"></feature-flag>
        <feature-flag key="discount" default="0"></feature-flag>
      </feature-provider>
    `);
    const [headline, discount] = flagsOf(provider);
    await Promise.all([headline?.updateComplete, discount?.updateComplete]);
    assert.strictEqual(headline?.textContent, 'A');
    assert.strictEqual(discount?.value, 10, 'key:value reads 10 as a number');
    const changed = oneEvent(provider, 'feature-flags-change');
    provider.flags = { headline: 'B', discount: 10 };
    assert.deepEqual(((await changed) as CustomEvent<FeatureFlagsChangeDetail>).detail, {
      keys: ['headline'],
    });
    await headline?.updateComplete;
    assert.strictEqual(headline?.textContent, 'B');
    provider.flags = null;
    await provider.updateComplete;
    await headline?.updateComplete;
    assert.strictEqual(headline?.textContent, 'Original', 'no flags: the default');
  });

  it('without consent, as on a live page, no exposure or hit is recorded', async () => {
    const provider = await fixture<FeatureTestProvider>(html`
      <feature-provider flags='{"headline":"B"}'>
        <feature-flag key="headline" default="A" exposure="manual">
          <feature-hit action="headline_click"><button>go</button></feature-hit>
        </feature-flag>
      </feature-provider>
    `);
    const [flag] = flagsOf(provider);
    await flag?.updateComplete;
    await flag?.reportExposure();
    const hit = provider.querySelector('feature-hit');
    await hit?.send();
    assert.deepEqual([...provider.exposures], []);
    assert.deepEqual([...provider.hits], []);
    // Consent given: the same calls are recorded.
    provider.consent = true;
    await provider.updateComplete;
    await flag?.reportExposure();
    await hit?.send();
    assert.lengthOf(provider.exposures, 1);
    assert.lengthOf(provider.hits, 1);
  });

  it('flags that are not an object are reported once and every flag shows its default', async () => {
    const errors: unknown[] = [];
    const listen = (e: Event) => errors.push((e as CustomEvent).detail);
    document.addEventListener('feature-error', listen);
    try {
      const provider = await fixture<FeatureTestProvider>(html`
        <feature-provider flags='{"headline":'>
          <feature-flag key="headline" default="A"></feature-flag>
        </feature-provider>
      `);
      const [flag] = flagsOf(provider);
      await flag?.updateComplete;
      assert.strictEqual(flag?.textContent, 'A');
    } finally {
      document.removeEventListener('feature-error', listen);
    }
    assert.deepEqual(errors, [
      {
        reason: 'invalid-attribute',
        message: 'flags: {"headline": is not a JSON object such as {"headline":"B"}. No flag is forced.',
      },
    ]);
  });
});
