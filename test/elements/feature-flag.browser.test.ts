// <feature-flag> rendering against the real server, in both modes: the variation as text, templates chosen by
// variation (id and name), by value and by fallback, type inference from `default` and the `type` attribute.
import { assert, expect, fixture, html } from '@open-wc/testing';
import type { FeatureErrorDetail, FeatureFlag, FeatureProvider } from '../../src/elements/index.js';
import {
  MODES,
  campaign,
  checkout,
  makeProvider,
  newEnv,
  newVisitorId,
  readyOf,
  type Env,
} from './support.js';

/** Flags of every type, one variation at 100 %. */
const typed = () =>
  campaign('typed', [
    {
      id: 'v-typed',
      name: 'Typed',
      flags: { count: 3, enabled: true, config: { size: 'L', tags: ['a'] }, label: '42', title: 'Hello' },
    },
  ]);

/** Connects a provider for a new visitor of `env` holding `content`; resolves once its flags are fetched. */
const render = async (env: Env, mode: string | null, content: string): Promise<FeatureProvider> => {
  const provider = await makeProvider({ env, mode, visitorId: newVisitorId('flag'), content });
  const ready = readyOf(provider);
  await fixture(html`${provider}`);
  assert.strictEqual((await ready).source, 'fetch');
  await Promise.all([...provider.querySelectorAll('feature-flag')].map((f) => f.updateComplete));
  return provider;
};

const flagIn = (provider: FeatureProvider, selector: string): FeatureFlag => {
  const found = provider.querySelector<FeatureFlag>(selector);
  if (found === null) throw new Error(`no flag ${selector}`);
  return found;
};

/** The text the flag shows: its children but the (inert) templates and the loading slot. */
const shown = (el: Element): string =>
  [...el.childNodes]
    .filter((n) => !(n instanceof HTMLTemplateElement) && !(n instanceof Element && n.slot === 'loading'))
    .map((n) => n.textContent ?? '')
    .join('')
    .trim();

