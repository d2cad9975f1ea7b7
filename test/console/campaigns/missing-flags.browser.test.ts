// <campaign-editor> before a save that would leave flags to the page's defaults: a variation that leaves out a key
// the others set, or sets no flag at all, holds the save back with an inline warning naming the variation and
// the key, and "Save anyway" sends it as typed. A cell set to "Not set (default)", as a reference does to keep
// the page's default, is a choice: it is sent as null (PROTOCOL.md §9.1) without a warning.
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import '../../../server/console/src/campaigns/campaign-editor.js';
import type { CampaignEditor } from '../../../server/console/src/campaigns/campaign-editor.js';
import { StubApi, campaignOf, inShadow, mount, must, typeInto, until } from '../console-fixture.js';
import type { BodyGroups } from './draft-harness.js';

const LIST = '/environments/env-1/campaigns?_page=1&_max_per_page=100';
const PATCH = 'PATCH /environments/env-1/campaigns/camp-1';

const opened = async () => {
  const campaign = campaignOf();
  const api = new StubApi({
    'GET /environments/env-1/campaigns/camp-1': campaign,
    [`GET ${LIST}`]: {
      items: [campaign],
      current_items_count: 1,
      current_page: 1,
      total_count: 1,
      items_per_page: 100,
      last_page: 1,
    },
    [PATCH]: (call: { body: Record<string, unknown> }) => ({ ...campaign, ...call.body }),
  });
  const { el } = await mount<CampaignEditor>(
    html`<campaign-editor .campaignId=${'camp-1'}></campaign-editor>`,
    api,
  );
  await until(() => el.shadowRoot?.querySelector('[data-testid=flag-grid-0]') !== null, { what: 'the grid' });
  return { el, api };
};

const button = (el: CampaignEditor, text: RegExp): HTMLButtonElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent.trim())),
    String(text),
  );

/** Adds the flag `key` and types the values of the variations in order (undefined: left as it is). */
const addFlag = async (el: CampaignEditor, key: string, texts: ReadonlyArray<string | undefined>) => {
  button(el, /^Add flag$/).click();
  await el.updateComplete;
  const f = (el.shadowRoot?.querySelectorAll('[data-testid=flag-grid-0] tbody tr').length ?? 0) - 1;
  typeInto(inShadow(el, `#f-variation_groups-0-flags-${f}-key`), key);
  texts.forEach((text, k) => {
    if (text !== undefined) typeInto(inShadow(el, `#flag-cell-0-${f}-${k}`), text);
  });
  await el.updateComplete;
  return f;
};

const sentValues = (api: StubApi, n: number) =>
  (must(api.made('PATCH')[n]).body as { variation_groups: BodyGroups }).variation_groups[0]?.variations.map(
    (v) => v.modifications.value,
  );

describe('<campaign-editor> and flags left to the defaults', () => {
  it('warns, naming the variation and the key, before saving a variation that leaves a key out', async () => {
    const { el, api } = await opened();
    await addFlag(el, 'headline', ['Welcome']);
    button(el, /^Save campaign$/).click();
    await until(() => el.shadowRoot?.activeElement?.id === 'missing-flags', { what: 'the warning focused' });
    const warning = inShadow(el, '#missing-flags');
    assert.strictEqual(warning.getAttribute('role'), 'alert');
    assert.match(
      warning.textContent.replace(/\s+/g, ' '),
      /“Green” does not set “headline”: its visitors see the page's default for it\./,
    );
    assert.notMatch(warning.textContent, /Original/);
    assert.lengthOf(api.made('PATCH'), 0, 'nothing sent yet');
    await expect(el).to.be.accessible();
    // Its button goes to the empty cell.
    button(el, /^Go to it$/).click();
    assert.strictEqual(el.shadowRoot?.activeElement?.id, 'flag-cell-0-1-1');
    // Saving anyway sends the variation without the key, as typed.
    button(el, /^Save anyway$/).click();
    await until(() => api.made('PATCH').length === 1, { what: 'the PATCH' });
    assert.deepEqual(sentValues(api, 0), [{ btnText: 'Buy', headline: 'Welcome' }, { btnText: 'Buy now' }]);
    await until(() => el.shadowRoot?.querySelector('#missing-flags') === null, { what: 'the warning gone' });
  });

  it('warns about a variation that sets no flag, and the warning follows what is filled in', async () => {
    const { el, api } = await opened();
    button(el, /^Remove\s+flag btnText$/).click();
    await el.updateComplete;
    await addFlag(el, 'headline', [undefined, undefined]);
    await addFlag(el, 'discount', [undefined, undefined]);
    button(el, /^Save campaign$/).click();
    await until(() => el.shadowRoot?.querySelector('#missing-flags') !== null, { what: 'the warning' });
    const items = () =>
      [...(el.shadowRoot?.querySelectorAll('#missing-flags li') ?? [])].map((li) =>
        li.textContent.replace(/\s+/g, ' ').trim(),
      );
    assert.deepEqual(items(), [
      "“Original” sets no flag (“headline”, “discount”): its visitors see the page's defaults. Go to it",
      "“Green” sets no flag (“headline”, “discount”): its visitors see the page's defaults. Go to it",
    ]);
    typeInto(inShadow(el, '#flag-cell-0-0-0'), 'Hello');
    typeInto(inShadow(el, '#flag-cell-0-1-0'), '5');
    typeInto(inShadow(el, '#flag-cell-0-0-1'), 'Welcome');
    await el.updateComplete;
    assert.deepEqual(items(), [
      "“Green” does not set “discount”: its visitors see the page's default for it. Go to it",
    ]);
    assert.lengthOf(api.made('PATCH'), 0);
  });

  it('saves the reference\'s deliberate "Not set (default)" as null, without a warning', async () => {
    const { el, api } = await opened();
    await addFlag(el, 'headline', [undefined, 'Welcome back']);
    must(
      inShadow(el, '[data-testid=flag-cell-0-1-0]').querySelector<HTMLInputElement>('label.unset input'),
    ).click();
    await el.updateComplete;
    button(el, /^Save campaign$/).click();
    await until(() => api.made('PATCH').length === 1, { what: 'the PATCH' });
    assert.strictEqual(el.shadowRoot?.querySelector('#missing-flags'), null);
    assert.deepEqual(sentValues(api, 0), [
      { btnText: 'Buy', headline: null },
      { btnText: 'Buy now', headline: 'Welcome back' },
    ]);
  });
});
