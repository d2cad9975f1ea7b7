// flagGrid(): a group's flags as rows and its variations as columns. A flag added is a row with a cell in every
// variation; a key renamed in its row is renamed in every variation's modifications.value; values are typed by
// their row; a long headline is shown whole in its cell and can be edited in the wide editor; "Not set
// (default)" sends null and a cell never filled in leaves the key out (PROTOCOL.md §9.1).
import { assert, expect } from '@open-wc/testing';
import { html } from 'lit';
import type { RemoteCampaign } from '../../../src/protocol/index.js';
import '../../../server/console/src/campaigns/campaign-editor.js';
import type { CampaignEditor } from '../../../server/console/src/campaigns/campaign-editor.js';
import { draftOf, draftToBody } from '../../../server/console/src/campaigns/campaign-draft.js';
import { flagGrid } from '../../../server/console/src/campaigns/flag-grid.js';
import { StubApi, campaignOf, mount, must, typeInto, until } from '../console-fixture.js';
import { groupsOf, renderPart, type BodyGroups } from './draft-harness.js';

const THREE = campaignOf({
  variation_groups: [
    {
      id: 'vg-1',
      name: 'Everyone',
      targeting: {
        targeting_groups: [{ targetings: [{ key: 'fs_all_users', operator: 'EQUALS', value: true }] }],
      },
      variations: (
        [
          ['v-orig', 'Original', { btnText: 'Buy' }],
          ['v-green', 'Green', { btnText: 'Buy now' }],
          ['v-red', 'Red', { btnText: 'Get it' }],
        ] as const
      ).map(([id, name, value], k) => ({
        id,
        name,
        reference: k === 0,
        allocation: k === 0 ? 34 : 33,
        modifications: { type: 'FLAG', value },
      })),
    },
  ],
});

const gridOf = async (campaign = THREE) => {
  const draft = draftOf(campaign, 0);
  const group = must(draft.groups[0]);
  return renderPart(draft, (kit) => flagGrid(kit, group, 0));
};

const button = (root: ParentNode, text: RegExp): HTMLButtonElement =>
  must(
    [...root.querySelectorAll('button')].find((b) => text.test(b.textContent.trim())),
    String(text),
  );

const values = (part: Awaited<ReturnType<typeof gridOf>>) =>
  groupsOf(part)[0]?.variations.map((v) => v.modifications.value);

