// <campaign-editor>: a new campaign is one POST of the form's body, then the editor opens the stored campaign;
// an edit is one PATCH that keeps every id and sends only what an edit may change; a refused save lists the
// server's messages at the top and puts each next to its input.
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/campaigns/campaign-editor.js';
import type { CampaignEditor } from '../../../server/console/src/campaigns/campaign-editor.js';
import {
  StubApi,
  answerConfirm,
  campaignOf,
  inShadow,
  mount,
  must,
  typeInto,
  until,
} from '../console-fixture.js';
import type { BodyGroups } from './draft-harness.js';

const LIST = '/environments/env-1/campaigns?_page=1&_max_per_page=100';
const page = (items: unknown[]) => ({
  items,
  current_items_count: items.length,
  current_page: 1,
  total_count: items.length,
  items_per_page: 100,
  last_page: 1,
});

const button = (el: CampaignEditor, text: RegExp): HTMLButtonElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent.trim())),
    String(text),
  );

const save = async (el: CampaignEditor, api: StubApi, method: 'POST' | 'PATCH') => {
  button(el, /^Save campaign$/).click();
  await until(() => api.made(method).length === 1, { what: `a ${method}` });
  await until(() => !el.busy, { what: 'the editor idle' });
  await el.updateComplete;
  return must(api.made(method)[0]).body as Record<string, unknown>;
};

