// The bad-input catalogue of hits (PROTOCOL.md §2.1, §5.1, §5.2), generated per field: every string a hit
// keeps × {U+0000, a lone surrogate, 10 KB, emoji} and every number × {-1, 1e308, NaN as a string, a fraction},
// plus the bounds and the forms the platform's SDK sends. Each bad hit is sent in a batch beside a good one:
// it is rejected by index naming its field, the good one is stored, and a good request is answered right
// after. Each accepted value is read back from the store and must be exactly what was sent.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { shownKey } from '../../../server/src/validation/storable-text.js';
import {
  NUMBERS,
  TEXTS,
  assertGoodAfter,
  collected,
  freshHid,
  goodHit,
  postJson,
  startCatalogueApp,
  stopCatalogueApp,
  storable,
  storedHit,
  type CatalogueApp,
  type TextName,
} from '../bad-input-support.js';
import { describeOnEveryStoreWith } from '../support.js';

type Hit = Record<string, unknown>;

const BASE: Record<string, Hit> = {
  SCREENVIEW: { t: 'SCREENVIEW', dl: 'checkout' },
  PAGEVIEW: { t: 'PAGEVIEW', dl: 'https://shop.example/checkout' },
  TRANSACTION: { t: 'TRANSACTION', tid: 'T1', ta: 'Purchase', tr: 20.5, tc: 'EUR' },
  ITEM: { t: 'ITEM', tid: 'T1', in: 'Shoe', ic: 'SKU-1' },
  EVENT: { t: 'EVENT', ec: 'Action Tracking', ea: 'add_to_cart' },
  SEGMENT: { t: 'SEGMENT', s: { plan: 'premium' } },
};

const hitOf = (type: string, changes: Hit): Hit => ({
  vid: 'anon-7',
  cuid: 'user-42',
  qt: 5,
  hid: freshHid(type),
  ...BASE[type],
  ...changes,
});

/** The hit as the store must hold it: SEGMENT values as text, a session number given as digits as a number. */
const storedForm = (hit: Hit): Hit => {
  const body = { ...hit };
  if (typeof body.s === 'object' && body.s !== null)
    body.s = Object.fromEntries(Object.entries(body.s).map(([k, v]) => [k, String(v)]));
  if (typeof body.sn === 'string') body.sn = Number(body.sn);
  return body;
};

/**
 * Sends `hit` beside a good hit. `rejectedAt`: the path of the field it must be rejected for (under `h[1]`);
 * null: it must be stored exactly.
 */
const tryHit = async (app: CatalogueApp, hit: Hit, rejectedAt: string | null): Promise<void> => {
  const good = goodHit();
  const answer = collected(
    await postJson(`${app.url}/events`, { cid: app.env.envId, ds: 'APP', t: 'BATCH', h: [good, hit] }),
  );
  const hid = String(hit.hid);
  if (rejectedAt === null) {
    assert.deepEqual(answer, { accepted: 2, duplicates: 0, rejected: [], rejectedCount: 0 });
    const row = await storedHit(app, hid);
    assert.ok(row !== undefined, 'the hit is stored');
    assert.deepEqual(row.body, storedForm(hit), 'stored exactly as sent');
    assert.equal(row.visitorId, hit.vid);
    assert.equal(row.customerId, hit.cuid ?? null);
    const goal = hit.t === 'EVENT' ? hit.ea : hit.t === 'TRANSACTION' ? hit.ta : null;
    assert.equal(row.goal, goal);
    assert.equal(row.revenue, hit.t === 'TRANSACTION' ? (hit.tr ?? null) : null);
    assert.equal(row.receivedMs - row.createdMs, hit.qt ?? 0);
  } else {
    assert.equal(answer.accepted, 1, JSON.stringify(answer));
    assert.equal(answer.rejectedCount, 1);
    assert.equal(answer.rejected[0]?.index, 1);
    const message = answer.rejected[0].message;
    assert.ok(
      message.startsWith(`h[1].${rejectedAt} `),
      `${JSON.stringify(message)} names h[1].${rejectedAt}`,
    );
    assert.ok(message.length < 300, 'a short message');
    assert.equal(await storedHit(app, hid), undefined, 'the rejected hit is not stored');
  }
  assert.ok((await storedHit(app, good.hid)) !== undefined, 'the good hit beside it is stored');
  await assertGoodAfter(app, 'hits');
};

interface Case {
  name: string;
  run: (app: CatalogueApp) => Promise<void>;
}
const cases: Case[] = [];

// Every string a hit keeps: [type, field, how the value is placed, the path named, longest accepted].
type Placement = (value: string) => { changes: Hit; path: string };
const field =
  (name: string): Placement =>
  (value) => ({ changes: { [name]: value }, path: name });
