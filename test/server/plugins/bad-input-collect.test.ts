// The bad-input catalogue of activations (PROTOCOL.md §4) and usage hits (§12), generated per field: every
// string they keep × {U+0000, a lone surrogate, 10 KB, emoji}, `qt` × {-1, 1e308, NaN as a string, a fraction}
// and its bounds. A bad activation is rejected by index naming its field while the good one beside it is
// stored; a bad usage hit is a 400 naming its field. Accepted values are read back exactly.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  NUMBERS,
  TEXTS,
  assertError,
  assertGoodAfter,
  collected,
  freshHid,
  goodActivation,
  postJson,
  startCatalogueApp,
  stopCatalogueApp,
  storable,
  storedActivation,
  usageHit,
  type CatalogueApp,
  type TextName,
} from '../bad-input-support.js';
import { describeOnEveryStoreWith } from '../support.js';

type Item = Record<string, unknown>;

/**
 * Sends `item` beside a good activation; `rejectedAt`: the field it must be rejected for (under
 * `batch[1]`), or null: it must be stored exactly.
 */
const tryActivation = async (app: CatalogueApp, item: Item, rejectedAt: string | null): Promise<void> => {
  const good = goodActivation();
  const answer = await postJson(`${app.url}/v2/activate`, { cid: app.env.envId, batch: [good, item] });
  const hid = String(item.hid);
  if (rejectedAt === null) {
    assert.equal(answer.status, 204, answer.text);
    const row = await storedActivation(app, hid);
    assert.ok(row !== undefined, 'stored');
    assert.equal(row.visitorId, item.vid);
    assert.equal(row.anonymousId, item.aid ?? null);
    assert.equal(row.variationGroupId, item.caid);
    assert.equal(row.variationId, item.vaid);
    assert.equal(row.campaignId, 'c1');
    assert.equal(row.receivedMs - row.createdMs, item.qt ?? 0);
  } else {
    const body = collected(answer);
    assert.equal(body.accepted, 1);
    assert.equal(body.rejectedCount, 1);
    assert.equal(body.rejected[0]?.index, 1);
    const message = body.rejected[0].message;
    assert.ok(
      message.startsWith(`batch[1].${rejectedAt} `),
      `${JSON.stringify(message)} names ${rejectedAt}`,
    );
    assert.ok(message.length < 300, 'a short message');
    if (typeof item.hid === 'string' && rejectedAt !== 'hid')
      assert.equal(await storedActivation(app, item.hid), undefined, 'not stored');
  }
  assert.ok((await storedActivation(app, good.hid)) !== undefined, 'the good activation beside it is stored');
  await assertGoodAfter(app, 'activation');
};

const activationOf = (changes: Item): Item => ({
  vid: 'user-42',
  aid: 'anon-7',
  caid: 'vg1',
  vaid: 'v2',
  qt: 120,
  hid: freshHid('activation'),
  ...changes,
});

interface Case {
  name: string;
  run: (app: CatalogueApp) => Promise<void>;
}
const cases: Case[] = [];

for (const [textName, text] of Object.entries(TEXTS) as Array<[TextName, string]>) {
  for (const [name, longest] of [
    ['vid', 256],
    ['aid', 256],
    ['hid', 128],
    ['caid', -1],
    ['vaid', -1],
  ] as const) {
    cases.push({
      name: `activation ${name} × ${textName}`,
      run: (app) =>
        tryActivation(
          app,
          activationOf({ [name]: name === 'hid' && storable(textName) ? `${text}${freshHid()}` : text }),
          storable(textName) && text.length <= longest ? null : name,
        ),
    });
  }
}
const inRange = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 86_400_000;
for (const [label, value] of [
  ...Object.entries(NUMBERS),
  ...[86_400_000, 86_400_001, 1e20, 0].map((v): [string, number] => [`= ${v}`, v]),
]) {
  cases.push({
    name: `activation qt × ${label}`,
    run: (app) => tryActivation(app, activationOf({ qt: value }), inRange(value) ? null : 'qt'),
  });
}

// The single form: the item is the body; its rejection is a 200 naming the field at the top level.
cases.push({
  name: 'activation, single form, vid × NUL',
  run: async (app) => {
    const body = collected(
      await postJson(`${app.url}/v2/activate`, { cid: app.env.envId, ...activationOf({ vid: TEXTS.NUL }) }),
    );
    assert.equal(body.accepted, 0);
    assert.equal(body.rejectedCount, 1);
    assert.match(body.rejected[0]?.message ?? '', /^vid must not hold U\+0000/);
    await assertGoodAfter(app, 'activation');
  },
});
cases.push({
  name: 'activation, single form, aid × emoji',
  run: async (app) => {
    const item = activationOf({ aid: TEXTS.emoji });
    const answer = await postJson(`${app.url}/v2/activate`, { cid: app.env.envId, ...item });
    assert.equal(answer.status, 204, answer.text);
    assert.equal((await storedActivation(app, String(item.hid)))?.anonymousId, TEXTS.emoji);
  },
});

// Usage hits: stack.name and stack.version are stored (as sent, or refused); every cv entry is checked.
for (const [textName, text] of Object.entries(TEXTS) as Array<[TextName, string]>) {
  for (const [key, longest] of [
    ['stack.name', 100],
    ['stack.version', 50],
    ['version', Infinity],
  ] as const) {
    cases.push({
      name: `usage cv.${key} × ${textName}`,
      run: async (app) => {
        const value = storable(textName) ? `${text}${freshHid()}` : text;
        const answer = await postJson(
          `${app.url}/events/analytics`,
          usageHit(app.env.envId, { [key]: value }),
        );
        if (storable(textName) && value.length <= longest) {
          assert.equal(answer.status, 200, answer.text);
          const counts = await app.store.usageCounts(app.env.envId);
          if (key !== 'version')
            assert.ok(
              counts.some((c) => (key === 'stack.name' ? c.sdkName : c.sdkVersion) === value),
              'stored exactly',
            );
        } else assertError(answer, 400, 'invalid_body', { path: `cv.${key}` });
        await assertGoodAfter(app, 'usage');
      },
    });
  }
  cases.push({
    name: `usage cv key × ${textName}`,
    run: async (app) => {
      const answer = await postJson(`${app.url}/events/analytics`, usageHit(app.env.envId, { [text]: '1' }));
      if (storable(textName)) assert.equal(answer.status, 200, answer.text);
      else assertError(answer, 400, 'invalid_body', { path: `cv.${text}` });
      await assertGoodAfter(app, 'usage');
    },
  });
}

describeOnEveryStoreWith(
  'bad input: activation and usage fields',
  { start: startCatalogueApp, stop: stopCatalogueApp },
  (_kind, started) => {
    void it(`holds ${cases.length} cases`, () => assert.ok(cases.length >= 40, `${cases.length}`));
    for (const c of cases) void it(c.name, () => c.run(started('app')));
  },
);
