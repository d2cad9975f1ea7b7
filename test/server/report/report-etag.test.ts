// Conditional reads of reports and daily series (issue 31, report-etag.ts) on a real server, every store: the
// remote control report route (with a token and under the operator key), the operator reports route and the
// daily series answer an ETag; If-None-Match naming it (a list, `*`, a weak or strong form) answers 304 with no
// body; a new activation or goal hit, a new name, allocation or analysis setting, another set of campaigns and,
// for the series, another UTC day answer 200 with a new ETag and the new figure. Rows go through the real
// collection routes with a pinned clock.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CampaignReport, DailySeries, RemoteCampaign } from '../../../src/protocol/index.js';
import { createAccess } from '../../../server/src/auth/create-access.js';
import { noneMatchHits } from '../../../server/src/http/report-etag.js';
import {
  checkoutCampaign,
  describeOnEveryStoreWith,
  post,
  premiumToggle,
  seedEnvironment,
  startApp,
  type Running,
  type SeededEnvironment,
} from '../support.js';

const KEY = 'operator-key-for-the-report-etag-tests';
const DAY = 86_400_000;
const D1 = Date.UTC(2026, 10, 21, 12); // 2026-11-21T12:00Z

interface Started {
  server: Running;
  env: SeededEnvironment;
  token: string;
  clock: { ms: number };
}

interface Answer {
  status: number;
  etag: string;
  cacheControl: string;
  text: string;
  body: unknown;
}