const STRING_FIELDS: Array<[string, string, Placement, number]> = [
  ['EVENT', 'vid', field('vid'), 256],
  ['EVENT', 'cuid', field('cuid'), 256],
  ['EVENT', 'hid', field('hid'), 128],
  ['EVENT', 'uip', field('uip'), 500],
  ['EVENT', 'sr', field('sr'), 500],
  ['EVENT', 'ul', field('ul'), 500],
  ['EVENT', 'ea', field('ea'), 500],
  ['EVENT', 'el', field('el'), 500],
  ['EVENT', 'ec', field('ec'), -1],
  ['SCREENVIEW', 'dl', field('dl'), 2048],
  ['PAGEVIEW', 'dl', (value) => ({ changes: { dl: `/${value}` }, path: 'dl' }), 2048],
  ['TRANSACTION', 'tid', field('tid'), 500],
  ['TRANSACTION', 'ta', field('ta'), 500],
  ['TRANSACTION', 'sm', field('sm'), 500],
  ['TRANSACTION', 'pm', field('pm'), 500],
  ['TRANSACTION', 'tcc', field('tcc'), 500],
  ['TRANSACTION', 'tc', field('tc'), -1],
  ['ITEM', 'tid', field('tid'), 500],
  ['ITEM', 'in', field('in'), 500],
  ['ITEM', 'ic', field('ic'), 500],
  ['ITEM', 'iv', field('iv'), 500],
  [
    'SEGMENT',
    's key',
    (value) => ({ changes: { s: { [value]: 'premium' } }, path: `s.${shownKey(value)}` }),
    Infinity,
  ],
  ['SEGMENT', 's value', (value) => ({ changes: { s: { plan: value } }, path: 's.plan' }), Infinity],
  ['EVENT', 'ds', field('ds'), Infinity],
  ['EVENT', 'an unknown key', (value) => ({ changes: { [value]: 'x' }, path: shownKey(value) }), Infinity],
  [
    'PAGEVIEW',
    'an unknown key’s nested value',
    (value) => ({ changes: { extra: { list: [1, value] } }, path: 'extra.list[1]' }),
    Infinity,
  ],
];

for (const [type, name, place, longest] of STRING_FIELDS) {
  for (const [textName, text] of Object.entries(TEXTS) as Array<[TextName, string]>) {
    cases.push({
      name: `${type} ${name} × ${textName}`,
      run: async (app) => {
        const { changes, path } = place(text);
        const hit = hitOf(type, changes);
        const sent = typeof hit[path] === 'string' ? hit[path] : text;
        await tryHit(app, hit, storable(textName) && sent.length <= longest ? null : path);
      },
    });
  }
}

// Every number a hit keeps, with its range (§5.1): queue time, counts, session number, money.
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const RANGES: Record<string, (v: unknown) => boolean> = {
  qt: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 86_400_000,
  count: isCount,
  sn: (v) => isCount(v) || (typeof v === 'string' && /^[0-9]{1,16}$/.test(v)),
  money: (v) => typeof v === 'number' && v >= 0 && v <= 1e12,
};
const NUMBER_FIELDS: Array<[string, string, string]> = [
  ['EVENT', 'qt', 'qt'],
  ['EVENT', 'sn', 'sn'],
  ['EVENT', 'ev', 'count'],
  ['TRANSACTION', 'tr', 'money'],
  ['TRANSACTION', 'ts', 'money'],
  ['TRANSACTION', 'tt', 'money'],
  ['TRANSACTION', 'icn', 'count'],
  ['ITEM', 'ip', 'money'],
  ['ITEM', 'iq', 'count'],
];
const BOUNDS: Array<[string, string, unknown]> = [
  ['EVENT', 'qt', 86_400_000],
  ['EVENT', 'qt', 86_400_001],
  ['EVENT', 'qt', 1e20],
  ['EVENT', 'qt', 0],
  ['EVENT', 'sn', '3'],
  ['EVENT', 'sn', '0042'],
  ['EVENT', 'sn', ''],
  ['EVENT', 'sn', '-1'],
  ['EVENT', 'sn', '12345678901234567'],
  ['EVENT', 'sn', 7],
  ['EVENT', 'ev', Number.MAX_SAFE_INTEGER],
  ['EVENT', 'ev', 2 ** 53],
  ['TRANSACTION', 'tr', 1e12],
  ['TRANSACTION', 'tr', 1e12 + 1],
  ['TRANSACTION', 'tr', 1.7e308],
  ['TRANSACTION', 'tr', 0],
];
const numberCases: Array<[string, string, string, unknown]> = [
  ...NUMBER_FIELDS.flatMap(([type, name]) =>
    Object.entries(NUMBERS).map(([label, value]): [string, string, string, unknown] => [
      `${type} ${name} × ${label}`,
      type,
      name,
      value,
    ]),
  ),
  ...BOUNDS.map(([type, name, value]): [string, string, string, unknown] => [
    `${type} ${name} = ${JSON.stringify(value)}`,
    type,
    name,
    value,
  ]),
];
for (const [label, type, name, value] of numberCases) {
  const range = NUMBER_FIELDS.find(([, n]) => n === name)?.[2] ?? 'count';
  cases.push({
    name: label,
    run: (app) => tryHit(app, hitOf(type, { [name]: value }), RANGES[range]?.(value) ? null : name),
  });
}

// Numbers under an unknown key are kept as sent, however large or small: JSON numbers round-trip exactly.
for (const value of [1e308, -1e308, 5e-324, 0.1, 2 ** 64]) {
  cases.push({
    name: `EVENT an unknown key × ${value}`,
    run: (app) => tryHit(app, hitOf('EVENT', { extra: value, more: { list: [value] } }), null),
  });
}

// Page locations (§5.1): absolute http(s) URLs, or a path starting with / as the platform's SDK sends.
for (const [dl, ok] of [
  ['/checkout?step=2', true],
  ['/', true],
  ['https://shop.example/a?b=c#d', true],
  ['http://127.0.0.1:8080/', true],
  ['checkout', false],
  ['ftp://shop.example/', false],
  ['javascript:alert(1)', false],
  ['', false],
] as const) {
  cases.push({
    name: `PAGEVIEW dl = ${JSON.stringify(dl)}`,
    run: (app) => tryHit(app, hitOf('PAGEVIEW', { dl }), ok ? null : 'dl'),
  });
}

describeOnEveryStoreWith(
  'bad input: hit fields',
  { start: startCatalogueApp, stop: stopCatalogueApp },
  (_kind, started) => {
    void it(`holds ${cases.length} cases`, () => assert.ok(cases.length >= 150, `${cases.length}`));
    for (const c of cases) void it(c.name, () => c.run(started('app')));
  },
);
