// <campaign-history-view> over the stub API: the campaign's entries newest first with their diffs, Older pages;
// "Restore this version" asks first (naming the time and the person), posts to the restore route and opens the
// editor, which says what happened under its title; the server's refusal is said on the entry; a viewer reads
// but is offered no Restore; at 390 px everything is within the window.
import { assert, expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/audit/campaign-history-view.js';
import type { CampaignHistoryView } from '../../../server/console/src/audit/campaign-history-view.js';
import { takeCreated } from '../../../server/console/src/campaigns/save-outcome.js';
import type { AuditEntry } from '../../../server/console/src/types.js';
import { ACCOUNT, ENV, StubApi, answerConfirm, campaignOf, mount, must, until } from '../console-fixture.js';
import { assertReachable } from '../reachable.js';

const CAMPAIGN = `/environments/${ENV.id}/campaigns/camp-1`;
const HISTORY = `${CAMPAIGN}/history?limit=50`;
const RENAMED: AuditEntry = {
  seq: 12,
  at: '2026-11-28T10:00:00.000Z',
  actor: { kind: 'user', id: 'usr-ada', label: 'ada@example.com', address: '203.0.113.7' },
  account_id: ACCOUNT.id,
  env_id: ENV.id,
  subject: { kind: 'campaign', id: 'camp-1' },
  action: 'campaign.updated',
  before: { id: 'camp-1' },
  after: { id: 'camp-1' },
  diff: [{ path: 'body.name', before: 'Buy', after: 'Buy button' }],
  details: null,
};
const CREATED: AuditEntry = {
  ...RENAMED,
  seq: 3,
  actor: { kind: 'operator_key', id: '1a2b3c4d', label: 'operator key 1a2b3c4d', address: null },
  action: 'campaign.created',
  before: null,
  diff: [{ path: '', before: null, after: { id: 'camp-1' } }],
};
const DELETED: AuditEntry = { ...RENAMED, seq: 20, action: 'campaign.deleted', after: null, diff: [] };

const shown = async (api: StubApi, state: Parameters<typeof mount>[2] = {}) => {
  const { el } = await mount<CampaignHistoryView>(
    html`<campaign-history-view .campaignId=${'camp-1'}></campaign-history-view>`,
    api,
    state,
  );
  await until(() => !el.loading && el.shadowRoot?.querySelector('h1') !== null, { what: 'the history' });
  await el.updateComplete;
  return el;
};
const textOf = (el: Element): string => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');
const restoreButtons = (el: Element): HTMLButtonElement[] =>
  [...(el.shadowRoot?.querySelectorAll('button') ?? [])].filter((b) => /Restore/.test(b.textContent));

describe('<campaign-history-view>', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it("lists the campaign's changes with their diffs, and reads older pages", async () => {
    const api = new StubApi({
      [`GET ${CAMPAIGN}`]: campaignOf(),
      [`GET ${HISTORY}`]: { items: [RENAMED], next_before_seq: 12 },
      [`GET ${HISTORY}&before_seq=12`]: { items: [CREATED], next_before_seq: null },
    });
    const el = await shown(api);
    await until(() => /History: Buy button/.test(textOf(el)), { what: 'the title' });
    assert.match(
      textOf(el),
      /campaign\.updated.*By ada@example\.com \(person, from 203\.0\.113\.7\).*body\.name: "Buy" → "Buy button"/,
    );
    must(
      [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => /Older/.test(b.textContent)),
    ).click();
    await until(() => el.shadowRoot?.querySelectorAll('article.entry').length === 2, {
      what: 'the older page',
    });
    assert.match(textOf(el), /campaign\.created.*operator key 1a2b3c4d/);
    assert.lengthOf(restoreButtons(el), 2);
    await expect(el).to.be.accessible();
  });

  it('restores a version after the confirmation, and opens the editor with a notice', async () => {
    const api = new StubApi({
      [`GET ${CAMPAIGN}`]: campaignOf(),
      [`GET ${HISTORY}`]: { items: [DELETED, RENAMED], next_before_seq: null },
      [`POST ${CAMPAIGN}/history/12/restore`]: campaignOf({ state: 'paused' }),
    });
    const el = await shown(api);
    // The entry that deleted the campaign left nothing to restore.
    assert.lengthOf(restoreButtons(el), 1);
    must(restoreButtons(el)[0]).click();
    await until(() => document.querySelector('dialog.console-confirm[open]') !== null, {
      what: 'the question',
    });
    assert.match(
      must(document.querySelector('dialog.console-confirm h2')).textContent,
      /Restore the version of .*2026.* by ada@example\.com\?/,
    );
    await answerConfirm('cancel');
    await el.updateComplete;
    assert.lengthOf(api.made('POST'), 0);

    must(restoreButtons(el)[0]).click();
    await answerConfirm('confirm');
    await until(() => location.hash === '#/campaigns/camp-1', { what: 'the editor' });
    assert.deepEqual(api.made('POST'), [{ method: 'POST', path: `${CAMPAIGN}/history/12/restore` }]);
    assert.match(
      takeCreated('camp-1'),
      /^Restored the version of .* by ada@example\.com: it is live, as paused\.$/,
    );
  });

  it("says the server's refusal on the entry", async () => {
    const api = new StubApi({
      [`GET ${CAMPAIGN}`]: campaignOf({ state: 'interrupted' }),
      [`GET ${HISTORY}`]: { items: [RENAMED], next_before_seq: null },
      [`POST ${CAMPAIGN}/history/12/restore`]: () => {
        throw new ConsoleApiError(409, 'conflict', 'Campaign "camp-1" is interrupted, which is final.');
      },
    });
    const el = await shown(api);
    must(restoreButtons(el)[0]).click();
    await answerConfirm('confirm');
    await until(() => el.shadowRoot?.querySelector('[role=alert]') !== null, { what: 'the refusal' });
    assert.match(
      must(el.shadowRoot?.querySelector('article [role=alert]')).textContent,
      /Not restored: .*interrupted/,
    );
    assert.strictEqual(location.hash, '');
    await expect(el).to.be.accessible();
  });

  it('lets a viewer read the history without Restore, and says an empty one', async () => {
    const viewer = {
      user: {
        id: 'u',
        email: 'v@example.com',
        name: '',
        accounts: [{ account_id: ACCOUNT.id, role: 'viewer' as const }],
      },
    };
    const el = await shown(
      new StubApi({
        [`GET ${CAMPAIGN}`]: campaignOf(),
        [`GET ${HISTORY}`]: { items: [RENAMED], next_before_seq: null },
      }),
      viewer,
    );
    assert.isNotNull(el.shadowRoot?.querySelector('article.entry'));
    assert.lengthOf(restoreButtons(el), 0);
    const empty = await shown(
      new StubApi({
        [`GET ${CAMPAIGN}`]: campaignOf(),
        [`GET ${HISTORY}`]: { items: [], next_before_seq: null },
      }),
      viewer,
    );
    assert.match(textOf(empty), /No change recorded for this campaign yet/);
  });

  it('says why the history could not be read', async () => {
    const el = await shown(
      new StubApi({
        [`GET ${HISTORY}`]: () => {
          throw new ConsoleApiError(404, 'unknown_environment', 'No environment has the id "env-1".');
        },
      }),
    );
    assert.match(
      must(el.shadowRoot?.querySelector('[role=alert]')).textContent,
      /could not be loaded: No environment/,
    );
  });

  it('keeps every entry and control within the window at 390 px', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const el = await shown(
        new StubApi({
          [`GET ${CAMPAIGN}`]: campaignOf(),
          [`GET ${HISTORY}`]: { items: [RENAMED, CREATED], next_before_seq: 3 },
        }),
      );
      const root = must(el.shadowRoot);
      assertReachable(
        root,
        [...root.querySelectorAll('a, button, summary, article.entry li')],
        'history part',
      );
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
