// <sdk-snippet>: how an application starts the SDK for an environment, in code and in a page; the API key is in
// the snippets only while it is shown once, else a placeholder says where it goes, so a snippet copied later
// never carries a key.
import { assert, expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/settings/sdk-snippet.js';
import { KEY_PLACEHOLDER, type SdkSnippet } from '../../../server/console/src/settings/sdk-snippet.js';

const copied = (el: SdkSnippet): string[] =>
  [...(el.shadowRoot?.querySelectorAll('copy-button') ?? [])].map((b) => b.value);

describe('<sdk-snippet>', () => {
  it('puts the placeholder in both snippets when no key is on screen, and the key while it is', async () => {
    const el = await fixture<SdkSnippet>(html`<sdk-snippet envId="env-1"></sdk-snippet>`);
    await expect(el).to.be.accessible();
    const [code, page] = copied(el);
    assert.include(code, `await Feature.start('env-1', '${KEY_PLACEHOLDER}');`);
    assert.include(page, `<feature-provider env-id="env-1" api-key="${KEY_PLACEHOLDER}" consent>`);
    assert.include(page, `${location.origin}/sdk/elements.js`);

    el.apiKey = 'key-new';
    await el.updateComplete;
    assert.isTrue(
      copied(el).every((snippet) => snippet.includes("'key-new'") || snippet.includes('"key-new"')),
    );
    assert.isFalse(copied(el).some((snippet) => snippet.includes(KEY_PLACEHOLDER)));
    await expect(el).to.be.accessible();
  });
});