describeOnEveryStoreWith<Started>(
  'report ETags',
  {
    start: async (store) => {
      const clock = { ms: D1 };
      const server = await startApp(store, { operatorKeys: [KEY], now: () => clock.ms });
      try {
        const env = await seedEnvironment(store, [checkoutCampaign()]);
        const { access, clientSecret } = await createAccess(store, {
          accountId: env.accountId,
          name: 'reports',
          actions: ['report.read'],
        });
        const issued = await fetch(`${server.url}/oauth/${env.accountId}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'client_credentials',
            client_id: access.clientId,
            client_secret: clientSecret,
          }),
        });
        const { access_token: token } = (await issued.json()) as { access_token: string };
        return { server, env, token, clock };
      } catch (error) {
        await server.close();
        throw error;
      }
    },
    stop: ({ server }) => server.close(),
  },
  (_kind, started) => {
    const request = async (
      method: string,
      url: string,
      headers: Record<string, string>,
      body?: unknown,
    ): Promise<Answer> => {
      const res = await fetch(url, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return {
        status: res.status,
        etag: res.headers.get('etag') ?? '',
        cacheControl: res.headers.get('cache-control') ?? '',
        text,
        body: text === '' ? null : (JSON.parse(text) as unknown),
      };
    };
    const operator = (path: string, headers: Record<string, string> = {}, method = 'GET', body?: unknown) => {
      const { server, env } = started('server');
      return request(
        method,
        `${server.url}/admin/v1/environments/${env.envId}${path}`,
        { authorization: `Bearer ${KEY}`, ...headers },
        body,
      );
    };
    const remote = (path: string, headers: Record<string, string> = {}) => {
      const { server, env, token } = started('token');
      return request(
        'GET',
        `${server.url}/v1/accounts/${env.accountId}/account_environments/${env.envId}${path}`,
        { authorization: `Bearer ${token}`, ...headers },
      );
    };
    /** Stores activations (and hits) through the collection routes at the pinned clock. */
    const send = async (activations: object[], hits: object[] = []): Promise<void> => {
      const { server, env } = started('server');
      if (activations.length > 0)
        assert.equal(
          (await post(`${server.url}/v2/activate`, { cid: env.envId, batch: activations })).status,
          204,
        );
      if (hits.length > 0) {
        const res = await post(`${server.url}/events`, { cid: env.envId, t: 'BATCH', h: hits });
        assert.equal((res.body as { accepted: number }).accepted, hits.length);
      }
    };
    const activation = (vid: string, vaid: string) => ({ vid, aid: null, caid: 'vg1', vaid, qt: 0 });
    const event = (vid: string, hid: string) => ({
      t: 'EVENT',
      vid,
      cuid: null,
      qt: 0,
      hid,
      ec: 'Action Tracking',
      ea: 'add_to_cart',
    });
    const visitors = (answer: Answer, variation: number): number =>
      (answer.body as CampaignReport).variation_groups[0]?.variations[variation]?.visitors ?? -1;
    /** The answer is a 304 to `etag`: the same tag, revalidation asked for, no body. */
    const assertNotModified = (answer: Answer, etag: string, what: string): void => {
      assert.equal(answer.status, 304, what);
      assert.equal(answer.etag, etag, `${what}: the same ETag`);
      assert.equal(answer.cacheControl, 'private, no-cache', `${what}: Cache-Control`);
      assert.equal(answer.text, '', `${what}: no body`);
    };
    /** The answer is a 200 with a weak ETag other than `previous` (when given). */
    const assertFresh = (answer: Answer, what: string, previous?: string): void => {
      assert.equal(answer.status, 200, `${what}: ${answer.text}`);
      assert.match(answer.etag, /^W\/"[\w-]{32}"$/, `${what}: a weak ETag`);
      assert.equal(answer.cacheControl, 'private, no-cache', `${what}: Cache-Control`);
      if (previous !== undefined) assert.notEqual(answer.etag, previous, `${what}: a new ETag`);
    };

    void it('the report: 200 with an ETag, 304 while nothing changed, 200 after each new row', async () => {
      await send([activation('ann', 'v1')]);
      // The token route and the operator key's route answer the same report under the same tag.
      const first = await remote('/campaigns/c1/report');
      assertFresh(first, 'first read');
      assert.equal(visitors(first, 0), 1);
      const viaOperator = await operator('/campaigns/c1/report');
      assertFresh(viaOperator, 'under the operator key');
      assert.equal(viaOperator.etag, first.etag);
      assertNotModified(
        await remote('/campaigns/c1/report', { 'if-none-match': first.etag }),
        first.etag,
        'asked again',
      );
      assertNotModified(
        await operator('/campaigns/c1/report', { 'if-none-match': first.etag }),
        first.etag,
        'asked again under the operator key',
      );

      await send([activation('bob', 'v2')]);
      const afterActivation = await remote('/campaigns/c1/report', { 'if-none-match': first.etag });
      assertFresh(afterActivation, 'after an activation', first.etag);
      assert.equal(visitors(afterActivation, 1), 1);

      await send([], [event('bob', 'h-1')]);
      const afterHit = await remote('/campaigns/c1/report', { 'if-none-match': afterActivation.etag });
      assertFresh(afterHit, 'after a goal hit', afterActivation.etag);
      const green = (afterHit.body as CampaignReport).variation_groups[0]?.variations[1];
      assert.equal(green?.events.add_to_cart?.visitors, 1);
      assertNotModified(
        await remote('/campaigns/c1/report', { 'if-none-match': afterHit.etag }),
        afterHit.etag,
        'nothing new since',
      );
    });

    void it('the report: a new name, allocation or analysis setting is a new ETag; the clock is not', async () => {
      let { etag } = await remote('/campaigns/c1/report');
      const changed = async (what: string, patch: object, check: (report: CampaignReport) => void) => {
        const patched = await operator('/campaigns/c1', {}, 'PATCH', patch);
        assert.equal(patched.status, 200, patched.text);
        const answer = await remote('/campaigns/c1/report', { 'if-none-match': etag });
        assertFresh(answer, what, etag);
        check(answer.body as CampaignReport);
        etag = answer.etag;
      };
      const campaign = (await operator('/campaigns/c1')).body as RemoteCampaign;
      const [group] = campaign.variation_groups;
      assert.ok(group !== undefined);
      await changed(
        'a variation renamed',
        {
          variation_groups: [
            { ...group, variations: group.variations.map((v) => ({ ...v, name: `${v.name} button` })) },
          ],
        },
        (report) => assert.equal(report.variation_groups[0]?.variations[1]?.name, 'Green button'),
      );
      await changed(
        'another allocation',
        {
          variation_groups: [
            {
              ...group,
              variations: group.variations.map((v, i) => ({ ...v, allocation: i === 0 ? 30 : 70 })),
            },
          ],
        },
        (report) => assert.notEqual(report.variation_groups[0]?.srm, undefined),
      );
      await changed('another alpha', { analysis: { alpha: 0.1 } }, (report) =>
        assert.equal(report.analysis.alpha, 0.1),
      );
      // The campaign's own name is not in the report, but it is in the stored definition: a new tag is the safe
      // side. Time passing changes only generated_at, which a 304 leaves as the copy had it.
      // (Under the operator key: the token would have expired by then.)
      const { clock } = started('clock');
      clock.ms += 2 * DAY;
      try {
        assertNotModified(
          await operator('/campaigns/c1/report', { 'if-none-match': etag }),
          etag,
          'two days later',
        );
      } finally {
        clock.ms -= 2 * DAY;
      }
    });

    void it('the daily series: 304 while nothing changed, 200 after a new row and on the next UTC day', async () => {
      const { clock } = started('clock');
      const first = await operator('/reports/c1/days');
      assertFresh(first, 'first read');
      assertNotModified(
        await operator('/reports/c1/days', { 'if-none-match': first.etag }),
        first.etag,
        'asked again',
      );
      // The report's tag is another answer's: it never validates the series.
      const report = await operator('/campaigns/c1/report');
      assert.notEqual(report.etag, first.etag);
      assert.equal((await operator('/reports/c1/days', { 'if-none-match': report.etag })).status, 200);

      await send([activation('cid', 'v1')]);
      const afterActivation = await operator('/reports/c1/days', { 'if-none-match': first.etag });
      assertFresh(afterActivation, 'after an activation', first.etag);
      const visitsToday = (series: DailySeries) =>
        series.variation_groups[0]?.variations[0]?.visits.at(-1) ?? 0;
      assert.equal(
        visitsToday(afterActivation.body as DailySeries),
        visitsToday(first.body as DailySeries) + 1,
      );

      // Midnight: the series gains a day; the report is the same, and keeps its tag.
      const reportToday = await operator('/campaigns/c1/report');
      clock.ms += DAY;
      try {
        const nextDay = await operator('/reports/c1/days', { 'if-none-match': afterActivation.etag });
        assertFresh(nextDay, 'the next UTC day', afterActivation.etag);
        assert.equal(
          (nextDay.body as DailySeries).days.length,
          (afterActivation.body as DailySeries).days.length + 1,
        );
        assert.equal(
          (nextDay.body as DailySeries).days.at(-1),
          new Date(clock.ms).toISOString().slice(0, 10),
        );
        assertNotModified(
          await operator('/campaigns/c1/report', { 'if-none-match': reportToday.etag }),
          reportToday.etag,
          'the report on the next day',
        );
        assertNotModified(
          await operator('/reports/c1/days', { 'if-none-match': nextDay.etag }),
          nextDay.etag,
          'the series later that day',
        );
      } finally {
        clock.ms -= DAY;
      }
    });

    void it('If-None-Match: a list, `*`, the weak or strong form; other tags and unknown campaigns', async () => {
      const { etag } = await remote('/campaigns/c1/report');
      const strong = etag.slice(2);
      for (const header of [
        etag,
        strong,
        '*',
        ` "elsewhere" , ${etag}`,
        `W/"elsewhere",${strong}`,
        `"elsewhere",\tW/"again", ${etag}`,
      ])
        assertNotModified(
          await remote('/campaigns/c1/report', { 'if-none-match': header }),
          etag,
          `If-None-Match: ${header}`,
        );
      for (const header of [
        '"elsewhere"',
        'W/"elsewhere", "again"',
        strong.slice(0, -2) + '"',
        '',
        'nonsense',
      ])
        assertFresh(
          await remote('/campaigns/c1/report', { 'if-none-match': header }),
          `If-None-Match: ${header}`,
        );
      // Errors stay what they were: `*` matches only a campaign that is there.
      const unknown = await remote('/campaigns/never-was/report', { 'if-none-match': '*' });
      assert.equal(unknown.status, 404);
      assert.equal((unknown.body as { code: string }).code, 'not_found');
      assert.equal((await operator('/reports/never-was/days', { 'if-none-match': '*' })).status, 404);
      assert.equal((await operator('/reports?campaign=never-was', { 'if-none-match': '*' })).status, 404);
    });

    void it('the operator reports route: one tag over the campaigns listed, each one as it stands', async () => {
      const { server } = started('server');
      const all = await operator('/reports');
      assertFresh(all, 'every report');
      const one = await operator('/reports?campaign=checkout');
      assertFresh(one, 'one report by slug');
      assertNotModified(await operator('/reports', { 'if-none-match': all.etag }), all.etag, 'asked again');
      assertNotModified(
        await operator('/reports?campaign=c1', { 'if-none-match': one.etag }),
        one.etag,
        'one report by id',
      );
      // Another campaign is another list.
      const created = await operator('/campaigns', {}, 'POST', {
        id: 'c2',
        name: 'Premium banner',
        type: 'toggle',
        variation_groups: [
          {
            id: 'vg2',
            name: 'Premium',
            targeting: {
              targeting_groups: [{ targetings: [{ key: 'plan', operator: 'EQUALS', value: 'premium' }] }],
            },
            variations: [
              {
                id: 'v3',
                name: 'On',
                reference: true,
                allocation: 100,
                modifications: { type: 'FLAG', value: { banner: true } },
              },
            ],
          },
        ],
      });
      assert.equal(created.status, 201, created.text);
      const more = await operator('/reports', { 'if-none-match': all.etag });
      assertFresh(more, 'a campaign more', all.etag);
      assert.equal((more.body as { reports: unknown[] }).reports.length, 2);
      assertNotModified(
        await operator('/reports?campaign=c1', { 'if-none-match': one.etag }),
        one.etag,
        'the first campaign alone',
      );
      // A row of the second campaign: the list changes, the first campaign's report does not.
      assert.ok(premiumToggle().id === 'c2');
      assert.equal(
        (
          await post(`${server.url}/v2/activate`, {
            cid: started('env').env.envId,
            batch: [{ vid: 'dan', aid: null, caid: 'vg2', vaid: 'v3', qt: 0 }],
          })
        ).status,
        204,
      );
      assertFresh(await operator('/reports', { 'if-none-match': more.etag }), 'a row of c2', more.etag);
      assertNotModified(
        await operator('/reports?campaign=c1', { 'if-none-match': one.etag }),
        one.etag,
        'c1 after a row of c2',
      );
    });
  },
);

void it('noneMatchHits compares weakly, over a list, with `*`', () => {
  const tag = 'W/"abc"';
  assert.equal(noneMatchHits('"abc"', tag), true);
  assert.equal(noneMatchHits('W/"abc"', tag), true);
  assert.equal(noneMatchHits('"x", W/"abc"', tag), true);
  assert.equal(noneMatchHits('*', tag), true);
  assert.equal(noneMatchHits('"abcd"', tag), false);
  assert.equal(noneMatchHits('"x,abc"', tag), false);
  assert.equal(noneMatchHits('abc', tag), false);
  assert.equal(noneMatchHits('', tag), false);
});
