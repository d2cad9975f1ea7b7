// <audit-log-view> over the stub API: the entries newest first with when, who (label, kind, address), what and a
// readable diff whose long values fold behind "Show"; "Older" reads the next page with the keyset cursor; the
// filters (person, subject kind, action, days) go into the query, and the export link carries them; the
// server's refusal is said; a non-admin is offered nothing; at 390 px everything is within the window.
import { assert, expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { html } from 'lit';
import { ConsoleApiError } from '../../../server/console/src/api.js';
import '../../../server/console/src/audit/audit-log-view.js';
import type { AuditLogView } from '../../../server/console/src/audit/audit-log-view.js';
import { AUDIT_SUBJECT_KINDS as CONSOLE_KINDS } from '../../../server/console/src/audit/audit-kinds.js';
import type { AuditEntry, Member } from '../../../server/console/src/types.js';
import { AUDIT_SUBJECT_KINDS } from '../../../server/src/store/audit-store.js';
import { ACCOUNT, StubApi, inShadow, mount, must, typeInto, until } from '../console-fixture.js';
import { assertReachable } from '../reachable.js';

const BASE = `/accounts/${ACCOUNT.id}/audit`;
const FIRST = `${BASE}?limit=50`;
const ADA: Member = {
  id: 'usr-ada',
  email: 'ada@example.com',
  name: 'Ada',
  role: 'admin',
  active: true,
  created_at: '2026-11-04T10:00:00.000Z',
  last_sign_in_at: null,
};
const LONG = 'A long description of the checkout test that goes on well past one line of the log';
const PAUSED: AuditEntry = {
  seq: 42,
  at: '2026-11-28T10:00:00.000Z',
  actor: { kind: 'user', id: 'usr-ada', label: 'ada@example.com', address: '203.0.113.7' },
  account_id: ACCOUNT.id,
  env_id: 'env-1',
  subject: { kind: 'campaign', id: 'camp-1' },
  action: 'campaign.updated',
  before: {},
  after: {},
  diff: [
    { path: 'state', before: 'active', after: 'paused' },
    { path: 'description', before: '', after: LONG },
    { path: 'body.variationGroups[0].name', after: 'Everyone' },
  ],
  details: null,
};
const CREATED: AuditEntry = {
  ...PAUSED,
  seq: 7,
  actor: { kind: 'operator_key', id: '1a2b3c4d', label: 'operator key 1a2b3c4d', address: null },
  action: 'campaign.created',
  diff: [{ path: '', before: null, after: { id: 'camp-1' } }],
};

const settle = async (el: Element): Promise<void> => {
  await (el as unknown as { updateComplete: Promise<unknown> }).updateComplete;
};
const buttonIn = (el: Element, text: RegExp): HTMLButtonElement =>
  must(
    [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => text.test(b.textContent)),
    `a button ${String(text)}`,
  );
const shown = async (api: StubApi, state: Parameters<typeof mount>[2] = {}): Promise<AuditLogView> => {
  const { el } = await mount<AuditLogView>(html`<audit-log-view></audit-log-view>`, api, state);
  await until(() => !el.loading && el.shadowRoot?.querySelector('h1') !== null, { what: 'the log' });
  await settle(el);
  return el;
};
const textOf = (el: Element): string => (el.shadowRoot?.textContent ?? '').replace(/\s+/g, ' ');

describe('<audit-log-view>', () => {
  it('offers the subject kinds the server records, in its order', () => {
    assert.deepEqual(CONSOLE_KINDS, [...AUDIT_SUBJECT_KINDS]);
  });

  it('shows each entry: when, who, what, and the diff with long values folded', async () => {
    const api = new StubApi({
      [`GET ${FIRST}`]: { items: [PAUSED], next_before_seq: null },
      [`GET /accounts/${ACCOUNT.id}/users`]: { items: [ADA] },
    });
    const el = await shown(api);
    const entry = inShadow(el, 'article.entry');
    const text = entry.textContent.replace(/\s+/g, ' ');
    assert.match(text, /2026.*campaign\.updated.*campaign camp-1/);
    assert.match(text, /By ada@example\.com \(person, from 203\.0\.113\.7\)/);
    assert.match(text, /state: "active" → "paused"/);
    assert.match(text, /body\.variationGroups\[0\]\.name: \(none\) → "Everyone"/);
    const folded = must(entry.querySelector('details'));
    assert.isFalse(folded.open);
    assert.match(must(folded.querySelector('summary')).textContent, /Show/);
    must(folded.querySelector('summary')).click();
    assert.isTrue(folded.open);
    assert.include(must(folded.querySelector('pre')).textContent, LONG);
    assert.isNull(el.shadowRoot?.querySelector('.entries + button'), 'no Older on the last page');
    await expect(el).to.be.accessible();
  });

  it('reads older pages with the cursor, appending them', async () => {
    const api = new StubApi({
      [`GET ${FIRST}`]: { items: [PAUSED], next_before_seq: 42 },
      [`GET ${FIRST}&before_seq=42`]: { items: [CREATED], next_before_seq: null },
      [`GET /accounts/${ACCOUNT.id}/users`]: { items: [] },
    });
    const el = await shown(api);
    buttonIn(el, /^\s*Older\s*$/).click();
    await until(() => el.shadowRoot?.querySelectorAll('article.entry').length === 2, { what: 'two entries' });
    assert.match(textOf(el), /campaign\.updated.*campaign\.created.*operator key 1a2b3c4d \(operator key\)/);
    assert.match(textOf(el), /\(all of it\): null → /);
    assert.isUndefined(
      [...(el.shadowRoot?.querySelectorAll('button') ?? [])].find((b) => /Older/.test(b.textContent)),
    );
  });

  it('filters by person, subject kind, action and days, and the export link carries them', async () => {
    const api = new StubApi({
      [`GET ${FIRST}`]: { items: [PAUSED], next_before_seq: null },
      [`GET /accounts/${ACCOUNT.id}/users`]: { items: [ADA] },
    });
    const el = await shown(api);
    await until(() => el.shadowRoot?.querySelector('option[value="user:usr-ada"]') !== null, {
      what: 'the members in the person filter',
    });
    const from = new Date(2026, 10, 1).toISOString();
    const to = new Date(2026, 10, 3).toISOString();
    const query = new URLSearchParams({
      actor_kind: 'user',
      actor_id: 'usr-ada',
      subject_kind: 'campaign',
      action: 'campaign.updated',
      from,
      to,
    }).toString();
    api.answer(`GET ${BASE}?${query}&limit=50`, { items: [], next_before_seq: null });
    typeInto(inShadow<HTMLSelectElement>(el, '#audit-actor'), 'user:usr-ada');
    typeInto(inShadow<HTMLSelectElement>(el, '#audit-subject'), 'campaign');
    typeInto(inShadow<HTMLInputElement>(el, '#audit-action'), 'campaign.updated');
    typeInto(inShadow<HTMLInputElement>(el, '#audit-from'), '2026-11-01');
    typeInto(inShadow<HTMLInputElement>(el, '#audit-to'), '2026-11-02');
    buttonIn(el, /^\s*Apply filters\s*$/).click();
    await until(() => /No entry matches these filters/.test(textOf(el)), { what: 'the filtered answer' });
    assert.strictEqual(api.made('GET').at(-1)?.path, `${BASE}?${query}&limit=50`);
    assert.strictEqual(
      inShadow<HTMLAnchorElement>(el, 'a[download]').getAttribute('href'),
      `/admin/v1/accounts/${ACCOUNT.id}/audit/export?${query}`,
    );
    await expect(el).to.be.accessible();
  });

  it("says what to do on an empty log, and the server's refusal", async () => {
    const api = new StubApi({
      [`GET ${FIRST}`]: { items: [], next_before_seq: null },
      [`GET /accounts/${ACCOUNT.id}/users`]: { items: [] },
    });
    const el = await shown(api);
    assert.match(textOf(el), /No change recorded yet/);
    api.answer(`GET ${BASE}?action=Bad&limit=50`, () => {
      throw new ConsoleApiError(
        400,
        'invalid_body',
        'action: must be an action name such as campaign.updated',
      );
    });
    typeInto(inShadow<HTMLInputElement>(el, '#audit-action'), 'Bad');
    buttonIn(el, /^\s*Apply filters\s*$/).click();
    await until(() => el.shadowRoot?.querySelector('[role=alert]') !== null, { what: 'the refusal' });
    assert.match(
      inShadow(el, '[role=alert]').textContent,
      /must be an action name such as campaign\.updated/,
    );
  });

  it('offers an editor nothing, and asks the server nothing', async () => {
    const api = new StubApi();
    const el = await shown(api, {
      user: {
        id: 'u',
        email: 'e@example.com',
        name: '',
        accounts: [{ account_id: ACCOUNT.id, role: 'editor' }],
      },
    });
    assert.match(textOf(el), /Only an admin of Shop can read its audit log/);
    assert.lengthOf(api.calls, 0);
    await expect(el).to.be.accessible();
  });

  it('keeps every control and entry within the window at 390 px', async () => {
    await setViewport({ width: 390, height: 800 });
    try {
      const el = await shown(
        new StubApi({
          [`GET ${FIRST}`]: { items: [PAUSED, CREATED], next_before_seq: 7 },
          [`GET /accounts/${ACCOUNT.id}/users`]: { items: [ADA] },
        }),
      );
      const root = must(el.shadowRoot);
      assertReachable(
        root,
        [...root.querySelectorAll('input, select, button, a, summary, article.entry li')],
        'log part',
      );
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 1280, height: 800 });
    }
  });
});
