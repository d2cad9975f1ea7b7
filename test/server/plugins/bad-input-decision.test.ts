// The bad-input catalogue of the decision route (PROTOCOL.md §2.1, §3), generated per field: the ids (both
// spellings, with and without trigger_hit) and the context's keys and values × {U+0000, a lone surrogate,
// 10 KB, emoji}, and context numbers. A text the store cannot hold is a 400 naming the field, whatever the
// query; an accepted one is stored exactly where the decision stores it: the assignments, the context's
// SEGMENT hit, the activations of trigger_hit.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CONTEXT_LIMITS } from '../../../src/protocol/index.js';
import { shownKey } from '../../../server/src/validation/storable-text.js';
import {
  NUMBERS,
  TEXTS,
  assertError,
  assertGoodAfter,
  freshHid,
  postJson,
  startCatalogueApp,
  stopCatalogueApp,
  storable,
  type CatalogueApp,
  type TextName,
} from '../bad-input-support.js';
import { describeOnEveryStoreWith } from '../support.js';
import { until } from '../../support/until.js';

interface Decided {
  visitorId: string;
  anonymousId: string | null;
  context: Record<string, unknown>;
  triggerHit: boolean;
}

/** Checks where an accepted decision stored its texts, exactly. */
const assertStored = async (app: CatalogueApp, sent: Decided): Promise<void> => {
  const envId = app.env.envId;
  const hitVisitor = sent.anonymousId ?? sent.visitorId;
  // The context's SEGMENT hit and the assignments are written behind the answer.
  await until(
    async () =>
      (await app.store.listHits(envId)).some(
        (h) =>
          h.type === 'SEGMENT' &&
          h.visitorId === hitVisitor &&
          JSON.stringify(h.body.s) ===
            JSON.stringify(
              Object.fromEntries(Object.entries(sent.context).map(([k, v]) => [k, String(v)])),
            ) &&
          h.customerId === (sent.anonymousId === null ? null : sent.visitorId),
      ),
    { what: "the decision's SEGMENT hit, stored as sent" },
  );
  await until(async () => (await app.store.getAssignments(envId, [sent.visitorId])).length === 1, {
    what: "the decision's assignments",
    timeoutMs: 5000,
  });
  if (sent.triggerHit) {
    const activations = await app.store.listActivations(envId);
    assert.ok(
      activations.some((a) => a.visitorId === sent.visitorId && a.anonymousId === sent.anonymousId),
      'trigger_hit stored the activation with the ids as sent',
    );
  }
};

/** Sends a decision request whose body is `body`; `rejectedAt` is the path named, null when accepted. */
const tryDecision = async (
  app: CatalogueApp,
  body: Record<string, unknown>,
  sent: Decided,
  rejectedAt: string | null,
): Promise<void> => {
  const answer = await postJson(`${app.url}/v2/${app.env.envId}/campaigns`, body, {
    'x-api-key': app.env.apiKey,
  });
  if (rejectedAt === null) {
    assert.equal(answer.status, 200, answer.text);
    assert.equal((answer.json as { visitorId: string }).visitorId, sent.visitorId);
    await assertStored(app, sent);
  } else assertError(answer, 400, 'invalid_body', { path: rejectedAt });
  await assertGoodAfter(app, 'decision');
};

interface Case {
  name: string;
  run: (app: CatalogueApp) => Promise<void>;
}
const cases: Case[] = [];

/** A text made unique per case when it is storable (each accepted case is found by its ids). */
const unique = (textName: TextName, text: string): string =>
  storable(textName) && textName !== '10 KB' ? `${text}${freshHid()}` : text;

for (const [textName, text] of Object.entries(TEXTS) as Array<[TextName, string]>) {
  for (const [spelling, role] of [
    ['visitorId', 'visitor'],
    ['visitor_id', 'visitor'],
    ['anonymousId', 'anonymous'],
    ['anonymous_id', 'anonymous'],
  ] as const) {
    for (const triggerHit of spelling.includes('_') ? [false] : [false, true]) {
      cases.push({
        name: `decision ${spelling} × ${textName}${triggerHit ? ', trigger_hit' : ''}`,
        run: async (app) => {
          const value = unique(textName, text);
          const sent: Decided = {
            visitorId: role === 'visitor' ? value : freshHid('user'),
            anonymousId: role === 'anonymous' ? value : null,
            context: { plan: 'premium' },
            triggerHit,
          };
          const ids =
            role === 'visitor' ? { [spelling]: value } : { visitorId: sent.visitorId, [spelling]: value };
          const ok = storable(textName) && value.length <= 256;
          await tryDecision(app, { ...ids, context: sent.context, triggerHit }, sent, ok ? null : spelling);
        },
      });
    }
  }
  for (const part of ['key', 'value'] as const) {
    cases.push({
      name: `decision context ${part} × ${textName}`,
      run: async (app) => {
        const context = part === 'key' ? { [text]: 'premium' } : { plan: text };
        const sent: Decided = { visitorId: freshHid('user'), anonymousId: null, context, triggerHit: false };
        // A key has at most 256 characters, a string value 8 192 (docs/http-api.md, Limits): 10 KB is refused.
        const limit = part === 'value' ? CONTEXT_LIMITS.maxStringValueLength : CONTEXT_LIMITS.maxKeyLength;
        const ok = storable(textName) && text.length <= limit;
        const path = `context.${part === 'key' ? shownKey(text) : 'plan'}`;
        await tryDecision(app, { visitorId: sent.visitorId, context }, sent, ok ? null : path);
      },
    });
  }
}
for (const [label, value] of Object.entries(NUMBERS)) {
  cases.push({
    name: `decision context number × ${label}`,
    run: async (app) => {
      const sent: Decided = {
        visitorId: freshHid('user'),
        anonymousId: null,
        context: { age: value },
        triggerHit: false,
      };
      await tryDecision(app, { visitorId: sent.visitorId, context: sent.context }, sent, null);
    },
  });
}
cases.push({
  name: 'decision context number × 1e400 (Infinity once parsed)',
  run: async (app) => {
    const answer = await postJson(
      `${app.url}/v2/${app.env.envId}/campaigns`,
      '{"visitorId":"v","context":{"age":1e400}}',
      { 'x-api-key': app.env.apiKey },
    );
    assertError(answer, 400, 'invalid_body', { path: 'context.age' });
    await assertGoodAfter(app, 'decision');
  },
});

describeOnEveryStoreWith(
  'bad input: decision fields',
  { start: startCatalogueApp, stop: stopCatalogueApp },
  (_kind, started) => {
    void it(`holds ${cases.length} cases`, () => assert.ok(cases.length >= 30, `${cases.length}`));
    for (const c of cases) void it(c.name, () => c.run(started('app')));
  },
);