for (const { name, mode } of MODES) {
  describe(`<feature-flag> rendering (${name})`, () => {
    let env: Env;
    before(async () => {
      env = await newEnv([checkout(), typed()]);
    });

    it('shows the variation as text in light DOM, the default for a missing key, and is accessible', async () => {
      const provider = await render(
        env,
        mode,
        `<feature-flag key="btnColor" default="red"></feature-flag>
         <feature-flag key="nothing" default="plain"></feature-flag>`,
      );
      const color = flagIn(provider, '[key="btnColor"]');
      assert.strictEqual(shown(color), 'green');
      assert.strictEqual(color.value, 'green');
      assert.strictEqual(color.shadowRoot, null);
      assert.strictEqual(color.hasAttribute('aria-busy'), false);
      assert.strictEqual(shown(flagIn(provider, '[key="nothing"]')), 'plain');
      await expect(color).to.be.accessible();
    });

    it('stamps the template of the variation by id, else by name, else by value, else the fallback', async () => {
      const provider = await render(
        env,
        mode,
        `<feature-flag id="by-id" key="btnColor" default="red">
           <template variation="v-original"><b>original</b></template>
           <template variation="v-green"><b class="chosen">green by id</b></template>
           <template value="green"><b>by value</b></template>
         </feature-flag>
         <feature-flag id="by-name" key="btnColor" default="red">
           <template value="green"><b>by value</b></template>
           <template variation="Green"><b class="chosen">green by name</b></template>
         </feature-flag>
         <feature-flag id="by-value" key="btnColor" default="red">
           <template variation="Original"><b>original</b></template>
           <template fallback><b>fallback</b></template>
           <template value="green"><b class="chosen">green by value</b></template>
         </feature-flag>
         <feature-flag id="by-fallback" key="btnColor" default="red">
           <template variation="Original"><b>original</b></template>
           <template value="blue"><b>blue</b></template>
           <template fallback><b class="chosen">fallback</b></template>
         </feature-flag>
         <feature-flag id="default-by-value" key="nothing" default="plain">
           <template value="plain"><b class="chosen">the default's template</b></template>
         </feature-flag>`,
      );
      assert.strictEqual(shown(flagIn(provider, '#by-id')), 'green by id');
      assert.strictEqual(shown(flagIn(provider, '#by-name')), 'green by name');
      assert.strictEqual(shown(flagIn(provider, '#by-value')), 'green by value');
      assert.strictEqual(shown(flagIn(provider, '#by-fallback')), 'fallback');
      assert.strictEqual(shown(flagIn(provider, '#default-by-value')), "the default's template");
      // Stamped into light DOM, so page CSS styles them.
      assert.lengthOf(provider.querySelectorAll('feature-flag > b.chosen'), 5);
      await expect(provider).to.be.accessible();
    });

    it('infers the type from the default and shows the default when the value has another type', async () => {
      const provider = await render(
        env,
        mode,
        `<feature-flag id="number" key="count" default="0"></feature-flag>
         <feature-flag id="boolean" key="enabled" default="false"></feature-flag>
         <feature-flag id="json" key="config" default="{}"></feature-flag>
         <feature-flag id="string" key="title" default="Hi"></feature-flag>
         <feature-flag id="text-as-number" key="label" default="0"></feature-flag>
         <feature-flag id="number-as-text" key="count" default="none"></feature-flag>`,
      );
      assert.strictEqual(flagIn(provider, '#number').value, 3);
      assert.strictEqual(shown(flagIn(provider, '#number')), '3');
      assert.strictEqual(flagIn(provider, '#boolean').value, true);
      assert.strictEqual(shown(flagIn(provider, '#boolean')), 'true');
      assert.deepEqual(flagIn(provider, '#json').value, { size: 'L', tags: ['a'] });
      assert.deepEqual(JSON.parse(shown(flagIn(provider, '#json'))), { size: 'L', tags: ['a'] });
      assert.strictEqual(shown(flagIn(provider, '#string')), 'Hello');
      // "42" is text, the default 0 a number: the default is shown (PROTOCOL.md §9.3).
      assert.strictEqual(flagIn(provider, '#text-as-number').value, 0);
      assert.strictEqual(shown(flagIn(provider, '#text-as-number')), '0');
      assert.strictEqual(flagIn(provider, '#number-as-text').value, 'none');
      assert.strictEqual(shown(flagIn(provider, '#number-as-text')), 'none');
    });

    it('the type attribute overrides the inferred type; an unknown one is reported', async () => {
      const errors: FeatureErrorDetail[] = [];
      const listen = (e: CustomEvent<FeatureErrorDetail>) => errors.push(e.detail);
      document.addEventListener('feature-error', listen);
      try {
        const provider = await render(
          env,
          mode,
          `<feature-flag id="label" key="label" default="0" type="string"></feature-flag>
           <feature-flag id="count" key="count" default="7" type="string"></feature-flag>
           <feature-flag id="json" key="config" default="" type="json"></feature-flag>
           <feature-flag id="bool" key="enabled" default="" type="boolean"></feature-flag>
           <feature-flag id="wrong" key="count" default="5" type="integer"></feature-flag>`,
        );
        assert.strictEqual(flagIn(provider, '#label').value, '42');
        assert.strictEqual(shown(flagIn(provider, '#label')), '42');
        assert.strictEqual(flagIn(provider, '#count').value, '7');
        assert.deepEqual(flagIn(provider, '#json').value, { size: 'L', tags: ['a'] });
        assert.strictEqual(flagIn(provider, '#bool').value, true);
        // An unknown type falls back to the inferred one (number from "5").
        assert.strictEqual(flagIn(provider, '#wrong').value, 3);
        assert.deepEqual(
          errors.map((e) => e.reason),
          ['invalid-attribute'],
        );
        assert.include(errors[0]?.message, 'type="integer"');
      } finally {
        document.removeEventListener('feature-error', listen);
      }
    });
  });
}