describe('<campaign-editor>', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('creates a campaign with one POST of what was typed, then opens it', async () => {
    const stored = campaignOf({ id: 'camp-9' });
    const api = new StubApi({ 'POST /environments/env-1/campaigns': stored });
    const { el, notices } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${null}></campaign-editor>`,
      api,
    );
    await until(() => el.shadowRoot?.querySelector('form') !== null, { what: 'the form' });
    await expect(el).to.be.accessible();
    typeInto(inShadow(el, '#f-name'), 'Buy button');
    typeInto(inShadow(el, '#f-slug'), 'buy-button');
    typeInto(inShadow(el, '#f-variation_groups-0-variations-1-name'), 'Green');
    button(el, /^Add flag$/).click();
    await el.updateComplete;
    typeInto(inShadow(el, '#f-variation_groups-0-flags-0-key'), 'btnText');
    typeInto(inShadow(el, '#flag-cell-0-0-0'), 'Buy');
    // Green leaves the text to the page's default, on purpose: null, and no warning.
    inShadow<HTMLInputElement>(el, '[data-testid=flag-cell-0-0-1] label.unset input').click();
    await el.updateComplete;
    const body = await save(el, api, 'POST');
    const groups = body.variation_groups as BodyGroups;
    assert.deepEqual(
      groups[0]?.targeting.targeting_groups.map((g) => g.targetings.map((t) => t.key)),
      [['fs_all_users']],
    );
    assert.deepEqual(
      { ...body, variation_groups: groups.map(({ targeting: _, ...group }) => group) },
      {
        name: 'Buy button',
        description: '',
        type: 'ab',
        slug: 'buy-button',
        state: 'active',
        bucket_ranges: [[0, 100]],
        analysis: { primary_goal: null, method: 'sequential', alpha: 0.05, expected_visitors: 5000 },
        variation_groups: [
          {
            name: 'Everyone',
            variations: [
              {
                name: 'Original',
                reference: true,
                allocation: 50,
                modifications: { type: 'FLAG', value: { btnText: 'Buy' } },
              },
              {
                name: 'Green',
                reference: false,
                allocation: 50,
                modifications: { type: 'FLAG', value: { btnText: null } },
              },
            ],
          },
        ],
      },
    );
    // Said by the campaign's own editor, in the page's flow (not in the shell's floating notice).
    assert.deepEqual(notices, []);
    assert.strictEqual(location.hash, '#/campaigns/camp-9');
  });

  it('titles the page by what it edits, with links back to the list and to a stored campaign’s report and history', async () => {
    const links = (el: CampaignEditor) =>
      [...(el.shadowRoot?.querySelectorAll('.top-links a') ?? [])].map(
        (a) => `${a.textContent.trim()} ${a.getAttribute('href') ?? ''}`,
      );
    const campaign = campaignOf();
    const api = new StubApi({
      'GET /environments/env-1/campaigns/camp-1': campaign,
      [`GET ${LIST}`]: page([campaign]),
    });
    const created = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${null}></campaign-editor>`,
      api,
    );
    await until(() => created.el.shadowRoot?.querySelector('form') !== null, { what: 'the form' });
    assert.strictEqual(inShadow(created.el, 'h1').textContent, 'New campaign');
    assert.deepEqual(links(created.el), ['Back to campaigns #/campaigns']);

    const { el } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${'camp-1'}></campaign-editor>`,
      api,
    );
    await until(() => el.shadowRoot?.querySelector('form') !== null, { what: 'the form' });
    assert.strictEqual(inShadow(el, 'h1').textContent, 'Edit Buy button');
    assert.deepEqual(links(el), [
      'Back to campaigns #/campaigns',
      'Report #/campaigns/camp-1/report',
      'History #/campaigns/camp-1/history',
    ]);
  });

  it('saves an edit with one PATCH that keeps the ids', async () => {
    const campaign = campaignOf();
    const api = new StubApi({
      'GET /environments/env-1/campaigns/camp-1': campaign,
      [`GET ${LIST}`]: page([campaign]),
      'PATCH /environments/env-1/campaigns/camp-1': (call: { body: { name: string } }) => ({
        ...campaign,
        name: call.body.name,
      }),
    });
    const { el } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${'camp-1'}></campaign-editor>`,
      api,
    );
    await until(() => el.shadowRoot?.querySelector('#f-name') !== null, { what: 'the name field' });
    assert.strictEqual(inShadow<HTMLInputElement>(el, '#f-name').value, 'Buy button');
    typeInto(inShadow(el, '#f-name'), 'Buy button v2');
    typeInto(inShadow(el, '#f-variation_groups-0-variations-1-allocation'), '40');
    const body = await save(el, api, 'PATCH');
    const groups = body.variation_groups as BodyGroups;
    assert.strictEqual(body.name, 'Buy button v2');
    assert.notProperty(body, 'state');
    assert.notProperty(body, 'position');
    assert.deepEqual(
      groups.map((g) => [g.id, g.variations.map((v) => [v.id, v.allocation, v.modifications.value])]),
      [
        [
          'vg-1',
          [
            ['v-orig', 50, { btnText: 'Buy' }],
            ['v-green', 40, { btnText: 'Buy now' }],
          ],
        ],
      ],
    );
    assert.match(inShadow(el, 'p.saved').textContent, /Saved “Buy button v2”/);
    await expect(el).to.be.accessible();
  });

  it("lists a refusal's messages at the top and puts each next to its input", async () => {
    const campaign = campaignOf();
    const api = new StubApi({
      'GET /environments/env-1/campaigns/camp-1': campaign,
      [`GET ${LIST}`]: page([campaign]),
      'PATCH /environments/env-1/campaigns/camp-1': () => {
        throw new ConsoleApiError(
          400,
          'invalid_body',
          'The campaign is not valid.',
          new Map([
            ['variation_groups[0].variations[1].name', 'is already the name of variation 1'],
            ['compatibility', 'is refused by the platform mode'],
          ]),
        );
      },
    });
    const { el } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${'camp-1'}></campaign-editor>`,
      api,
    );
    await until(() => el.shadowRoot?.querySelector('#f-name') !== null, { what: 'the name field' });
    await save(el, api, 'PATCH');
    await until(() => el.shadowRoot?.activeElement?.id === 'error-summary', { what: 'the summary focused' });
    const summary = inShadow(el, '#error-summary');
    assert.strictEqual(summary.getAttribute('role'), 'alert');
    assert.match(
      summary.textContent,
      /variation_groups\[0\]\.variations\[1\]\.name[\s\S]*is already the name/,
    );
    assert.match(summary.textContent, /compatibility[\s\S]*is refused by the platform mode/);
    const input = inShadow(el, '#f-variation_groups-0-variations-1-name');
    assert.strictEqual(input.getAttribute('aria-invalid'), 'true');
    assert.strictEqual(
      inShadow(el, '#f-variation_groups-0-variations-1-name-error').textContent,
      'is already the name of variation 1',
    );
    // The summary's button goes to the field; a message without an input has none.
    assert.lengthOf(summary.querySelectorAll('button'), 1);
    must(summary.querySelector('button')).click();
    assert.strictEqual(el.shadowRoot?.activeElement, input);
    await expect(el).to.be.accessible();
  });

  it('says under the state control why a state change was refused, and keeps the stored state', async () => {
    const campaign = campaignOf();
    const api = new StubApi({
      'GET /environments/env-1/campaigns/camp-1': campaign,
      [`GET ${LIST}`]: page([campaign]),
      'PATCH /environments/env-1/campaigns/camp-1/toggle': () => {
        throw new ConsoleApiError(403, 'forbidden', 'This session may not change campaign states.');
      },
    });
    const { el, notices } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${'camp-1'}></campaign-editor>`,
      api,
    );
    const state = await until(() => el.shadowRoot?.querySelector<HTMLSelectElement>('#campaign-state'), {
      what: 'the state control',
    });
    typeInto(state, 'paused');
    const note = await until(
      () => {
        const found = el.shadowRoot?.querySelector('[data-testid=state-note]');
        return found?.textContent.trim() === '' ? null : found;
      },
      { what: 'the refusal' },
    );
    assert.strictEqual(note.textContent.trim(), 'This session may not change campaign states.');
    assert.isTrue(note.classList.contains('error'), 'seen, not only heard');
    assert.isFalse(note.classList.contains('visually-hidden'));
    assert.strictEqual(state.value, 'active', 'the select back to the stored state');
    assert.isNull(el.shadowRoot?.querySelector('undo-notice') ?? null, 'nothing to undo');
    assert.deepEqual(notices, []);
    await expect(el).to.be.accessible();
  });

  it('says beside the Delete button why a delete was refused, not in the floating notice', async () => {
    const campaign = campaignOf();
    const api = new StubApi({
      'GET /environments/env-1/campaigns/camp-1': campaign,
      [`GET ${LIST}`]: page([campaign]),
      'DELETE /environments/env-1/campaigns/camp-1': () => {
        throw new ConsoleApiError(403, 'forbidden', 'This session may not delete campaigns.');
      },
    });
    const { el, notices } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${'camp-1'}></campaign-editor>`,
      api,
    );
    await until(() => el.shadowRoot?.querySelector('#f-name') !== null, { what: 'the name field' });
    button(el, /^Delete campaign$/).click();
    await answerConfirm('confirm');
    await until(() => api.made('DELETE').length === 1, { what: 'the DELETE' });
    const refusal = await until(
      () =>
        [...(el.shadowRoot?.querySelectorAll('.form-actions [role=alert]') ?? [])].find(
          (p) => p.textContent !== '',
        ),
      { what: 'the refusal' },
    );
    assert.strictEqual(refusal.textContent, 'Not deleted: This session may not delete campaigns.');
    assert.deepEqual(notices, []);
    assert.strictEqual(location.hash, '');
  });
});
