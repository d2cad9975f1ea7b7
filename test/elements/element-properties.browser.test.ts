// The elements' properties (src/elements/element-properties.ts, lit's `static properties`): an attribute
// sets its property at once, a property is written to its attribute at the next update, a removed attribute
// gives the default back, and initial defaults are never written into the page. Elements without a provider
// (or not connected) start no SDK, so these need no server.
import { assert, fixture, html } from '@open-wc/testing';
import '../../src/elements/define.js';
import { FeatureFlag, FeatureHit } from '../../src/elements/index.js';
import { eventHit } from '../../src/elements/hit-builders.js';

describe('element properties', () => {
  it('text: the attribute sets the property, the property its attribute at the next update', async () => {
    const hit = await fixture<FeatureHit>(html`<feature-hit action="buy"></feature-hit>`);
    assert.strictEqual(hit.action, 'buy');
    assert.strictEqual(hit.label, null);
    // The initial nulls are defaults: nothing was written into the page.
    assert.deepEqual(hit.getAttributeNames(), ['action'], 'no attribute written for a default');

    hit.label = 'hero';
    await hit.updateComplete;
    assert.strictEqual(hit.getAttribute('label'), 'hero');
    hit.label = null;
    await hit.updateComplete;
    assert.isFalse(hit.hasAttribute('label'));
    hit.removeAttribute('action');
    assert.strictEqual(hit.action, null, 'a removed attribute gives the default back');
  });

  it('number: undefined when absent, NaN when blank (reported by the element), else the number', async () => {
    const hit = await fixture<FeatureHit>(html`<feature-hit action="buy" value="3"></feature-hit>`);
    assert.strictEqual(hit.value, 3);
    hit.setAttribute('value', '  ');
    assert.isNaN(hit.value);
    hit.removeAttribute('value');
    assert.strictEqual(hit.value, undefined);
    hit.value = 12;
    await hit.updateComplete;
    assert.strictEqual(hit.getAttribute('value'), '12');
  });

  it('boolean and object properties of the provider read their attributes (no SDK starts unconnected)', () => {
    const provider = document.createElement('feature-provider');
    assert.strictEqual(provider.consent, false);
    assert.deepEqual(provider.context, {});
    provider.setAttribute('consent', '');
    provider.setAttribute('context', '{"plan":"premium"}');
    provider.setAttribute('polling-interval', '30');
    assert.strictEqual(provider.consent, true);
    assert.deepEqual(provider.context, { plan: 'premium' });
    assert.strictEqual(provider.pollingInterval, 30);
    provider.setAttribute('context', '{not json');
    assert.strictEqual(provider.context, null, 'what does not parse is null, which the provider reports');
    provider.removeAttribute('context');
    provider.removeAttribute('consent');
    assert.deepEqual(provider.context, {});
    assert.strictEqual(provider.consent, false);
  });

  it("a flag's key falls back to `flag`; setting `key` writes its attribute at once", async () => {
    const flag = await fixture<FeatureFlag>(
      html`<feature-flag flag="btnColor" default="red"></feature-flag>`,
    );
    assert.strictEqual(flag.key, 'btnColor');
    assert.isFalse(flag.hasAttribute('key'), 'the fallback is not written as a key');
    flag.key = 'size';
    assert.strictEqual(flag.getAttribute('key'), 'size');
    assert.strictEqual(flag.key, 'size');
    flag.removeAttribute('key');
    assert.strictEqual(flag.key, 'btnColor');
  });

  it('properties a page set before the tag was defined apply once it is (a late module, a framework)', async () => {
    const early = [document.createElement('late-feature-hit'), document.createElement('late-feature-flag')];
    Object.assign(early[0] ?? {}, { action: 'buy', value: 3 });
    Object.assign(early[1] ?? {}, { key: 'size', default: 'S' });
    customElements.define('late-feature-hit', class extends FeatureHit {});
    customElements.define('late-feature-flag', class extends FeatureFlag {});
    await fixture(html`<div>${early}</div>`);
    const [hit, flag] = early;
    if (!(hit instanceof FeatureHit) || !(flag instanceof FeatureFlag)) throw new Error('not upgraded');
    await Promise.all([hit.updateComplete, flag.updateComplete]);
    assert.deepEqual(
      [hit.action, hit.value, hit.getAttribute('action'), hit.getAttribute('value')],
      ['buy', 3, 'buy', '3'],
    );
    assert.deepEqual([flag.key, flag.getAttribute('key'), flag.value], ['size', 'size', 'S']);
  });

  it("a hit's value a framework set to text is read as the attribute would be", () => {
    const settings = { action: 'buy', category: null, label: null };
    const fromText = eventHit({ ...settings, value: '3' as unknown as number });
    assert.strictEqual(fromText.problem, null);
    assert.strictEqual((fromText.hit as unknown as { value?: number }).value, 3);
    assert.isNotNull(eventHit({ ...settings, value: 'three' as unknown as number }).problem);
  });

  it('the event map types the listeners of elements and document', async () => {
    const flag = await fixture<FeatureFlag>(html`<feature-flag key="k" default="d"></feature-flag>`);
    const reasons: string[] = [];
    // `e.detail.reason` compiles only because feature-error is in HTMLElementEventMap and DocumentEventMap.
    const onDocument = (e: DocumentEventMap['feature-error']) => reasons.push(`document:${e.detail.reason}`);
    document.addEventListener('feature-error', onDocument);
    flag.addEventListener('feature-error', (e) => reasons.push(e.detail.reason));
    flag.setAttribute('type', 'colour');
    await flag.updateComplete;
    document.removeEventListener('feature-error', onDocument);
    assert.deepEqual(reasons, ['invalid-attribute', 'document:invalid-attribute']);
  });
});