describe('flagGrid()', () => {
  it('shows one row per flag and one column per variation, and a flag added is a row in every variation', async () => {
    const part = await gridOf();
    await expect(part.root).to.be.accessible();
    assert.deepEqual(
      [...part.root.querySelectorAll('thead th')].map((th) => th.textContent.replace(/\s+/g, ' ').trim()),
      ['Flag (key, type)', 'Original Reference', 'Green', 'Red'],
    );
    assert.lengthOf(part.root.querySelectorAll('tbody tr'), 1);
    button(part.root, /^Add flag$/).click();
    const row = part.find('[data-testid=flag-row-0-1]');
    // One cell per variation, each with its own value input, named by flag and variation.
    assert.lengthOf(row.querySelectorAll('td'), 3);
    typeInto(part.find('#f-variation_groups-0-flags-1-key'), 'discount');
    typeInto(part.find('#f-variation_groups-0-flags-1-key-type'), 'number');
    assert.strictEqual(part.find('#flag-cell-0-1-2').getAttribute('aria-label'), 'discount in Red');
    typeInto(part.find('#flag-cell-0-1-0'), '0');
    typeInto(part.find('#flag-cell-0-1-1'), '10');
    typeInto(part.find('#flag-cell-0-1-2'), '15.5');
    assert.deepEqual(values(part), [
      { btnText: 'Buy', discount: 0 },
      { btnText: 'Buy now', discount: 10 },
      { btnText: 'Get it', discount: 15.5 },
    ]);
    await expect(part.root).to.be.accessible();
  });

  it('renames a key in every variation at once, and refuses a key used twice', async () => {
    const part = await gridOf();
    typeInto(part.find('#f-variation_groups-0-flags-0-key'), 'headline');
    assert.deepEqual(values(part), [{ headline: 'Buy' }, { headline: 'Buy now' }, { headline: 'Get it' }]);
    button(part.root, /^Add flag$/).click();
    typeInto(part.find('#f-variation_groups-0-flags-1-key'), 'headline');
    assert.strictEqual(
      part.issues().get('variation_groups[0].flags[1].key'),
      '"headline" is already flag 1: one row per flag',
    );
    assert.strictEqual(part.find('#f-variation_groups-0-flags-1-key').getAttribute('aria-invalid'), 'true');
    button(part.find('[data-testid=flag-row-0-1]'), /^Remove\s+flag headline$/).click();
    assert.lengthOf(part.root.querySelectorAll('tbody tr'), 1);
    assert.deepEqual(values(part), [{ headline: 'Buy' }, { headline: 'Buy now' }, { headline: 'Get it' }]);
  });

  it('shows a long headline whole in its cell, and edits it in the wide editor', async () => {
    // In the editor, with its styles: the cell's size is the point.
    const api = new StubApi({
      'GET /environments/env-1/campaigns/camp-1': THREE,
      'GET /environments/env-1/campaigns?_page=1&_max_per_page=100': {
        items: [THREE],
        current_items_count: 1,
        current_page: 1,
        total_count: 1,
        items_per_page: 100,
        last_page: 1,
      },
    });
    // The page's own stylesheet, where the dialog lives (index.html links it).
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = '/server/console/src/page.css';
    const loaded = new Promise((resolve) => sheet.addEventListener('load', resolve, { once: true }));
    document.head.append(sheet);
    await loaded;
    const { el } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${'camp-1'}></campaign-editor>`,
      api,
    );
    const root = await until(
      () => (el.shadowRoot?.querySelector('#flag-cell-0-0-1') ? el.shadowRoot : null),
      {
        what: 'the grid',
      },
    );
    const value = () => draftToBody(must(el.draft), false).body.variation_groups as unknown as BodyGroups;
    const headline =
      'Free shipping on every order this week, returns within 60 days, and a gift card for the first 500 buyers';
    const cell = must(root.querySelector<HTMLTextAreaElement>('#flag-cell-0-0-1'));
    typeInto(cell, headline);
    await el.updateComplete;
    // Wide enough for words, and as tall as the text: nothing of it is scrolled out of sight.
    assert.isAtLeast(cell.getBoundingClientRect().width, 200);
    assert.isAtLeast(cell.getBoundingClientRect().height, 40, 'more than one line');
    assert.isAtMost(cell.scrollHeight, cell.clientHeight + 1, 'the whole headline is visible');
    button(root, /^Expand\s+btnText in Green$/).click();
    const dialog = await until(() => document.querySelector<HTMLDialogElement>('dialog.console-wide[open]'), {
      what: 'the wide editor',
    });
    const area = must(dialog.querySelector('textarea'));
    assert.strictEqual(area.value, headline);
    assert.isAtLeast(area.getBoundingClientRect().width, 2 * cell.getBoundingClientRect().width);
    area.value = `${headline}!`;
    must(dialog.querySelector<HTMLButtonElement>('button[value=done]')).click();
    await until(() => value()[0]?.variations[1]?.modifications.value.btnText === `${headline}!`, {
      what: 'the value from the wide editor',
    });
    await el.updateComplete;
    assert.strictEqual(cell.value, `${headline}!`);
    sheet.remove();
  });

  it('sends null for "Not set (default)", leaves a cell never filled in out, and reads both back', async () => {
    const part = await gridOf();
    button(part.root, /^Add flag$/).click();
    typeInto(part.find('#f-variation_groups-0-flags-1-key'), 'banner');
    typeInto(part.find('#f-variation_groups-0-flags-1-key-type'), 'json');
    must(
      part.find('[data-testid=flag-cell-0-1-0]').querySelector<HTMLInputElement>('label.unset input'),
    ).click();
    typeInto(part.find('#flag-cell-0-1-1'), '{"text": "Sale", "tone": "red"');
    assert.match(
      part.issues().get('variation_groups[0].variations[1].modifications.value.banner') ?? '',
      /JSON/,
    );
    typeInto(part.find('#flag-cell-0-1-1'), '{"text": "Sale", "tone": "red"}');
    assert.deepEqual(values(part), [
      { btnText: 'Buy', banner: null },
      { btnText: 'Buy now', banner: { text: 'Sale', tone: 'red' } },
      { btnText: 'Get it' },
    ]);
    assert.match(
      part.find('[data-testid=flag-cell-0-1-0]').textContent,
      /Not set: the page shows its default/,
    );
    assert.include(part.find('#flag-cell-0-1-2').className, 'missing');
    // What was stored reads back as it was: null stays chosen, a key left out stays left out.
    // The body's groups keep their stored ids here, so they are the stored shape.
    const stored = groupsOf(part) as unknown as RemoteCampaign['variation_groups'];
    const reread = draftOf(campaignOf({ variation_groups: stored }), 0);
    assert.deepEqual(
      reread.groups[0]?.variations.map((v) => v.cells.map((c) => c.state)),
      [
        ['value', 'unset'],
        ['value', 'value'],
        ['value', 'missing'],
      ],
    );
    await expect(part.root).to.be.accessible();
  });

  it('stacks each flag as a card on a narrow screen, with every value reachable without scrolling sideways', async () => {
    const api = new StubApi({
      'GET /environments/env-1/campaigns/camp-1': THREE,
      'GET /environments/env-1/campaigns?_page=1&_max_per_page=100': {
        items: [THREE],
        current_items_count: 1,
        current_page: 1,
        total_count: 1,
        items_per_page: 100,
        last_page: 1,
      },
    });
    const { el } = await mount<CampaignEditor>(
      html`<campaign-editor .campaignId=${'camp-1'} style="width: 360px"></campaign-editor>`,
      api,
    );
    const root = await until(
      () => (el.shadowRoot?.querySelector('#flag-cell-0-0-2') ? el.shadowRoot : null),
      {
        what: 'the grid',
      },
    );
    const region = must(root.querySelector<HTMLElement>('[data-testid=flags-0] [role=region]'));
    assert.isAtMost(region.scrollWidth, region.clientWidth, 'nothing to scroll sideways');
    const box = region.getBoundingClientRect();
    const inputs = [...region.querySelectorAll<HTMLElement>('input, select, textarea, button')];
    assert.lengthOf(
      inputs,
      3 + 3 * 3,
      'key, type and Remove, then a value, Expand and Not set per variation',
    );
    for (const input of inputs) {
      const r = input.getBoundingClientRect();
      assert.isTrue(
        r.width > 0 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5,
        `${input.id || input.textContent} fits`,
      );
    }
    // Each value says whose it is: the column's name above it.
    assert.deepEqual(
      [...region.querySelectorAll('td')].map((td) => getComputedStyle(td, '::before').content),
      ['"Original (reference)"', '"Green"', '"Red"'],
    );
    await expect(el).to.be.accessible();
  });
});
